/**
 * @module The Koa application: one POST route per path of every endpoint manifest, so adding an
 * endpoint is a YAML file, never server code.
 *
 * Per route: authenticate (`x-api-key`), require `application/json`, parse the body (64 KiB at most,
 * or the manifest's `body_limit`), then answer through the engine. Errors become the JSON error body in errors.ts.
 *
 * The same manifests give the public description routes (no key): GET /openapi.json, /docs,
 * /playground and /schemas/<operation id>.json; the MCP tools at POST /mcp and many requests at
 * POST /batch (batch.ts), both with a key; and /healthz, /readyz, /version and /metrics for
 * operators. Every request gets an id and a log line (observe.ts).
 */
import Koa, { type Context, type Next } from 'koa'
import Router from '@koa/router'
import compose from 'koa-compose'
import bodyParser from 'koa-bodyparser'
import { answer, checkRequest, type Catalog, type Endpoint, type Envelope } from '../service/index.js'
import { BODY_LIMIT, bodyLimitBytes, bodyLimitText, catalogDataAsOf, serviceVersion } from '../service/contract.js'
import { deeperThan, MAX_DEPTH } from '../service/depth.js'
import { docsRoutes } from './docs.js'
import { playgroundRoutes } from './playground.js'
import { errors } from './errors.js'
import { HttpError, unauthorized } from '../service/errors.js'
import { parseKey, type KeyStore } from '../service/keys.js'
import type { Logger } from 'pino'
import { observe, type ServiceMetrics } from './observe.js'
import { McpTools } from '../service/mcp.js'
import { handleMcpHttp } from './mcp-http.js'
import { FailedAuthLimit } from './auth-limit.js'
import type { EvaluationPool } from './pool.js'
import { openApiDocument } from '../service/openapi.js'
import { batchLimits, type BatchLimits } from '../service/batch.js'
import { batchHandler } from './batch.js'
import { AnswerMemo } from './answer-memo.js'

export interface AppOptions {
  catalog: Catalog
  keys: KeyStore
  /** Worker threads for the endpoints whose manifest says `execution: worker`; without it, they run here. */
  pool?: EvaluationPool
  /** Failed authentications a client address, or a key id, may have in a minute before a failing key gets 429 (0: no limit). */
  authFailuresPerMinute?: number
  /**
   * Proxies in front of the service whose X-Forwarded-For is trusted (TRUST_PROXY): the client
   * address is the one the outermost of them saw. 0 (the default): the socket's peer.
   */
  trustProxy?: number
  /** Whether GET /metrics is served here; false where metrics have their own port (METRICS_PORT). */
  serveMetrics?: boolean
  /** Largest accepted body, e.g. "64kb". */
  bodyLimit?: string
  /** Where each request's log line goes (none: no request log). */
  logger?: Logger
  /** The metrics to count requests in; with `metricsText`, or alone, GET /metrics serves them. */
  metrics?: ServiceMetrics
  /** The text GET /metrics serves, where it is not this app's own registry (a cluster's, summed by the primary). */
  metricsText?: () => Promise<string>
  /** POST /batch's limits where not the service's (service/batch.ts): the tests set small ones. */
  batch?: Partial<BatchLimits>
  /** Bytes of answers kept to answer the same request body again (answer-memo.ts; ANSWER_MEMO_BYTES); 0: none. */
  answerMemoBytes?: number
}

/** The answers kept by default: 16 MiB a process, some ten thousand state answers. */
export const ANSWER_MEMO_BYTES = 16 * 1024 * 1024

