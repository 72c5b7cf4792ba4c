/**
 * @module `npm start`: load and check every rule file (refusing to start on any problem), open the
 * key store (issuing a first key if there is none), and serve until SIGTERM or SIGINT.
 *
 * One worker per core (node:cluster), each with its own catalog, sharing the port; a worker that
 * dies is replaced. WORKERS=1 runs a single process with no cluster primary.
 *
 * Environment: PORT (8080), HOST (127.0.0.1), WORKERS (the number of cores), DATA_DIR (./data, holds
 * keys.json), DATABASE_URL (keeps the keys in PostgreSQL instead, shared by every machine), RULES_DIR
 * and TABLES_DIR (./rules, ./tables), EVALUATION_THREADS (1: threads per process for the endpoints
 * that run off the event loop), WORK_LIMIT_STEPS and WORK_LIMIT_MS (rules/service.yaml), LOG_LEVEL
 * (info; silent for none: one JSON line per request on stdout), METRICS (on; off closes GET /metrics),
 * METRICS_PORT (unset: GET /metrics on PORT; set: only on this port, by a small server of its own),
 * TRUST_PROXY (0: the client address is the socket's; n: take it from X-Forwarded-For as the last
 * of n trusted proxies saw it), AUTH_FAILURES_PER_MINUTE (60), ISSUE_FIRST_KEY (on: an empty key
 * store gets a first key, printed once; off: it is said how to issue one, as in Kubernetes),
 * DATA_RELOAD_SECONDS (60: how often a process looks for data sets newly installed under
 * DATA_DIR/datasets by `npm run data -- update`, and swaps them in; 0: only at start),
 * ANSWER_MEMO_BYTES (16 MiB: answers kept to answer the same request body again; 0: none).
 */
