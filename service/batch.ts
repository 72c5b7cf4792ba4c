/**
 * @module A batch: many requests in one body of JSON Lines, each `{"path", "body", "id"?}`, answered
 * line for line in the same order as `{"id"?, "status", "body"}`, where the body is the envelope or
 * the line's own error. POST /batch (server/) and `npm run calc` (tools/) both answer through here,
 * so a line gets the same bytes from either.
 *
 * A line's fault is its own answer (400, 404, 413, …), never the batch's. Each line runs under the
 * step budget of a single request; the batch as a whole has its own limits (`BatchLimits`).
 */
import { DeadlineError, InputError, WorkLimitError, type FieldProblem } from '../engine/index.js'
import type { Counted, Envelope } from './answer.js'
import { bodyLimitBytes } from './contract.js'
import { deeperThan, MAX_DEPTH } from './depth.js'
import { errorBody, HttpError, type ErrorCode } from './errors.js'
import type { Catalog } from './load.js'
import type { Endpoint } from './request.js'

/** The limits of one batch, beside each line's own (the step budget and body limit of a single request). */
export interface BatchLimits {
  /** Lines a batch may have (blank lines are not counted); more: 413 before any line runs. */
  lines: number
  /** Bytes its body may have; more: 413 before any line runs. */
  bytes: number
  /** Steps of work its lines may take together; a line past them answers 400 work_limit_exceeded, and so does every later one. */
  steps: number
}

/** Service settings, not law: a scenario sweep of a thousand requests is what a batch is for. */
export const BATCH_LINES = 1000
export const BATCH_BODY_LIMIT = '4mb'
/** The batch's total work, in single requests' step budgets. */
export const BATCH_REQUEST_BUDGETS = 10

/** The limits of a batch over `catalog`, whose step budget per request (the operator's WORK_LIMIT_STEPS) sets the total. */
export function batchLimits(catalog: Catalog, overrides: Partial<BatchLimits> = {}): BatchLimits {
  return { lines: BATCH_LINES, bytes: bodyLimitBytes(BATCH_BODY_LIMIT), steps: BATCH_REQUEST_BUDGETS * catalog.service.limits.steps, ...overrides }
}

export type LineId = string | number
export type ErrorBody = ReturnType<typeof errorBody>

/** One line of the answer. */
export interface AnswerLine {
  id?: LineId
  status: number
  body: Envelope | ErrorBody
}

/** A line read: what to answer, or the line's own error. */
type Read = { id?: LineId; endpoint: Endpoint; body: unknown } | { answer: AnswerLine }

const LINE_KEYS = new Set(['id', 'path', 'body'])

/** The lines of a batch body: each non-blank line with its 1-based number in the body. */
export function splitLines(text: string): { number: number; text: string }[] {
  const lines: { number: number; text: string }[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() !== '') lines.push({ number: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line })
  })
  return lines
}

/**
 * What one batch runs with: the catalog's endpoints by path, each line's byte limit, and how a line
 * is answered (in this thread, or on the server's evaluation pool).
 */
export interface BatchRunner {
  catalog: Catalog
  limits: BatchLimits
  /** The largest line a request to `endpoint` may be, in bytes: its body limit, as for a single request. */
  lineLimit: (endpoint: Endpoint) => number
  /** The envelope of one request, with the steps it took; throws the error a single request would. */
  answer: (endpoint: Endpoint, body: unknown) => Promise<Counted>
  /** Lines answered at once (the pool's threads); later ones wait, and the answers still come in order. */
  concurrency: number
  /** Where an unexpected failure of a line goes (its answer says only "internal error"). */
  onInternalError?: (error: unknown) => void
}

/** The endpoint of every path, once per catalog. */
const byPath = new WeakMap<Catalog, Map<string, Endpoint>>()
function endpointAt(catalog: Catalog, path: string): Endpoint | undefined {
  let paths = byPath.get(catalog)
  if (!paths) byPath.set(catalog, (paths = new Map(catalog.endpoints.flatMap((e) => e.paths.map((p) => [p, e] as const)))))
  return paths.get(path)
}

const fail = (status: number, code: ErrorCode, message: string, details: FieldProblem[] = [], id?: LineId): { answer: AnswerLine } => ({
  answer: { ...(id === undefined ? {} : { id }), status, body: errorBody(code, message, details) },
})

