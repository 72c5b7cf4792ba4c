/**
 * @module What every answer of the service looks like, checked on any response; and requests built
 * from an endpoint manifest's request JSON Schema, so a new manifest is fuzzed without a line here.
 */
import * as fc from 'fast-check'
import type { Endpoint } from '../../service/index.js'
import type { Service } from '../helpers.js'

export interface Reply {
  status: number
  type: string
  text: string
}

/** POST a raw body (string or bytes) with exactly these headers. */
export async function send(service: Service, path: string, body: string | Uint8Array | undefined, headers: Record<string, string>): Promise<Reply> {
  const res = await fetch(service.url + path, { method: 'POST', headers, body: body as BodyInit | undefined })
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() }
}

/** The status each error code is documented with (docs/errors.md). */
const STATUS_OF: Record<string, number> = {
  validation_error: 400,
  unsupported_parameter: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
}

const fail = (reply: Reply, why: string): never => {
  throw new Error(`${why}\n  status ${reply.status}, content-type ${reply.type}\n  body ${reply.text.slice(0, 600)}`)
}

/**
 * Never a 5xx; always JSON; a 200 is the envelope with a result matching the endpoint's response
 * schema; anything else is `{error: {code, message, details}}` with the documented status for its
 * code, and a 400 names at least one field. When the request's `sent` body is given, every field a
 * 400 names is `body`, a field of the endpoint's schema, or a key the caller sent (an unknown one):
 * never a field of some rule set inside. Returns the parsed body.
 */
export function expectWellFormed(endpoint: Endpoint | undefined, reply: Reply, sent?: unknown): Record<string, any> {
  if (reply.status >= 500) fail(reply, 'a 5xx answer')
  if (!reply.type.startsWith('application/json')) fail(reply, 'not answered as application/json')
  let json: any
  try {
    json = JSON.parse(reply.text)
  } catch {
    fail(reply, 'the body is not JSON')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(reply, 'the body is not a JSON object')
  if (reply.status === 200) {
    const keys = Object.keys(json).join(',')
    if (keys !== 'result,data_as_of,formula_version,citations,tier') fail(reply, `envelope keys are ${keys}`)
    if (!Array.isArray(json.citations) || json.citations.some((c: unknown) => typeof c !== 'string')) fail(reply, 'citations is not a list of strings')
    if (!/^\d{4}-\d{2}-\d{2}$/.test(json.data_as_of)) fail(reply, 'data_as_of is not a date')
    if (endpoint && !endpoint.validateResult(json.result)) fail(reply, `result does not match the response schema: ${JSON.stringify(endpoint.validateResult.errors)}`)
    if (!Array.isArray(json.result?.notes)) fail(reply, 'result.notes is missing')
    return json
  }
  const error = json.error
  if (Object.keys(json).join(',') !== 'error' || typeof error !== 'object' || error === null) fail(reply, 'not the error body')
  if (Object.keys(error).join(',') !== 'code,message,details') fail(reply, 'error is not {code, message, details}')
  if (typeof error.message !== 'string' || error.message === '') fail(reply, 'error.message is not a non-empty string')
  if (STATUS_OF[error.code] !== reply.status) fail(reply, `code ${error.code} with status ${reply.status}`)
  if (!Array.isArray(error.details)) fail(reply, 'error.details is not a list')
  for (const d of error.details) {
    if (typeof d?.field !== 'string' || d.field === '' || typeof d?.message !== 'string') fail(reply, 'a detail is not {field, message}')
  }
  if (reply.status === 400 && error.details.length === 0) fail(reply, 'a 400 that names no field')
  if (reply.status === 400 && endpoint && sent !== undefined) {
    const known = fieldNames(endpoint.request)
    const keys = new Set<string>()
    // The keys sent, a few levels down (the schemas are shallow; a 3000-deep value is not walked).
    const collect = (v: unknown, depth: number) => {
      if (depth > 6 || typeof v !== 'object' || v === null) return
      if (Array.isArray(v)) for (const x of v) collect(x, depth + 1)
      else for (const [k, x] of Object.entries(v)) keys.add(k), collect(x, depth + 1)
    }
    collect(sent, 0)
    for (const { field } of error.details as { field: string }[]) {
      const root = field.split(/[.[]/)[0]!
      // `explain` is the query parameter, refused when it is neither true nor false.
      if (field !== 'body' && field !== 'explain' && !known.has(root) && !keys.has(field) && !keys.has(root)) fail(reply, `a 400 names ${field}, which is not a field of this request`)
    }
  }
  if (/at .*\.[jt]s:\d+/.test(reply.text)) fail(reply, 'a stack trace in the answer')
  return json
}

type Schema = Record<string, any>

const iso = (d: Date) => d.toISOString().slice(0, 10)

/** A date the way the manifests take it, mostly near the years the rules cover. */
export const dateText = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date('2019-01-01'), max: new Date('2031-12-31'), noInvalidDate: true }).map(iso) },
  { weight: 1, arbitrary: fc.date({ min: new Date('1900-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map(iso) },
)

/**
 * A value the schema accepts (give or take cross-field rules): enums, bounds, dates, patterns,
 * lists and nested objects as declared. `years` steers the endpoint's year field to supported years
 * most of the time, so the request reaches the rules.
 */
export function fromSchema(schema: Schema, years?: { field: string; supported: number[] }, name?: string): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as unknown[]
    return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) })
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'boolean':
      return fc.boolean()
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1e6, -1e6)
      const max = Math.min(schema.maximum ?? 1e6, 1e6)
      const any = fc.integer({ min, max })
      if (years && name === years.field) return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...years.supported) }, { weight: 1, arbitrary: any })
      return fc.oneof(any, fc.integer({ min, max: Math.min(max, min + 30) }))
    }
    case 'number': {
      const min: number = schema.exclusiveMinimum ?? schema.minimum ?? -1e15
      const max: number = schema.maximum ?? 1e15
      const excluded = schema.exclusiveMinimum !== undefined
      const double = fc.double({ min, max, noNaN: true, minExcluded: excluded })
      // Money-like figures (whole dollars or cents) in the range where the law has its thresholds.
      const money = fc.integer({ min: Math.ceil(min * 100), max: Math.floor(Math.min(max, 5e7) * 100) }).map((c) => c / 100)
      return max <= 1 ? double : fc.oneof(double, { weight: 3, arbitrary: money.filter((v) => !excluded || v > min) })
    }
    case 'string':
      if (schema.format === 'date') return dateText
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern))
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) })
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, years), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) })
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>
      const model = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, fromSchema(s, years, k)]))
      const required = (schema.required ?? []) as string[]
      // Optional fields present now and then; the required ones always.
      return fc.record(model, { requiredKeys: required.filter((k) => k in model) })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** Every property name a schema declares, at any depth (fields of list items and nested objects). */
export function fieldNames(schema: Schema, out = new Set<string>()): Set<string> {
  for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    out.add(k)
    fieldNames(s, out)
  }
  if (schema.items) fieldNames(schema.items as Schema, out)
  return out
}
