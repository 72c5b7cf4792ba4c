/**
 * The Dockerfile and the Kubernetes manifests in deploy/: read and checked for what operators rely
 * on (multi-stage, non-root, runtime dependencies only, rules checked at build time; probes on the
 * routes the service answers, resources, an autoscaler aimed at the deployment). The image itself is
 * built only where a Docker daemon answers; else the Dockerfile is linted with hadolint if it is
 * installed; else that one test is skipped and says why.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DockerfileParser } from 'dockerfile-ast'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseAllDocuments } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { startService, type Service } from '../helpers.js'

const test = suite('deploy: Dockerfile and Kubernetes manifests')

const dockerfile = DockerfileParser.parse(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))
const instructions = dockerfile.getInstructions()
const stages = dockerfile.getFROMs()
/** The instructions after the last FROM: the image that runs. */
const runtime = instructions.slice(instructions.indexOf(stages[stages.length - 1]!))
const text = (i: { getArgumentsContent: () => string | null }) => i.getArgumentsContent() ?? ''

test('the Dockerfile is multi-stage and runs as a non-root user', () => {
  assert.ok(stages.length >= 2, 'at least a build stage and a runtime stage')
  const users = runtime.filter((i) => i.getKeyword() === 'USER').map(text)
  assert.ok(users.length > 0, 'the runtime stage sets a USER')
  assert.not.ok(['root', '0'].includes(users[users.length - 1]!.trim()))
})

test('runtime dependencies come from npm ci --omit=dev, and the rules are checked while the image is built', () => {
  const runs = instructions.filter((i) => i.getKeyword() === 'RUN').map(text)
  assert.ok(runs.some((r) => /npm ci\b.*--omit=dev/.test(r)), 'npm ci --omit=dev')
  assert.ok(runs.some((r) => /check-rules/.test(r)), 'the rule check runs at build time')
  const cmd = runtime.find((i) => i.getKeyword() === 'CMD')
  assert.match(cmd ? text(cmd) : '', /dist\/server\/main\.js/)
})

test('every file the Dockerfile copies from the build context exists', () => {
  for (const copy of instructions.filter((i) => i.getKeyword() === 'COPY')) {
    // A copy from another stage reads that stage's files, not the context's.
    if (/--from=/.test(copy.getTextContent())) continue
    const args = text(copy).split(/\s+/).filter(Boolean)
    for (const source of args.slice(0, -1)) assert.ok(existsSync(join(ROOT, source)), `COPY ${source}`)
  }
})

function manifests(): Record<string, unknown>[] {
  const dir = join(ROOT, 'deploy', 'kubernetes')
  const kustomization = parseAllDocuments(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as { resources: string[] }
  return kustomization.resources.flatMap((file) => parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => d.toJS() as Record<string, unknown>))
}

interface Container {
  ports: { name: string; containerPort: number }[]
  env: { name: string; value?: string }[]
  readinessProbe: { httpGet: { path: string; port: string } }
  livenessProbe: { httpGet: { path: string; port: string } }
  resources: { requests: { cpu: string; memory: string } }
}

let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

test('the deployment probes /readyz and /healthz, which the service answers, on the port it listens on', async () => {
  const deployment = manifests().find((m) => m.kind === 'Deployment') as { metadata: { name: string }; spec: { template: { spec: { containers: Container[]; securityContext: { runAsNonRoot: boolean } } } } }
  assert.ok(deployment)
  const pod = deployment.spec.template.spec
  assert.is(pod.securityContext.runAsNonRoot, true)
  const [container] = pod.containers
  const port = container!.ports.find((p) => p.name === container!.readinessProbe.httpGet.port)
  assert.is(String(port?.containerPort), container!.env.find((e) => e.name === 'PORT')?.value)
  assert.is(container!.readinessProbe.httpGet.path, '/readyz')
  assert.is(container!.livenessProbe.httpGet.path, '/healthz')
  for (const path of ['/readyz', '/healthz']) assert.is((await fetch(service.url + path)).status, 200, path)
  assert.ok(container!.resources.requests.cpu && container!.resources.requests.memory, 'resource requests')
  assert.ok(container!.env.some((e) => e.name === 'DATABASE_URL'), 'the shared key store')
})