/** Read one line: its id, endpoint and body, or its own error, as a single request's would be. */
export function readLine(runner: Pick<BatchRunner, 'catalog' | 'lineLimit'>, line: { number: number; text: string }): Read {
  const where = `line ${line.number}`
  let parsed: unknown
  let proto = false
  try {
    // A "__proto__" key is refused, as koa-bodyparser refuses it in a single request's body.
    parsed = JSON.parse(line.text, (key, value: unknown) => {
      if (key === '__proto__') proto = true
      return value
    })
  } catch (error) {
    // The parser's reason and position ("Expected ',' or '}' after property value in JSON at position 7"), as a single request's 400 gives it.
    const reason = error instanceof SyntaxError ? `: ${error.message}` : ''
    return fail(400, 'validation_error', `${where} is not valid JSON${reason}`, [{ field: 'line', message: 'must be a JSON object' }])
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return fail(400, 'validation_error', `${where} must be a JSON object {"path", "body", "id"?}`, [{ field: 'line', message: 'must be a JSON object' }])
  }
  const fields = parsed as Record<string, unknown>
  const id = fields.id
  const known = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined
  if (id !== undefined && known === undefined) return fail(400, 'validation_error', `${where}: id must be a string or a number`, [{ field: 'id', message: 'must be a string or a number' }])
  if (proto) return fail(400, 'validation_error', `${where} has a "__proto__" key, which is not allowed`, [{ field: '__proto__', message: 'is not an allowed key' }], known)
  const unknown = Object.keys(fields).filter((k) => !LINE_KEYS.has(k))
  if (unknown.length > 0) {
    return fail(400, 'unsupported_parameter', `${where} has ${unknown.map((k) => JSON.stringify(k)).join(', ')}; a line has only path, body and id`, unknown.map((field) => ({ field, message: 'is not a field of a batch line' })), known)
  }
  if (typeof fields.path !== 'string') return fail(400, 'validation_error', `${where}: path is required, the path of an endpoint such as /estate/calculate-state-tax`, [{ field: 'path', message: 'is required' }], known)
  const endpoint = endpointAt(runner.catalog, fields.path)
  if (!endpoint) return fail(404, 'not_found', `${where}: no endpoint at ${fields.path}; the endpoints are listed at GET / and /openapi.json`, [{ field: 'path', message: 'is not the path of an endpoint' }], known)
  const limit = runner.lineLimit(endpoint)
  if (Buffer.byteLength(line.text) > limit) {
    return fail(413, 'payload_too_large', `${where} is larger than ${fields.path} accepts (${limit} bytes)`, [{ field: 'body', message: `larger than ${limit} bytes` }], known)
  }
  if (fields.body === undefined) return fail(400, 'validation_error', `${where}: a JSON object body is required`, [{ field: 'body', message: 'is required' }], known)
  if (deeperThan(fields.body)) {
    return fail(400, 'validation_error', `${where}: the body nests objects and arrays more than ${MAX_DEPTH} levels deep`, [{ field: 'body', message: `nests more than ${MAX_DEPTH} levels deep` }], known)
  }
  return { ...(known === undefined ? {} : { id: known }), endpoint, body: fields.body }
}

/** A line's error as a single request's answer would carry it: the same status, code and body. */
function errorLine(error: unknown, onInternalError?: (error: unknown) => void): { status: number; body: ErrorBody } {
  if (error instanceof InputError) return { status: 400, body: errorBody(error.code, error.message, error.details) }
  if (error instanceof DeadlineError) return { status: 503, body: errorBody(error.code, error.message) }
  if (error instanceof HttpError) return { status: error.status, body: errorBody(error.code, error.message, error.details) }
  onInternalError?.(error)
  return { status: 500, body: errorBody('internal_error', 'internal error') }
}

/** A line's outcome before it is charged to the batch's budget: whether it ran, and the steps it took. */
interface Outcome {
  line: AnswerLine
  ran: boolean
  steps: number
}

/**
 * The answer lines of a batch, in the order of its lines, each yielded as soon as it and every line
 * before it are done; up to `concurrency` lines are answered at once. Stopping the iteration (a
 * caller gone) stops further lines from starting.
 *
 * The total budget is charged in line order, so the answers do not depend on which line finished
 * first: a line whose steps would take the batch past `limits.steps` answers 400
 * work_limit_exceeded, and so does every line after it that would run (a line with its own error
 * still answers that error). A line refused for its own step budget is charged that whole budget.
 */
export async function* runBatch(runner: BatchRunner, lines: { number: number; text: string }[]): AsyncGenerator<AnswerLine> {
  const perRequest = runner.catalog.service.limits.steps
  let spent = 0
  let spentOut = false
  const outOfBudget = (id: LineId | undefined, number: number): AnswerLine => ({
    ...(id === undefined ? {} : { id }),
    status: 400,
    body: errorBody('work_limit_exceeded', `line ${number}: the batch's lines before it and this one need more than ${runner.limits.steps} evaluation steps, the most one batch may take; send the rest in another batch`),
  })
  const start = async (line: { number: number; text: string }): Promise<Outcome> => {
    const read = readLine(runner, line)
    if ('answer' in read) return { line: read.answer, ran: false, steps: 0 }
    const id = read.id === undefined ? {} : { id: read.id }
    try {
      const { envelope, steps } = await runner.answer(read.endpoint, read.body)
      return { line: { ...id, status: 200, body: envelope }, ran: true, steps }
    } catch (error) {
      const steps = error instanceof WorkLimitError || (error instanceof InputError && error.code === 'work_limit_exceeded') ? perRequest : 0
      return { line: { ...id, ...errorLine(error, runner.onInternalError) }, ran: true, steps }
    }
  }
  const pending: { number: number; outcome: Promise<Outcome> }[] = []
  let next = 0
  const concurrency = Math.max(1, runner.concurrency)
  while (next < lines.length || pending.length > 0) {
    while (pending.length < concurrency && next < lines.length && !spentOut) {
      const line = lines[next++]!
      pending.push({ number: line.number, outcome: start(line) })
    }
    if (pending.length === 0) {
      // The budget is spent: the lines not started answer their own error, or the budget's.
      const line = lines[next++]!
      const read = readLine(runner, line)
      yield 'answer' in read ? read.answer : outOfBudget(read.id, line.number)
      continue
    }
    const head = pending.shift()!
    const { line, ran, steps } = await head.outcome
    if (!ran) {
      yield line
    } else if (!spentOut && spent + steps <= runner.limits.steps) {
      spent += steps
      yield line
    } else {
      // Lines already started past this one are answered the same way when their turn comes.
      spentOut = true
      yield outOfBudget(line.id, head.number)
    }
  }
}
