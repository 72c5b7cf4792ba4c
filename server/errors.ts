/**
 * @module One place where every failure of an HTTP request becomes the JSON error body of the
 * contract (service/errors.ts). Nothing else leaves the process: a 500 says only "internal
 * error", and the stack goes to the log.
 */
import { distance } from 'fuzzball'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Context, Next } from 'koa'
import { DeadlineError, InputError } from '../service/index.js'
import { errorBody as body, HttpError, ServiceUnavailable } from '../service/errors.js'

/** Errors thrown by koa-bodyparser (raw-body): a status and a type. */
interface ParserError {
  status?: number
  type?: string
  expose?: boolean
  /** zlib's code (Z_DATA_ERROR, …) or brotli's (ERR__ERROR_FORMAT_…) when a body does not decompress. */
  code?: string
}

export async function errors(ctx: Context, next: Next): Promise<void> {
  try {
    await next()
    // ctx.respond false: a handler (the MCP transport) wrote the response itself.
    if (ctx.body === undefined && ctx.respond !== false) {
      if (ctx.status === 404) {
        const near = nearestPaths(ctx.path, ctx.state.paths as string[] | undefined)
        throw new HttpError(404, 'not_found', `no endpoint at ${ctx.method} ${ctx.path}${near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ''}; the endpoints are listed at GET / and /openapi.json`)
      }
      if (ctx.status === 405 || ctx.status === 501) {
        const allow = ctx.response.get('Allow') || 'POST'
        ctx.set('Allow', allow)
        throw new HttpError(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${allow}`)
      }
    }
  } catch (error) {
    const e = error as ParserError & Error
    if (error instanceof InputError) {
      ctx.status = 400
      ctx.body = body(error.code, error.message, error.details)
    } else if (error instanceof DeadlineError) {
      // The clock's backstop: the step budget admitted the request, so it is no fault of the caller's;
      // the same request may be sent again once the machine is less busy.
      ctx.status = 503
      ctx.set('Retry-After', String(error.retryAfter))
      ctx.body = body(error.code, error.message)
    } else if (error instanceof HttpError) {
      ctx.status = error.status
      if (error instanceof ServiceUnavailable) ctx.set('Retry-After', String(error.retryAfter))
      ctx.body = body(error.code, error.message, error.details)
    } else if (e.status === 413 || e.type === 'entity.too.large') {
      ctx.status = 413
      const limit = typeof ctx.state.bodyLimit === 'string' ? ctx.state.bodyLimit : 'the limit'
      ctx.body = body('payload_too_large', `the request body is larger than the service accepts (${limit})`, [{ field: 'body', message: `larger than ${limit}` }])
    } else if ((e.status === 400 || e.type === 'entity.parse.failed') && /forbidden prototype property/.test(e.message)) {
      // bourne's refusal of a `__proto__` key: the JSON is valid, the key is what is refused.
      ctx.status = 400
      ctx.body = body('validation_error', 'the request body has a "__proto__" key, which is not allowed', [{ field: '__proto__', message: 'is not an allowed key' }])
    } else if (e.status === 400 || e.type === 'entity.parse.failed') {
      ctx.status = 400
      const where = jsonFault(e.message, (e as { body?: unknown }).body)
      ctx.body = body('validation_error', `the request body is not a valid JSON object${where ? `: ${where}` : ''}`, [{ field: 'body', message: where ? `must be a JSON object; ${where}` : 'must be a JSON object' }])
    } else if (typeof e.code === 'string' && /^(Z_|ERR__ERROR_)/.test(e.code)) {
      ctx.status = 400
      ctx.body = body('validation_error', 'the request body does not match its Content-Encoding: it could not be decompressed', [{ field: 'body', message: 'could not be decompressed' }])
    } else if (e.status === 415 && /^Unsupported Content-Encoding/.test(e.message)) {
      // inflation's refusal of an encoding it does not know (zstd, "gzip, gzip"): the body's
      // encoding is at fault, not its type.
      ctx.status = 415
      const encoding = ctx.get('Content-Encoding')
      ctx.body = body('unsupported_media_type', `unsupported Content-Encoding ${JSON.stringify(encoding)}: send the body uncompressed, or with gzip, deflate or br`, [{ field: 'content-encoding', message: 'must be gzip, deflate, br or identity' }])
    } else if (e.status === 415) {
      ctx.status = 415
      ctx.body = body('unsupported_media_type', 'the request body must be application/json')
    } else {
      console.error(`internal error on ${ctx.method} ${ctx.path}:`, error)
      ctx.status = 500
      ctx.body = body('internal_error', 'internal error')
    }
    ctx.type = 'application/json'
  }
}

/**
 * Where a body stops being JSON, as the parser found it: V8's reason and position ("Expected ',' or
 * '}' after property value in JSON at position 7"), with the line and column counted in the body so
 * that a caller can find it in a file. Undefined when the parser gave no position.
 */
export function jsonFault(reason: string, text: unknown): string | undefined {
  if (/^invalid JSON, only supports object and array/.test(reason)) return 'it must start with { (a JSON object)'
  if (/^Unexpected end of JSON input/.test(reason)) return 'it ends before the JSON does (a missing } or ")'
  const m = / in JSON at position (\d+)/.exec(reason)
  if (!m) {
    // V8 names the character but not its place for a stray one ("{"a": tru}").
    const token = /^Unexpected token ('.+?'), /.exec(reason)
    return token ? `unexpected character ${token[1]}` : undefined
  }
  const position = Number(m[1])
  const what = reason.slice(0, m.index)
  if (typeof text !== 'string' || position > text.length) return `${what} at position ${position}`
  const before = text.slice(0, position)
  const line = before.split('\n').length
  const column = position - before.lastIndexOf('\n')
  return `${what} at position ${position} (line ${line}, column ${column})`
}

/** Paths longer than this get no "did you mean" (the longest served path is about 50 characters). */
const MAX_SUGGESTED_PATH = 100

/** The served paths nearest to one that is not served (a slip of a word or two), at most two. */
export function nearestPaths(path: string, paths: string[] | undefined): string[] {
  // Levenshtein is quadratic: a 16 KB path cost 15 ms of event loop with no key. No served path is
  // near so long a one anyway. The paths are compared as written (fuzzball's full_process off).
  if (!paths || path.length > MAX_SUGGESTED_PATH) return []
  return paths
    .map((p) => ({ p, d: distance(path, p, { full_process: false }) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(path.length / 4)))
    .sort((a, b) => a.d - b.d || a.p.localeCompare(b.p))
    .slice(0, 2)
    .map((x) => x.p)
}

/**
 * Requests Node refuses before Koa sees them: a header block over its limit (16 KiB) gets a 431 with
 * the JSON error body, like every other error; anything else it cannot parse is a 400 with the body
 * too, as are a missing Host and an unmet Expect. Installed on the server wherever it listens
 * (main.ts, the tests), after the app's request listener.
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
    const payload = tooLarge
      ? body('request_header_fields_too_large', 'the request headers are larger than the service accepts (16 KiB)', [{ field: 'headers', message: 'larger than 16 KiB' }])
      : body('validation_error', 'the request is not valid HTTP', [{ field: 'request', message: 'could not be parsed' }])
    const text = JSON.stringify(payload)
    const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'
    socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`)
  })
  // Node answers these two itself with an empty body: an HTTP/1.1 request without Host (a 400,
  // RFC 9112 § 3.2) and an Expect other than 100-continue (a 417). Both get the JSON body here.
  const answer = (res: ServerResponse, status: number, payload: ReturnType<typeof body>) => {
    const text = JSON.stringify(payload)
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), Connection: 'close' })
    res.end(text)
  }
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    answer(res, 417, body('validation_error', 'the Expect header is not one the service meets (only 100-continue is)', [{ field: 'expect', message: 'must be 100-continue or absent' }]))
  })
  // Node reads this option on each request (lib/_http_server.js), so it can be turned off here; the
  // listener below answers what Node would have. @types/node does not declare it.
  const options = server as Server & { requireHostHeader: boolean }
  options.requireHostHeader = false
  const listeners = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[]
  server.removeAllListeners('request')
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      answer(res, 400, body('validation_error', 'an HTTP/1.1 request must have a Host header', [{ field: 'host', message: 'is required' }]))
      return
    }
    for (const listener of listeners) listener.call(server, req, res)
  })
}