test('Prometheus scrapes /metrics on the metrics port (METRICS_PORT), which the Service does not expose', () => {
  const all = manifests()
  const deployment = all.find((m) => m.kind === 'Deployment') as { spec: { template: { metadata: { annotations: Record<string, string> }; spec: { containers: Container[] } } } }
  const annotations = deployment.spec.template.metadata.annotations
  const [container] = deployment.spec.template.spec.containers
  const metricsPort = container!.env.find((e) => e.name === 'METRICS_PORT')?.value
  assert.ok(metricsPort, 'METRICS_PORT is set')
  assert.is.not(metricsPort, container!.env.find((e) => e.name === 'PORT')?.value)
  assert.is(String(container!.ports.find((p) => p.name === 'metrics')?.containerPort), metricsPort, 'a second container port')
  assert.is(annotations['prometheus.io/scrape'], 'true')
  assert.is(annotations['prometheus.io/port'], metricsPort)
  assert.is(annotations['prometheus.io/path'], '/metrics')
  const svc = all.find((m) => m.kind === 'Service') as { spec: { ports: { targetPort: string | number }[] } }
  assert.not.ok(svc.spec.ports.some((p) => p.targetPort === 'metrics' || String(p.targetPort) === metricsPort), 'the Service exposes no metrics port')
})

test('the image is named in kustomization.yaml (a setting), and the pods print no key into their logs', () => {
  const dir = join(ROOT, 'deploy', 'kubernetes')
  const kustomization = parseAllDocuments(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'))[0]!.toJS() as { images?: { name: string; newName: string; newTag: string }[] }
  const deployment = manifests().find((m) => m.kind === 'Deployment') as { spec: { template: { spec: { containers: (Container & { image: string; env: { name: string; value?: string }[] })[] } } } }
  const container = deployment.spec.template.spec.containers[0]!
  assert.ok(kustomization.images?.some((i) => i.name === container.image && i.newName && i.newTag), 'kustomize edit set image rules-service=… names the image')
  assert.is(container.env.find((e) => e.name === 'ISSUE_FIRST_KEY')?.value, 'off')
})

test('ISSUE_FIRST_KEY=off: an empty key store is told how to issue a key, and no key is printed', async () => {
  // A port this test holds is not the service's to listen on: the start stops right after the key
  // store is opened (the port-taken exit), which is all this needs. (Port 1 was used before; run as
  // root the service listened there, and the test waited out spawnSync's 60-second timeout.)
  const taken = createServer()
  await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening))
  try {
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'server', 'main.js')], {
      env: { ...process.env, DATABASE_URL: '', PORT: String((taken.address() as AddressInfo).port), HOST: '127.0.0.1', WORKERS: '1', EVALUATION_THREADS: '0', ISSUE_FIRST_KEY: 'off', DATA_DIR: mkdtempSync(join(tmpdir(), 'first-key-')) },
      encoding: 'utf8',
      timeout: 120_000,
    })
    assert.match(run.stdout, /No API key in the key store; issue one with: node dist\/tools\/keys\.js issue/)
    assert.not.match(run.stdout, /x-api-key:/)
    assert.match(run.stderr, /already in use/, 'the start stopped on the port held, not on the timeout')
  } finally {
    await new Promise((closed) => taken.close(closed))
  }
})

test('ISSUE_FIRST_KEY takes on or off; anything else stops the start naming it', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'server', 'main.js')], { env: { ...process.env, ISSUE_FIRST_KEY: 'no', WORKERS: '1' }, encoding: 'utf8', timeout: 30_000 })
  assert.is(run.status, 1)
  assert.match(run.stderr, /ISSUE_FIRST_KEY must be on or off, got no/)
})

test('the autoscaler scales the deployment', () => {
  const all = manifests()
  const deployment = all.find((m) => m.kind === 'Deployment') as { metadata: { name: string } }
  const hpa = all.find((m) => m.kind === 'HorizontalPodAutoscaler') as { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number } }
  assert.is(hpa.spec.scaleTargetRef.kind, 'Deployment')
  assert.is(hpa.spec.scaleTargetRef.name, deployment.metadata.name)
  assert.ok(hpa.spec.minReplicas >= 1 && hpa.spec.maxReplicas > hpa.spec.minReplicas)
})

const daemon = spawnSync('docker', ['info'], { encoding: 'utf8' }).status === 0
const hadolint = spawnSync('hadolint', ['--version'], { encoding: 'utf8' }).status === 0
if (daemon) {
  test('the image builds (the rule check runs inside the build)', () => {
    execFileSync('docker', ['build', '-t', 'rules-service:test', ROOT], { stdio: 'inherit', timeout: 900_000 })
  })
} else if (hadolint) {
  test('hadolint finds nothing in the Dockerfile', () => {
    const r = spawnSync('hadolint', [join(ROOT, 'Dockerfile')], { encoding: 'utf8' })
    assert.is(r.status, 0, r.stdout + r.stderr)
  })
} else {
  console.log('\n  SKIPPED building the image: no Docker daemon answers and hadolint is not installed (the Dockerfile was still read and checked above)\n')
  test.skip('the image builds, or hadolint finds nothing in the Dockerfile', () => {})
}

test.run()
