/**
 * @module One place where every failure becomes the JSON error body
 * `{"error": {"code", "message", "details": [{"field", "message"}]}}`. Nothing else leaves the
 * process: a 500 says only "internal error", and the stack goes to the log.
 */
import { distance } from 'fastest-levenshtein'
import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Context, Next } from 'koa'
import { DeadlineError, InputError, type FieldProblem } from '../engine/index.js'

export type ErrorCode =
  | 'validation_error'
  | 'work_limit_exceeded'
  | 'deadline_exceeded'
  | 'unsupported_parameter'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'request_header_fields_too_large'
  | 'too_many_requests'
  | 'unsupported_media_type'
  | 'internal_error'

/** An error meant for the caller: its status, code and message are exposed as they are. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 413 | 415 | 429,
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message)
  }
}

export function unauthorized(): HttpError {
  return new HttpError(401, 'unauthorized', 'a valid API key is required in the x-api-key header (<keyId>.<secret>)')
}

function body(code: ErrorCode, message: string, details: FieldProblem[] = []) {
  return { error: { code, message, details } }
}

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
      ctx.body = body(error.code, error.message, error.details)
    } else if (e.status === 413 || e.type === 'entity.too.large') {
      ctx.status = 413
      const limit = typeof ctx.state.bodyLimit === 'string' ? ctx.state.bodyLimit : 'the limit'
      ctx.body = body('payload_too_large', `the request body is larger than the service accepts (${limit})`, [{ field: 'body', message: `larger than ${limit}` }])
    } else if (e.status === 400 || e.type === 'entity.parse.failed') {
      ctx.status = 400
      ctx.body = body('validation_error', 'the request body is not a valid JSON object', [{ field: 'body', message: 'must be a JSON object' }])
    } else if (typeof e.code === 'string' && /^(Z_|ERR__ERROR_)/.test(e.code)) {
      ctx.status = 400
      ctx.body = body('validation_error', 'the request body does not match its Content-Encoding: it could not be decompressed', [{ field: 'body', message: 'could not be decompressed' }])
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

/** The served paths nearest to one that is not served (a slip of a word or two), at most two. */
export function nearestPaths(path: string, paths: string[] | undefined): string[] {
  if (!paths) return []
  return paths
    .map((p) => ({ p, d: distance(path, p) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(path.length / 4)))
    .sort((a, b) => a.d - b.d || a.p.localeCompare(b.p))
    .slice(0, 2)
    .map((x) => x.p)
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them: a header block over its limit (16 KiB)
 * gets a 431 with the JSON error body, like every other error; anything else it cannot parse is a
 * 400 with the body too. Installed on the server wherever it listens (main.ts, the tests).
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
}