import cluster from 'node:cluster'
import { createServer } from 'node:net'
import { availableParallelism } from 'node:os'
import { loadCatalogOrExit } from '../service/project/catalog.js'
import { DATASETS_DIR, ENDPOINTS_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { keepDatasetsCurrent } from '../service/datasets.js'
import { ANSWER_MEMO_BYTES, createApp } from './app.js'
import { answerMalformedRequests } from './errors.js'
import { EvaluationPool } from './pool.js'
import { openKeyStore, type KeyStore } from '../service/keys.js'
import { pino } from 'pino'
import { LogDestination } from './log-destination.js'
import { register as processRegistry } from 'prom-client'
import { ServiceMetrics } from './observe.js'
import { askPrimaryForMetrics, answerMetricsRequests, clusterMetricsText, offerWorkerMetrics } from './cluster-metrics.js'
import { serveMetricsPort } from './metrics-port.js'
import type { Server } from 'node:http'

const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '127.0.0.1'
const workers = Number(process.env.WORKERS ?? availableParallelism())
if (!Number.isInteger(workers) || workers < 1) {
  console.error(`WORKERS must be a whole number of at least 1, got ${process.env.WORKERS}`)
  process.exit(1)
}

const load = loadCatalogOrExit

/** METRICS=off closes GET /metrics; anything else but on is a mistake said at start. */
const metricsSetting = process.env.METRICS ?? 'on'
if (metricsSetting !== 'on' && metricsSetting !== 'off') {
  console.error(`METRICS must be on or off, got ${metricsSetting}`)
  process.exit(1)
}
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
const logLevel = process.env.LOG_LEVEL ?? 'info'
if (!LOG_LEVELS.includes(logLevel)) {
  console.error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${logLevel}`)
  process.exit(1)
}

/** Failed authentications an address may make a minute before 429: AUTH_FAILURES_PER_MINUTE, else 60; 0 for none. */
const authFailuresPerMinute = Number(process.env.AUTH_FAILURES_PER_MINUTE ?? 60)
if (!Number.isInteger(authFailuresPerMinute) || authFailuresPerMinute < 0) {
  console.error(`AUTH_FAILURES_PER_MINUTE must be a whole number of at least 0, got ${process.env.AUTH_FAILURES_PER_MINUTE}`)
  process.exit(1)
}

/** METRICS_PORT: GET /metrics only on this port (a second container port, not the one an ingress exposes). */
const metricsPort = process.env.METRICS_PORT?.trim() ? Number(process.env.METRICS_PORT) : undefined
if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65535 || metricsPort === port)) {
  console.error(`METRICS_PORT must be a port number (1 to 65535) other than PORT, got ${process.env.METRICS_PORT}`)
  process.exit(1)
}
if (metricsPort !== undefined && metricsSetting === 'off') {
  console.error('METRICS_PORT is set but METRICS=off: choose one')
  process.exit(1)
}

/** TRUST_PROXY: how many proxies in front of the service append to X-Forwarded-For (0 or off: none, use the socket's address). */
const trustProxySetting = process.env.TRUST_PROXY?.trim() || '0'
const trustProxy = trustProxySetting === 'off' ? 0 : Number(trustProxySetting)
if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10) {
  console.error(`TRUST_PROXY must be the number of trusted proxies in front of the service (0 to 10; 0 or off for none), got ${process.env.TRUST_PROXY}`)
  process.exit(1)
}

/** The metrics port, or one line and an exit when it cannot be listened on. */
function listenForMetrics(text: () => Promise<string>, said: string): void {
  serveMetricsPort(metricsPort!, host, text)
    .on('listening', () => console.log(said))
    .on('error', (error: NodeJS.ErrnoException) => {
      console.error(`cannot serve metrics on ${host}:${metricsPort}: ${error.code ?? error.message}; choose another METRICS_PORT`)
      process.exit(1)
    })
}

/**
 * The server's bounds on a slow client: a request must arrive whole within 30 s (Node's default is
 * 300 s, and a trickled body held its socket that long) and its headers within 20 s.
 */
function boundSlowClients(server: Server): void {
  server.requestTimeout = 30_000
  server.headersTimeout = 20_000
}

/** ISSUE_FIRST_KEY: on (the default) issues and prints a first key into an empty store; off only says how to issue one. */
const firstKeySetting = process.env.ISSUE_FIRST_KEY ?? 'on'
if (firstKeySetting !== 'on' && firstKeySetting !== 'off') {
  console.error(`ISSUE_FIRST_KEY must be on or off, got ${firstKeySetting}`)
  process.exit(1)
}

/** Threads per process for the heavy endpoints: EVALUATION_THREADS, else one; 0 answers them in-process. */
const evaluationThreads = Number(process.env.EVALUATION_THREADS ?? 1)
if (!Number.isInteger(evaluationThreads) || evaluationThreads < 0) {
  console.error(`EVALUATION_THREADS must be a whole number of at least 0, got ${process.env.EVALUATION_THREADS}`)
  process.exit(1)
}

/** DATA_RELOAD_SECONDS: how often installed data set copies are looked for (0: only at start). */
const dataReloadSeconds = Number(process.env.DATA_RELOAD_SECONDS ?? 60)
if (!Number.isInteger(dataReloadSeconds) || dataReloadSeconds < 0) {
  console.error(`DATA_RELOAD_SECONDS must be a whole number of at least 0, got ${process.env.DATA_RELOAD_SECONDS}`)
  process.exit(1)
}

/** ANSWER_MEMO_BYTES: answers a process keeps for a request body sent again (server/answer-memo.ts). */
const answerMemoBytes = Number(process.env.ANSWER_MEMO_BYTES ?? ANSWER_MEMO_BYTES)
if (!Number.isInteger(answerMemoBytes) || answerMemoBytes < 0) {
  console.error(`ANSWER_MEMO_BYTES must be a whole number of bytes, at least 0, got ${process.env.ANSWER_MEMO_BYTES}`)
  process.exit(1)
}

/** The key store (DATABASE_URL, else DATA_DIR/keys.json); one line and an exit when it cannot be opened. */
async function openStore(): Promise<KeyStore> {
  try {
    return await openKeyStore()
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  }
}

/** Open the key store once for the whole service, saying which, and issue a first key into an empty one. */
async function openKeys(): Promise<KeyStore> {
  const keys = await openStore()
  console.log(`key store: ${keys.description}`)
  // In a cluster a key printed at start lands in a log many can read (ISSUE_FIRST_KEY=off there):
  // the first key is issued by hand, into the terminal of whoever runs the command.
  if (firstKeySetting === 'off') {
    if ((await keys.list()).length === 0) console.log('No API key in the key store; issue one with: node dist/tools/keys.js issue --label NAME (in Kubernetes: kubectl exec deploy/rules-service -- node dist/tools/keys.js issue --label NAME)')
    return keys
  }
  const first = await keys.issueFirst('first key, issued by npm start')
  if (first) console.log(`No API key found in the key store; issued one. It is shown only this once:\n\n  x-api-key: ${first.key}\n`)
  return keys
}

/** Serve in this process; `label` tells which worker in the log. */
async function serve(label: string): Promise<void> {
  const catalog = load()
  const keys = cluster.isWorker ? await openStore() : await openKeys()
  // The heavy endpoints' threads load their catalog while this process starts listening.
  const pool = evaluationThreads > 0 && catalog.endpoints.some((e) => e.execution === 'worker')
    ? new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, endpointsDir: ENDPOINTS_DIR, datasetsDir: DATASETS_DIR, datasetReloadSeconds: dataReloadSeconds, limits: catalog.service.limits }, evaluationThreads)
    : undefined
  keepDatasetsCurrent(catalog, DATASETS_DIR, dataReloadSeconds, (line) => console.log(`${label}${line}`))
  // One JSON line per request on stdout, written asynchronously in large chunks (log-destination.ts).
  const logger = pino({ level: logLevel, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, new LogDestination(1))
  // In a cluster every worker counts in the process registry and GET /metrics, whichever worker
  // answers it, serves the sum over the workers that the primary collects.
  const metrics = metricsSetting === 'off' ? undefined : cluster.isWorker ? new ServiceMetrics(processRegistry) : new ServiceMetrics()
  const metricsText = metrics && cluster.isWorker ? askPrimaryForMetrics : undefined
  if (metricsText) offerWorkerMetrics()
  // With METRICS_PORT, this process serves it when it is alone; in a cluster the primary does.
  if (metrics && metricsPort !== undefined && !cluster.isWorker) {
    const registry = metrics.registry
    listenForMetrics(() => registry.metrics(), `${label}metrics on http://${host}:${metricsPort}/metrics`)
  }
  const server = createApp({ catalog, keys, pool, authFailuresPerMinute, trustProxy, serveMetrics: metricsPort === undefined, logger, metrics, metricsText, answerMemoBytes }).listen(port, host, () => {
    console.log(`${label}listening on http://${host}:${port} (${catalog.endpoints.length} endpoints, rules ${catalog.service.formula_version}, root ${ROOT})`)
  })
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error
    // Said once, by the primary when there is one (it watches for this exit code).
    if (!cluster.isWorker) console.error(portTaken(error.code))
    process.exit(PORT_UNAVAILABLE)
  })
  answerMalformedRequests(server)
  boundSlowClients(server)
  const shutdown = (signal: string) => {
    console.log(`${label}${signal}: closing, finishing requests in flight`)
    server.close(() => logger.flush(() => process.exit(0)))
    server.closeIdleConnections()
    setTimeout(() => process.exit(0), 10_000).unref()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

/** The exit code of a process whose port is taken or not allowed: the primary stops instead of restarting it. */
const PORT_UNAVAILABLE = 78

function portTaken(code: string | undefined): string {
  return code === 'EACCES'
    ? `cannot listen on ${host}:${port}: permission denied; choose another port with PORT=8081 npm start`
    : `port ${port} on ${host} is already in use; stop the other server or choose another port with PORT=8081 npm start`
}

/** The cluster primary: check the rules and the keys once, then fork and watch the workers. */
async function primary(): Promise<void> {
  load()
  // The workers open their own; the primary serves no request.
  await (await openKeys()).close()
  // The port is tried once here, before any worker: a taken port is one line and an exit, not a
  // worker dying and being restarted.
  const probe = createServer()
  await new Promise<void>((resolve) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      console.error(portTaken(error.code))
      process.exit(1)
    })
    probe.listen(port, host, () => probe.close(() => resolve()))
  })
  if (metricsSetting === 'on') answerMetricsRequests()
  if (metricsSetting === 'on' && metricsPort !== undefined) {
    listenForMetrics(clusterMetricsText, `metrics of ${workers} workers on http://${host}:${metricsPort}/metrics`)
  }
  let stopping = false
  let restarts = 0
  const fork = () => cluster.fork()
  for (let i = 0; i < workers; i++) fork()
  cluster.on('exit', (worker, code, signal) => {
    if (code === PORT_UNAVAILABLE) {
      // Taken between the probe and the workers' listen: say so once, stop the others, and exit.
      stopping = true
      console.error(portTaken('EADDRINUSE'))
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGKILL')
      process.exit(1)
    }
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0)
      return
    }
    // A crash loop (more restarts than a minute of one a second) means the worker cannot start: stop.
    if (++restarts > 60) {
      console.error('workers keep dying; stopping')
      process.exit(1)
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`)
    setTimeout(fork, 1000)
  })
  setInterval(() => (restarts = Math.max(0, restarts - 1)), 1000).unref()
  const stop = (signal: string) => {
    stopping = true
    console.log(`${signal}: stopping ${workers} workers`)
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    setTimeout(() => process.exit(0), 11_000).unref()
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

if (workers > 1 && cluster.isPrimary) await primary()
else await serve(cluster.isWorker ? `worker ${process.pid}: ` : '')
