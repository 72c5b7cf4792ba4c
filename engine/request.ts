/**
 * @module Endpoint manifests, loaded: the request contract the engine answers by, kept apart from
 * how the endpoint is published (paths, tool name, texts), and the validation of a request body.
 *
 * The request schema is plain JSON Schema in the manifest, compiled once by ajv. Unknown fields are
 * an `unsupported_parameter`; every other schema failure is a `validation_error` naming the field
 * as the caller wrote it (`beneficiaries[0].relationship`).
 */
import type { ErrorObject, ValidateFunction } from 'ajv'
import { distance } from 'fastest-levenshtein'
import { combinedCode, InputError, type FieldProblem, type Problem } from './errors.js'
import type { Currency } from './money.js'
import type { Period } from './period.js'
import { enumsFromTables, requestSchema, responseSchema } from './request-schema.js'
import type { TableEntry } from './tables.js'
import type { RuleSet } from './ruleset.js'
import type { EndpointFile } from './schemas.js'
import type { SourceFile } from './source.js'
import { schemaCompiler } from './validator-cache.js'

/**
 * What the engine needs of an endpoint to answer it: the rule set, the request's contract (its
 * schema, normalisations, years) and the currency. `answer()` and the request check read only this.
 */
export interface RequestContract {
  rule_set: string
  request: Record<string, unknown>
  normalize: Record<string, 'uppercase' | 'lowercase' | 'trim'>
  years?: { field: string; supported: number[]; period?: Period }
  /** The currency of the endpoint's amounts: notes print money with it. */
  currency: Currency
  validate: ValidateFunction
}

/**
 * How the endpoint is published to callers and agents: its paths and operation, its texts, its
 * result schema and where it runs. The server, OpenAPI, the docs page and MCP read these; the
 * engine's evaluation never does.
 */
export interface Publication {
  operation_id: string
  tool_name: string
  paths: string[]
  summary: string
  description?: string
  /** What the endpoint will not answer, for callers and agents. */
  out_of_scope: string[]
  /** JSON Schema of `result` in the envelope. */
  response: Record<string, unknown>
  /** Checks a result against `response`; the golden tests run it on every case. */
  validateResult: ValidateFunction
  /** `worker`: answered on the evaluation pool's threads (server/pool.ts), off the event loop. */
  execution?: 'in_process' | 'worker'
  /** The suite the feature belongs to, an id of rules/service.yaml `suites`. */
  suite: string
  /** The largest request body it accepts ("512kb"), where more than the service's default. */
  body_limit?: string
  /** The manifest file, for messages. */
  file: string
  /** A realistic request body, for OpenAPI and the docs page. */
  example?: Record<string, unknown>
  /** Further MCP tools on the same rules, each with the request cut to some of its fields. */
  also_tools?: AlsoTool[]
}

/** An MCP tool answered by an endpoint's rules with a request focused on some of its fields. */
export interface AlsoTool {
  tool_name: string
  summary: string
  description?: string
  fields: string[]
  /** The endpoint's published request schema, cut to `fields`. */
  request: Record<string, unknown>
}

/** One endpoint manifest, loaded: what the engine answers by and how it is published. */
export type Endpoint = RequestContract & Publication

// strictSchema: an unknown keyword (a description cut short by a comma in YAML flow style) is a load error.
// Compiled validators are cached on disk by content (engine/validator-cache.ts): a cold start evaluates them.
const requestAjv = schemaCompiler({ allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, strictNumbers: true, coerceTypes: false }, ['date'])

/** Compile one validated manifest, checking its rule set and its schema. @api private */
/**
 * Every result may carry the service's own fields, whatever the endpoint: `notes` (the rule set's notes,
 * among them each unverified figure), with ?explain=true `explanation`, and `currency` in an endpoint that
 * answers in another currency than the default. A manifest may describe them
 * itself; where it does not, the published schema gets these, so no endpoint's schema can forget them.
 */
