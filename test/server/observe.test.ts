/**
 * What an operator sees: a request id on every answer, one log line per request (never the secret
 * or the body), and the Prometheus metrics at GET /metrics, only where the app was given them.
 */
import { Writable } from 'node:stream'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { pino } from 'pino'
import { ServiceMetrics } from '../../server/observe.js'
import { post, startServiceWith, type Service } from '../helpers.js'

const test = suite('server/observe: logs, request ids and metrics')

const lines: Record<string, unknown>[] = []
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
    done()
  },
})
const metrics = new ServiceMetrics(undefined, { processMetrics: true })
let service: Service
let bare: Service
const NY = { state: 'NY', tax_year: 2026, gross_estate: 8000000 }

test.before(async () => {
  service = await startServiceWith({ logger: pino({ base: null, level: 'debug' }, sink), metrics })
  bare = await startServiceWith({})
})
test.after(async () => {
  await service.close()
  await bare.close()
})

test("a well-formed x-request-id is echoed and logged with the operation, status, duration and key id, never the secret or the body", async () => {
  const res = await fetch(service.url + '/estate/calculate-state-tax', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.key, 'x-request-id': 'trace-42' },
    body: JSON.stringify(NY),
  })
  assert.is(res.status, 200)
  assert.is(res.headers.get('x-request-id'), 'trace-42')
  const line = lines.find((l) => l.request_id === 'trace-42')
  assert.ok(line, 'a log line for the request')
  assert.is(line!.operation, 'state_estate_tax')
  assert.is(line!.status, 200)
  assert.is(line!.key_id, service.key.split('.')[0])
  assert.type(line!.duration_ms, 'number')
  const text = JSON.stringify(lines)
  assert.not.ok(text.includes(service.key.split('.')[1]!), 'the secret is not logged')
  assert.not.ok(text.includes('8000000'), 'the body is not logged')
})

test('a malformed or missing x-request-id is replaced by a new UUID', async () => {
  const a = await fetch(service.url + '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } })
  assert.match(a.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
  const b = await fetch(service.url + '/healthz')
  assert.match(b.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
  assert.is.not(a.headers.get('x-request-id'), b.headers.get('x-request-id'))
})

test('a refused key is logged at debug level, under the operation it was sent to', async () => {
  const r = await post(service, '/estate/calculate-state-tax', NY, { 'x-api-key': 'kNope.AAAAAAAAAAAAAAAAAAAAAAAA', 'x-request-id': 'refused-1' })
  assert.is(r.status, 401)
  const line = lines.find((l) => l.request_id === 'refused-1')
  assert.is(line?.operation, 'state_estate_tax')
  assert.is(line?.status, 401)
  assert.is(line?.key_id, undefined)
  assert.is(line?.level, 20)
})

test('GET /metrics serves request counts and durations by operation and status, evaluation time, key failures and process metrics', async () => {
  const res = await fetch(service.url + '/metrics')
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /text\/plain/)
  const text = await res.text()
  assert.match(text, /http_requests_total\{operation="state_estate_tax",status="200"\} [1-9]/)
  assert.match(text, /http_request_duration_seconds_bucket\{le="0\.5",operation="state_estate_tax",status="200"\} [1-9]/)
  assert.match(text, /engine_evaluation_seconds_count\{operation="state_estate_tax"\} [1-9]/)
  assert.match(text, /api_key_failures_total\{reason="401"\} [1-9]/)
  assert.match(text, /process_cpu_user_seconds_total/)
})

test('metric labels stay bounded under case-varied and unknown paths: the matched route, never the raw path', async () => {
  const labels = async () => new Set([...(await (await fetch(service.url + '/metrics')).text()).matchAll(/^http_requests_total\{operation="([^"]*)"/gm)].map((m) => m[1]))
  const before = await labels()
  const word = 'supplier-diversity'
  for (let i = 0; i < 64; i++) {
    // The fuzz review's reproducer: each spelling of the path was a new series.
    const spelled = [...word].map((c, k) => ((i >> k) & 1 ? c.toUpperCase() : c)).join('')
    await fetch(`${service.url}/${spelled}/certifications`)
    await fetch(`${service.url}/SCHEMAS/${spelled}`)
    await fetch(`${service.url}/no-such-${i}`)
  }
  const after = await labels()
  const added = [...after].filter((l) => !before.has(l))
  assert.ok(added.length <= 3, `new labels: ${added.join(', ')}`)
  for (const label of after) assert.not.match(label!, /-diversity|no-such/i, "no label holds the raw path")
  assert.ok(after.has('GET /schemas/:operation'), 'a public route is labelled by its pattern')
})

test('an app given no metrics has no /metrics route (METRICS=off)', async () => {
  const res = await fetch(bare.url + '/metrics')
  assert.is(res.status, 404)
})

test.run()
