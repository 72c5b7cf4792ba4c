/**
 * @module The errors of the contract: every code a caller may meet, the error a handler throws to
 * answer with one, and the JSON error body `{"error": {"code", "message", "details": [{"field",
 * "message"}]}}` that the HTTP server and the MCP tools both answer with.
 */
import type { FieldProblem } from '../engine/index.js'
import { capDetails } from './request.js'

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
  | 'service_unavailable'
  | 'internal_error'

/** An error meant for the caller: its status, code and message are exposed as they are. */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 413 | 415 | 429 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message)
  }
}

/**
 * The service cannot take the request now (the evaluation pool's queue is full): a 503 with
 * `Retry-After`, for the caller to send it again later. Nothing is wrong with the request.
 */
export class ServiceUnavailable extends HttpError {
  override name = 'ServiceUnavailable'
  constructor(
    message: string,
    /** Seconds the caller should wait before sending the request again. */
    readonly retryAfter: number,
  ) {
    super(503, 'service_unavailable', message)
  }
}

export function unauthorized(): HttpError {
  return new HttpError(401, 'unauthorized', 'a valid API key is required in the x-api-key header (<keyId>.<secret>)')
}

/** The JSON error body, its details capped (request.ts MAX_DETAILS). */
export function errorBody(code: ErrorCode, message: string, details: FieldProblem[] = []) {
  return { error: { code, ...capDetails(message, details) } }
}