const ENVELOPE_FIELDS: Record<string, unknown> = {
  notes: { type: 'array', items: { type: 'string' }, description: 'Assumptions and caveats in plain words, among them each unverified figure used.' },
  explanation: {
    type: 'array',
    description: 'Present only with ?explain=true: each step with its value, the parameters it read and its citation.',
    items: {
      type: 'object',
      required: ['rule_set', 'step', 'value', 'parameters', 'citations'],
      properties: {
        rule_set: { type: 'string', description: 'Rule set the step belongs to.' },
        step: { type: 'string', description: 'Name of the formula in that rule set.' },
        label: { type: 'string', description: "The formula's label in plain words, where it has one." },
        value: { description: "The step's value: a number, text, boolean, date (YYYY-MM-DD), list, object or null." },
        parameters: {
          type: 'array',
          description: 'Table entries the step read.',
          items: {
            type: 'object',
            required: ['id', 'effective_date'],
            properties: {
              id: { type: 'string', description: 'Table entry read.' },
              effective_date: { type: 'string', format: 'date', description: 'Date from which the value read is in force.' },
              value: { type: 'string', description: 'The number read, as exact decimal text (absent for a schedule, lookup or text).' },
            },
          },
        },
        citations: { type: 'array', description: 'Titles of the statutes and sources the step cites.', items: { type: 'string' } },
      },
    },
  },
}

function withEnvelopeFields(response: unknown, currency: Currency, standard: Currency | undefined): unknown {
  if (response === null || typeof response !== 'object' || Array.isArray(response)) return response
  const props = (response as { properties?: unknown }).properties
  if (props === null || typeof props !== 'object' || Array.isArray(props)) return response
  // A result in another currency than the service's default says which (the engine writes the field).
  const fields: Record<string, unknown> = currency.code === standard?.code
    ? ENVELOPE_FIELDS
    : { currency: { type: 'string', enum: [currency.code], description: `Currency of every amount in the result: ${currency.name}.` }, ...ENVELOPE_FIELDS }
  const missing = Object.entries(fields).filter(([name]) => !(name in props))
  if (missing.length === 0) return response
  return { ...response, properties: { ...props, ...Object.fromEntries(missing) } }
}

export function compileRequest(
  source: SourceFile,
  raw: EndpointFile,
  ruleSets: Map<string, RuleSet>,
  problems: Problem[],
  currencyOf: (code?: string) => Currency | undefined,
  table: (id: string) => TableEntry | undefined,
): Endpoint | undefined {
  const currency = currencyOf(raw.currency)
  if (!currency) {
    problems.push(source.problem(['currency'], `unknown currency ${String(raw.currency)}; declare it under currencies: in rules/service.yaml`))
    return undefined
  }
  const rs = ruleSets.get(raw.rule_set)
  if (!rs) {
    problems.push(source.problem(['rule_set'], `unknown rule set ${raw.rule_set}`))
    return undefined
  }
  // The manifest writes descriptions and bounds; types, formats and defaults come from the inputs,
  // and an enum a table already holds from the table.
  const enumProblems: string[] = []
  raw.request = enumsFromTables(requestSchema(raw.request, rs.inputs), table, enumProblems) as Record<string, unknown>
  raw.response = enumsFromTables(responseSchema(withEnvelopeFields(raw.response, currency, currencyOf(undefined)), rs.outputType), table, enumProblems) as Record<string, unknown>
  for (const p of enumProblems) problems.push(source.problem(['request'], p))
  raw.request = published(raw.request, raw.normalize ?? {}, raw.years)
  let validate: ValidateFunction
  try {
    validate = requestAjv.compile(checked(raw.request, raw.years))
  } catch (error) {
    problems.push(source.problem(['request'], `request schema: ${(error as Error).message}`))
    return undefined
  }
  let validateResult: ValidateFunction
  try {
    validateResult = requestAjv.compile(raw.response)
  } catch (error) {
    problems.push(source.problem(['response'], `response schema: ${(error as Error).message}`))
    return undefined
  }
  const props = Object.keys((raw.request.properties ?? {}) as Record<string, unknown>)
  for (const p of props) {
    if (!(p in rs.inputs)) problems.push(source.problem(['request', 'properties', p], `request field '${p}' is not an input of rule set ${rs.id}`))
  }
  if (raw.request.additionalProperties !== false) {
    problems.push(source.problem(['request'], 'a request schema sets additionalProperties: false, so that unknown fields are rejected'))
  }
  if (raw.years && !props.includes(raw.years.field)) problems.push(source.problem(['years', 'field'], `'${raw.years.field}' is not a request field`))
  const alsoTools: AlsoTool[] = (raw.also_tools ?? []).map((tool, i) => {
    for (const f of tool.fields) {
      if (!props.includes(f)) problems.push(source.problem(['also_tools', i, 'fields'], `'${f}' is not a request field of ${raw.operation_id}`))
    }
    const properties = (raw.request.properties ?? {}) as Record<string, unknown>
    const required = ((raw.request.required ?? []) as string[]).filter((f) => tool.fields.includes(f))
    // The cross-field rules (allOf) may name fields the tool leaves out; the rules' checks still apply.
    const { allOf: _crossField, ...whole } = raw.request
    const request = { ...whole, properties: Object.fromEntries(tool.fields.filter((f) => f in properties).map((f) => [f, properties[f]])), required }
    return { ...tool, request }
  })
  const endpoint: Endpoint = { ...raw, also_tools: alsoTools, currency, normalize: raw.normalize ?? {}, file: source.file, validate, validateResult }
  return endpoint
}