export function createApp({ catalog, keys, pool, bodyLimit = BODY_LIMIT, authFailuresPerMinute = 60, trustProxy = 0, serveMetrics = true, logger, metrics, metricsText, batch, answerMemoBytes = ANSWER_MEMO_BYTES }: AppOptions): Koa {
  // Behind trusted proxies ctx.ip is read from the last `trustProxy` entries of X-Forwarded-For (the
  // ones those proxies appended); a client's own entries before them are ignored.
  const app = new Koa(trustProxy > 0 ? { proxy: true, proxyIpHeader: 'X-Forwarded-For', maxIpsCount: trustProxy } : {})
  app.silent = true
  const router = new Router()

  const limit = new FailedAuthLimit(authFailuresPerMinute)
  // The paths that need a key, answered for a surely bad key before the router, the error handler or
  // anything else runs: a flood of wrong keys costs a SHA-256 and a constant body each. The limiter
  // is asked only about a key that failed, so a key that verifies is never refused by it.
  const guarded = new Map<string, string>([...catalog.endpoints.flatMap((e) => e.paths.map((p) => [p, e.operation_id] as const)), ['/mcp', 'mcp'], ['/batch', 'batch']])
  const UNAUTHORIZED = JSON.stringify({ error: { code: 'unauthorized', message: unauthorized().message, details: [] } })
  /** A failed key: counted (when well-formed) and answered 401, or 429 once its address or id is over the budget. */
  const refuse = (ctx: Context, header: string | undefined): HttpError => {
    const id = parseKey(header)?.id
    // A missing or malformed key is not a guess at a secret: 401, not counted (auth-limit.ts).
    if (id === undefined) return unauthorized()
    const wait = limit.retryAfter(ctx.ip, id)
    if (wait > 0) {
      ctx.set('Retry-After', String(wait))
      return new HttpError(429, 'too_many_requests', `too many failed authentications from this address or for this key id; try again in ${wait} s`)
    }
    limit.fail(ctx.ip, id)
    return unauthorized()
  }
  const refuseBadKeys = async (ctx: Context, next: Next) => {
    if (ctx.method !== 'POST' || !guarded.has(ctx.path)) return next()
    const header = ctx.get('x-api-key') || undefined
    const verdict = keys.quickCheck(header)
    if (verdict !== 'invalid') {
      // A key that surely verifies was hashed here once; authenticate need not hash it again.
      if (verdict === 'valid') ctx.state.keyVerified = true
      return next()
    }
    ctx.state.operationId = guarded.get(ctx.path)
    const refusal = refuse(ctx, header)
    ctx.status = refusal.status
    ctx.type = 'application/json'
    ctx.body = refusal.status === 401 ? UNAUTHORIZED : JSON.stringify({ error: { code: refusal.code, message: refusal.message, details: [] } })
  }
  const authenticate = async (ctx: Context, next: Next) => {
    const header = ctx.get('x-api-key') || undefined
    if (ctx.state.keyVerified !== true && !(await keys.verify(header))) throw refuse(ctx, header)
    // The key's id, for the request log; the secret is never kept.
    ctx.state.keyId = parseKey(header)?.id
    await next()
  }
  const requireJson = async (ctx: Context, next: Next) => {
    const headers = ctx.req.headers
    const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0
    if (!hasBody) throw new HttpError(400, 'validation_error', 'a JSON object body is required', [{ field: 'body', message: 'is required' }])
    // The usual header is matched as text; anything else (other case, spacing) goes through type-is.
    const type = headers['content-type']
    const plain = type === 'application/json' || (type !== undefined && type.startsWith('application/json;'))
    if (!plain && !ctx.is('application/json')) {
      throw new HttpError(415, 'unsupported_media_type', 'the request body must be JSON with Content-Type: application/json')
    }
    await next()
  }
  // A body parser per limit: the service's, and each larger `body_limit` a manifest sets (the pasted
  // terms of /tos/analyze-text). A 413 names the limit of the route it was sent to.
  const bytes = bodyLimitBytes
  const shown = bodyLimitText
  const parsers = new Map<string, ReturnType<typeof bodyParser>>()
  const parserFor = (limit: string) => {
    let parser = parsers.get(limit)
    // requireJson has already refused any other media type, so the parser need not look at it again.
    if (!parser) parsers.set(limit, (parser = bodyParser({ enableTypes: ['json'], jsonLimit: limit, strict: true, detectJSON: () => true })))
    const text = shown(limit)
    return async (ctx: Context, next: Next) => {
      ctx.state.bodyLimit = text
      await parser!(ctx, next)
    }
  }
  const limitOf = (endpoint: Endpoint) => (endpoint.body_limit && bytes(endpoint.body_limit) > bytes(bodyLimit) ? endpoint.body_limit : bodyLimit)
  // MCP carries every tool's arguments in one body: it is parsed with the largest limit any endpoint
  // has, then each message is held to its tool's own (mcp.ts).
  const mcpLimit = catalog.endpoints.map(limitOf).reduce((a, b) => (bytes(b) > bytes(a) ? b : a), bodyLimit)
  const requireBody = async (ctx: Context, next: Next) => {
    const raw = (ctx.request as { rawBody?: string }).rawBody
    if (raw === undefined || raw.trim() === '') {
      throw new HttpError(400, 'validation_error', 'a JSON object body is required', [{ field: 'body', message: 'is required' }])
    }
    if (deeperThan((ctx.request as { body?: unknown }).body)) {
      throw new HttpError(400, 'validation_error', `the request body nests objects and arrays more than ${MAX_DEPTH} levels deep`, [{ field: 'body', message: `nests more than ${MAX_DEPTH} levels deep` }])
    }
    await next()
  }
  // An endpoint whose manifest says `execution: worker` is answered on the pool's threads, over HTTP
  // and MCP alike; every other in this thread.
  const respond = async (endpoint: Endpoint, body: unknown, explain = false): Promise<Envelope> => {
    if (!pool || endpoint.execution !== 'worker') return answer(catalog, endpoint, body, { explain })
    // The request's shape is checked here first (microseconds; the thread checks it again): a bad
    // request never waits in the pool's queue, and only a body of the request's shape is copied.
    checkRequest(endpoint, body)
    return pool.answer(endpoint.operation_id, body, explain)
  }
  const memo = new AnswerMemo(answerMemoBytes)
  const handler = (endpoint: Endpoint) => {
    // The evaluation-time series of this operation, looked up once (hot-metrics.ts).
    const evaluation = metrics?.evaluation.labels({ operation: endpoint.operation_id })
    return async (ctx: Context) => {
      ctx.state.operationId = endpoint.operation_id
      // The query string is parsed only where there is one: most requests have none.
      const asked = ctx.querystring === '' ? undefined : ctx.query.explain
      if (asked !== undefined && asked !== 'true' && asked !== 'false') {
        throw new HttpError(400, 'validation_error', `explain must be true or false, got ${JSON.stringify(asked)}`, [{ field: 'explain', message: 'must be true or false' }])
      }
      const explain = asked === 'true'
      ctx.type = 'application/json'
      const key = memo.key(ctx.state.keyId as string | undefined, endpoint.operation_id, explain, (ctx.request as { rawBody?: string }).rawBody)
      const kept = key === undefined ? undefined : memo.get(key)
      if (kept !== undefined) {
        ctx.body = kept
        return
      }
      const started = process.hrtime.bigint()
      let answered: string
      try {
        answered = JSON.stringify(await respond(endpoint, (ctx.request as { body?: unknown }).body, explain))
      } finally {
        evaluation?.observe(Number(process.hrtime.bigint() - started) / 1e9)
      }
      if (key !== undefined) memo.set(key, answered)
      ctx.body = answered
    }
  }

  // The operation id is known from the route, before the key is checked, so a refused request is
  // logged and counted under the operation it was sent to.
  const named = (operation: string) => async (ctx: Context, next: Next) => {
    ctx.state.operationId = operation
    await next()
  }
  // Each endpoint's path as the manifest spells it, looked up in a Map before the router: the
  // router tries every route's pattern and composes the matched middleware anew on each request,
  // a sixth of a state answer's time. Other spellings (case, a trailing slash) still reach the
  // same chain through the router.
  const endpointRoutes = new Map<string, (ctx: Context, next: Next) => Promise<unknown>>()
  for (const endpoint of catalog.endpoints) {
    const chain = [named(endpoint.operation_id), authenticate, requireJson, parserFor(limitOf(endpoint)), requireBody, handler(endpoint)]
    for (const path of endpoint.paths) {
      router.post(path, ...chain)
      endpointRoutes.set(path, compose(chain))
    }
  }
  // Many requests in one body of JSON Lines; each line is held to its endpoint's body limit.
  router.post('/batch', named('batch'), authenticate, batchHandler({ catalog, pool, limits: batchLimits(catalog, batch), lineLimit: (e) => bytes(limitOf(e)) }))
  // Each endpoint's request JSON Schema, as its manifest declares it; public, like a documentation page.
  const schemas = new Map(catalog.endpoints.map((e) => [e.operation_id, { $schema: 'https://json-schema.org/draft/2020-12/schema', title: e.summary, ...e.request }]))
  router.get('/schemas/:operation', (ctx) => {
    const schema = schemas.get(String(ctx.params.operation).replace(/\.json$/, ''))
    if (!schema) throw new HttpError(404, 'not_found', `no endpoint has the operation id ${ctx.params.operation}; known: ${[...schemas.keys()].join(', ')}`)
    ctx.body = schema
  })

  const openapi = JSON.stringify(openApiDocument(catalog))
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json'
    ctx.body = openapi
  })
  docsRoutes(router)
  playgroundRoutes(router)

  const mcp = new McpTools(catalog, respond)
  router.post('/mcp', named('mcp'), authenticate, requireJson, parserFor(mcpLimit), requireBody, (ctx) => handleMcpHttp(mcp, ctx, (e) => (e ? limitOf(e) : bodyLimit)))

  // Prometheus metrics, for the operator's scraper: served only where the app was given metrics
  // (main.ts gives them unless METRICS=off).
  if (serveMetrics && (metrics || metricsText)) {
    router.get('/metrics', async (ctx) => {
      ctx.state.operationId = 'metrics'
      ctx.body = metricsText ? await metricsText() : await metrics!.registry.metrics()
      ctx.type = metrics?.registry.contentType ?? 'text/plain; version=0.0.4; charset=utf-8'
    })
  }

  // The service's front door: where to read about it, for a person or a client who arrives at /.
  router.get('/', (ctx) => {
    ctx.body = {
      service: 'rules-as-code calculation service',
      formula_version: catalog.service.formula_version,
      docs: '/docs',
      playground: '/playground',
      openapi: '/openapi.json',
      endpoints: catalog.endpoints.flatMap((e) => e.paths).sort(),
    }
  })

  // The catalog is loaded and checked before the app exists (main.ts refuses to start otherwise), so
  // a process that answers /readyz has its rules; /healthz says only that the process is up.
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' }
  })
  router.get('/readyz', (ctx) => {
    ctx.body = { status: 'ready', endpoints: catalog.endpoints.length, rule_sets: catalog.ruleSets.size, tables: catalog.tables.size }
  })
  const version = { formula_version: catalog.service.formula_version, service_version: serviceVersion, data_as_of: catalogDataAsOf(catalog) }
  router.get('/version', (ctx) => {
    ctx.body = version
  })

  // What the error handler names in its messages: the served paths (a 404's suggestions), the body limit (a 413's).
  const served = catalog.endpoints.flatMap((e) => e.paths)
  const limitText = shown(bodyLimit)
  app.use(observe(logger, metrics))
  app.use(async (ctx, next) => {
    ctx.state.paths = served
    ctx.state.bodyLimit = limitText
    await next()
  })
  app.use(refuseBadKeys)
  app.use(errors)
  app.use((ctx, next) => {
    const route = ctx.method === 'POST' ? endpointRoutes.get(ctx.path) : undefined
    return route ? route(ctx, next) : next()
  })
  app.use(router.routes())
  // 405 (or 501 for a method the router does not know) with the Allow header; errors.ts adds the body.
  app.use(router.allowedMethods())
  return app
}
