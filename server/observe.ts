/**
 * @module What an operator sees of each request: one structured log line (pino) and the Prometheus
 * metrics (prom-client), both from the first middleware, so every answer is counted and logged,
 * a 401 from the bad-key guard and a 404 included.
 *
 * A request carries an id: the caller's `x-request-id` when it is well-formed (an id from a proxy or
 * a client's own trace), else a new UUID; it is echoed in the `x-request-id` response header and
 * written in the log line, so a caller's report can be found in the logs. The log line holds the
 * request id, the operation id, the method and path, the status, the duration and the key id; never
 * the key's secret, another header, or the body. Requests refused for their key are logged at debug
 * level only (they are counted in the metrics).
 */
import { randomUUID } from 'node:crypto'
import type { Context, Next } from 'koa'
import type { Logger } from 'pino'
import { Registry, collectDefaultMetrics } from 'prom-client'
import { HotCounter, HotHistogram, type CounterSeries, type HistogramSeries } from './hot-metrics.js'

/** A caller's request id is kept when it is 1 to 128 of these characters; anything else is replaced. */
const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/

/** The metrics of one app, in their own registry (the process metrics too, where asked for). */
export class ServiceMetrics {
  readonly registry: Registry
  readonly requests: HotCounter
  readonly duration: HotHistogram
  readonly evaluation: HotHistogram
  readonly keyFailures: HotCounter
  /** The request counter's and the duration histogram's series of each operation and status, kept. */
  private readonly answered = new Map<string, { requests: CounterSeries; duration: HistogramSeries }>()

  constructor(registry = new Registry(), { processMetrics = true }: { processMetrics?: boolean } = {}) {
    this.registry = registry
    if (processMetrics) collectDefaultMetrics({ register: registry })
    this.requests = new HotCounter({ name: 'http_requests_total', help: 'Requests answered, by operation id and status', labelNames: ['operation', 'status'], registers: [registry] })
    // Histogram buckets are seconds, an operator's choice, not law: a state answer takes tens of
    // microseconds of evaluation and a few milliseconds end to end; an optimizer up to seconds.
    this.duration = new HotHistogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to its answer, by operation id and status',
      labelNames: ['operation', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    })
    this.evaluation = new HotHistogram({
      name: 'engine_evaluation_seconds',
      help: 'Time the engine took to answer a calculation (on the evaluation pool where the endpoint runs there), by operation id',
      labelNames: ['operation'],
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
      registers: [registry],
    })
    this.keyFailures = new HotCounter({ name: 'api_key_failures_total', help: 'Requests refused for their API key: 401 (missing, malformed or wrong) or 429 (too many failures from the address)', labelNames: ['reason'], registers: [registry] })
  }

  /** The series an answered request is counted in, looked up once per operation and status. */
  answeredSeries(operation: string, status: number): { requests: CounterSeries; duration: HistogramSeries } {
    const key = `${operation} ${status}`
    let series = this.answered.get(key)
    if (!series) {
      series = { requests: this.requests.labels({ operation, status }), duration: this.duration.labels({ operation, status }) }
      this.answered.set(key, series)
    }
    return series
  }
}

/** Count one answered request and its duration under its operation and status. */
function countAnswer(metrics: ServiceMetrics, operation: string, status: number, seconds: number): void {
  const series = metrics.answeredSeries(operation, status)
  series.requests.inc()
  series.duration.observe(seconds)
}

/**
 * What the log and the metrics name a request by: its endpoint's operation id, else the pattern of
 * the route that matched (`GET /schemas/:operation`), else its status's kind. Never the raw path:
 * the router matches paths case-insensitively, and a label per spelling of a path made one series
 * per request (16,400 from 2,000 case-varied requests).
 */
function operationOf(ctx: Context): string {
  if (typeof ctx.state.operationId === 'string') return ctx.state.operationId
  // @koa/router sets the pattern of the route that matched, and only a route of the request's own
  // method (or HEAD for GET) matches, so method and pattern are both from a fixed set.
  const route = (ctx as { _matchedRoute?: unknown })._matchedRoute
  if (typeof route === 'string') return `${ctx.method} ${route}`
  return ctx.status === 404 ? 'not_found' : ctx.status === 405 || ctx.status === 501 ? 'method_not_allowed' : 'other'
}

/**
 * Answers after which the connection is closed: they are given before the body is read, so a client
 * trickling a large body would otherwise hold the socket until Node's request timeout.
 */
const CLOSING = new Set([401, 413, 415, 429])

/**
 * The first middleware: gives the request its id, then, once the answer is ready (whatever answered
 * it), logs one line and counts it.
 */
export function observe(logger: Logger | undefined, metrics: ServiceMetrics | undefined) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint()
    const given = ctx.get('x-request-id')
    const id = REQUEST_ID.test(given) ? given : randomUUID()
    ctx.state.requestId = id
    ctx.set('x-request-id', id)
    try {
      await next()
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const operation = operationOf(ctx)
      const status = ctx.status
      if (CLOSING.has(status)) ctx.set('Connection', 'close')
      if (metrics) {
        countAnswer(metrics, operation, status, seconds)
        if (status === 401 || status === 429) metrics.keyFailures.inc({ reason: String(status) })
      }
      // A refused key (401, 429) is counted above but logged only at debug: a flood of bad keys must
      // not become a flood of log lines, which would cost the good requests and the log store alike.
      const refused = status === 401 || status === 429
      if (logger && (!refused || logger.isLevelEnabled('debug'))) {
        logger[refused ? 'debug' : 'info']({ request_id: id, operation, method: ctx.method, path: ctx.path, status, duration_ms: Math.round(seconds * 1e6) / 1e3, key_id: ctx.state.keyId }, 'request')
      }
    }
  }
}