type Schema = Record<string, unknown>

/**
 * The request schema as published (OpenAPI, /schemas, MCP): what the service accepts, as far as
 * JSON Schema can say it. The supported years become the year field's `enum`; a field the service
 * normalises (`state: uppercase`) lists its enum in both cases, since "ny" is accepted as "NY".
 */
function published(schema: Schema, normalize: Record<string, string>, years: RequestContract['years']): Schema {
  const properties = { ...((schema.properties ?? {}) as Record<string, Schema>) }
  for (const [field, how] of Object.entries(normalize)) {
    const p = properties[field]
    if (!p || !Array.isArray(p.enum) || (how !== 'uppercase' && how !== 'lowercase')) continue
    const other = p.enum.map((v) => (typeof v === 'string' ? (how === 'uppercase' ? v.toLowerCase() : v.toUpperCase()) : v))
    properties[field] = { ...p, enum: [...new Set([...p.enum, ...other])] }
  }
  if (years && properties[years.field] && !('enum' in properties[years.field]!)) properties[years.field] = { ...properties[years.field], enum: [...years.supported] }
  return { ...schema, properties }
}

/**
 * The schema the request is validated with: the published one less what the service checks itself
 * with a better message. A year outside the supported ones is answered by the year check
 * (`unsupported_parameter`, listing them); the cross-field rules a manifest writes in `allOf`
 * (`if`/`then`: fields that apply to one trust type only) restate the rule set's own checks, which
 * answer with the law's words. A test holds the two to the same requests (test/server/schemas.test.ts).
 */
function checked(schema: Schema, years: RequestContract['years']): Schema {
  const { allOf: _crossField, ...rest } = schema
  if (!years) return rest
  const properties = { ...((rest.properties ?? {}) as Record<string, Schema>) }
  const { enum: _years, ...field } = properties[years.field] ?? {}
  properties[years.field] = field
  return { ...rest, properties }
}

/** `/beneficiaries/0/relationship` → `beneficiaries[0].relationship`. */
function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (extra !== undefined) parts.push(extra)
  let out = ''
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p
  return out || 'body'
}

/** The object schema at a body path (`/donees/0`), following properties and list items. */
function schemaAt(schema: Record<string, unknown>, instancePath: string): Record<string, unknown> | undefined {
  let at: unknown = schema
  for (const part of instancePath.split('/').slice(1)) {
    const s = at as Record<string, unknown> | undefined
    if (!s) return undefined
    at = /^\d+$/.test(part) ? s.items : (s.properties as Record<string, unknown> | undefined)?.[part]
  }
  return at as Record<string, unknown> | undefined
}

/**
 * What an unknown field was probably meant to be: a field of the same object whose name is a slip
 * away (`year` for `tax_year`, `gros_estate`), or the same name one level down (`marital_deduction`
 * sent at the top level belongs under `deductions`).
 */
export function suggestion(unknown: string, object: Record<string, unknown> | undefined): string | undefined {
  const properties = (object?.properties ?? {}) as Record<string, Record<string, unknown>>
  for (const [name, schema] of Object.entries(properties)) {
    const inner = (schema?.properties ?? {}) as Record<string, unknown>
    if (Object.hasOwn(inner, unknown)) return `it belongs under ${name} (${name}.${unknown})`
  }
  const names = Object.keys(properties)
  const near = names
    .map((n) => ({ n, d: distance(unknown, n), part: n.split('_').includes(unknown) || unknown.split('_').includes(n) }))
    .filter((x) => x.part || x.d <= Math.max(2, Math.floor(unknown.length / 3)))
    .sort((a, b) => a.d - b.d)
  return near.length > 0 ? `did you mean ${near.slice(0, 2).map((x) => x.n).join(' or ')}?` : undefined
}

function fieldProblem(e: ErrorObject, request: Record<string, unknown>): FieldProblem & { unknown: boolean } {
  switch (e.keyword) {
    case 'required':
      return { field: fieldName(e.instancePath, String(e.params.missingProperty)), message: 'is required', unknown: false }
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty)
      const hint = suggestion(name, schemaAt(request, e.instancePath))
      return { field: fieldName(e.instancePath, name), message: `is not a field of this request${hint ? `; ${hint}` : ''}`, unknown: true }
    }
    case 'enum':
      return { field: fieldName(e.instancePath), message: `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`, unknown: false }
    case 'type':
      return { field: fieldName(e.instancePath), message: `must be ${e.params.type === 'integer' ? 'an integer' : `of type ${String(e.params.type)}`}`, unknown: false }
    default:
      return { field: fieldName(e.instancePath), message: e.message ?? e.keyword, unknown: false }
  }
}

/** Normalise, validate and year-check a request body; returns it or throws InputError. @api public */
export function checkRequest(endpoint: RequestContract, body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw new InputError('validation_error', 'a JSON object body is required', [{ field: 'body', message: 'is required' }])
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new InputError('validation_error', 'the body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }])
  }
  const input = { ...(body as Record<string, unknown>) }
  for (const [field, how] of Object.entries(endpoint.normalize)) {
    const v = input[field]
    if (typeof v !== 'string') continue
    input[field] = how === 'uppercase' ? v.toUpperCase() : how === 'lowercase' ? v.toLowerCase() : v.trim()
  }
  // Every fault of the request's shape at once: the schema's, and a year the rules do not cover.
  const problems: (FieldProblem & { code: 'validation_error' | 'unsupported_parameter' })[] = []
  if (!endpoint.validate(input)) {
    // One detail per field, its faults joined: "state" sent as "New York" is one field at fault.
    const byField = new Map<string, FieldProblem & { unknown: boolean }>()
    for (const p of (endpoint.validate.errors ?? []).map((e) => fieldProblem(e, endpoint.request))) {
      const known = byField.get(p.field)
      if (!known) byField.set(p.field, p)
      else if (!known.message.split('; ').includes(p.message)) byField.set(p.field, { ...known, message: `${known.message}; ${p.message}`, unknown: known.unknown && p.unknown })
    }
    // An unknown field is an unsupported parameter; every other fault of the schema a validation error.
    for (const { field, message, unknown } of byField.values()) problems.push({ field, message, code: unknown ? 'unsupported_parameter' : 'validation_error' })
  }
  if (endpoint.years) {
    const { field, supported } = endpoint.years
    const year = input[field]
    if (typeof year === 'number' && Number.isInteger(year) && !supported.includes(year) && !problems.some((p) => p.field === field)) {
      problems.push({ field, message: `${year} is not supported; supported: ${supported.join(', ')}`, code: 'unsupported_parameter' })
    }
  }
  if (problems.length > 0) {
    const details = problems.map(({ field, message }) => ({ field, message }))
    const first = details[0]!
    const message = details.length === 1 ? `${first.field} ${first.message}` : `${details.length} fields are invalid: ${details.map((d) => d.field).join(', ')}`
    throw new InputError(combinedCode(problems.map((p) => p.code)), message, details)
  }
  return input
}
