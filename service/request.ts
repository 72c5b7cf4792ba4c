/**
 * @module Endpoint manifests, loaded: the request contract the engine answers by, kept apart from
 * how the endpoint is published (paths, tool name, texts), and the validation of a request body.
 *
 * The request schema is plain JSON Schema in the manifest, compiled once by ajv. Unknown fields are
 * an `unsupported_parameter`; every other schema failure is a `validation_error` naming the field
 * as the caller wrote it (`beneficiaries[0].relationship`).
 */
import type { ErrorObject, ValidateFunction } from 'ajv'
import { distance } from 'fuzzball'
import { combinedCode, InputError, type FieldProblem, type Problem } from '../engine/errors.js'
import type { Currency } from '../engine/values/money.js'
import type { Period } from '../engine/values/period.js'
import { enumNamesFrom, enumsFromTables, requestSchema, responseSchema } from './request-schema.js'
import type { TableEntry } from '../engine/data/tables.js'
import type { RuleSet } from '../engine/model/rule-set.js'
import type { EndpointFile } from './manifest-schema.js'
import type { SourceFile } from '../engine/load/source.js'
import { schemaCompiler } from '../engine/load/validator-cache.js'

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
  /** The names of enum values a table gives (a state's name for its code), by field: what a caller who wrote the name is told. */
  enumNames?: Map<string, Map<string, string>>
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
// Compiled validators are cached on disk by content (engine/load/validator-cache.ts): a cold start evaluates them.
const requestAjv = schemaCompiler({ allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, strictNumbers: true, coerceTypes: false }, ['date'])

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
    description: 'Present only with ?explain=true: each step with its formula as written, its rule file and line, its value (summarised over 2 KB), the parameters it read and its citations; at most 256 KB and 50 times the answer, a last left_out step counting what was left out.',
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

/** Compile one validated manifest, checking its rule set and its schema. @api private */
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
  const enumNames = enumNamesFrom(raw.request, table)
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
  const endpoint: Endpoint = { ...raw, also_tools: alsoTools, currency, normalize: raw.normalize ?? {}, file: source.file, validate, validateResult, enumNames }
  return endpoint
}

type Schema = Record<string, unknown>

/**
 * The request schema as published (OpenAPI, /schemas, MCP): what the service accepts, as far as
 * JSON Schema can say it. The supported years become the year field's `enum`; a field the service
 * normalises (`state: uppercase`) lists its enum in both cases, since "ny" is accepted as "NY".
 */
function published(schema: Schema, normalize: Record<string, string>, years: RequestContract['years']): Schema {
  const properties = bothCases((schema.properties ?? {}) as Record<string, Schema>, normalize)
  if (years && properties[years.field] && !('enum' in properties[years.field]!)) properties[years.field] = { ...properties[years.field], enum: [...years.supported] }
  // An enum the rules check themselves (allOf: `profession` in any case) is listed in both cases too.
  if (!Array.isArray(schema.allOf)) return { ...schema, properties }
  const allOf = (schema.allOf as Schema[]).map((s) => (s && typeof s === 'object' && s.properties ? { ...s, properties: bothCases(s.properties as Record<string, Schema>, normalize) } : s))
  return { ...schema, allOf, properties }
}

/** The properties with the enum of each field normalised to one case listing the other case as well. */
function bothCases(props: Record<string, Schema>, normalize: Record<string, string>): Record<string, Schema> {
  const properties = { ...props }
  for (const [field, how] of Object.entries(normalize)) {
    const p = properties[field]
    if (!p || !Array.isArray(p.enum) || (how !== 'uppercase' && how !== 'lowercase')) continue
    const other = p.enum.map((v) => (typeof v === 'string' ? (how === 'uppercase' ? v.toLowerCase() : v.toUpperCase()) : v))
    properties[field] = { ...p, enum: [...new Set([...p.enum, ...other])] }
  }
  return properties
}

/**
 * The schema the request is validated with: the published one less what the service checks itself
 * with a better message. A year outside the supported ones is answered by the year check
 * (`unsupported_parameter`, listing them); the cross-field rules a manifest writes in `allOf`
 * (`if`/`then`: fields that apply to one trust type only), and any bound or enum the rule set checks
 * with a better answer than the schema's (an unknown dimension: `unsupported_parameter` with the list
 * of those loaded), restate the rule set's own checks, which answer with the law's words. A test holds the two to the same requests (test/server/schemas.test.ts).
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

/** Field names compared as written: fuzzball's default full_process would rewrite them (lower case, punctuation as spaces). */
const AS_WRITTEN = { full_process: false }

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
    // A word of the name (`year` for `tax_year`) or its first words (`claim_age` for `claim_age_months`).
    .map((n) => ({ n, d: distance(unknown, n, AS_WRITTEN), part: n.split('_').includes(unknown) || unknown.split('_').includes(n) || n.startsWith(`${unknown}_`) || unknown.startsWith(`${n}_`) }))
    .filter((x) => x.part || x.d <= Math.max(2, Math.floor(unknown.length / 3)))
    .sort((a, b) => a.d - b.d)
  return near.length > 0 ? `did you mean ${near.slice(0, 2).map((x) => x.n).join(' or ')}?` : undefined
}

/** An enum's values listed in a message when there are at most this many; more are named by count and a few examples. */
const LISTED_VALUES = 12

/** The value at a body path (`/donees/0/state`). */
function valueAt(body: unknown, instancePath: string): unknown {
  let at = body
  for (const part of instancePath.split('/').slice(1)) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined
  return at
}

/**
 * A value outside an enum: what to write instead. A name a table gives for a value ("New York" for
 * NY) is answered with its value; a slip of a letter or two with the nearest; a long list is not
 * printed whole (102 state codes in both cases), the schema at /openapi.json has it.
 */
function enumMessage(allowed: unknown[], value: unknown, names: Map<string, string> | undefined): string {
  const texts = allowed.filter((v): v is string => typeof v === 'string')
  // Both cases of a normalised field are listed in the schema; one is enough in a message.
  const distinct = [...new Set(allowed.map((v) => (typeof v === 'string' && texts.includes(v.toUpperCase()) ? v.toUpperCase() : v)))]
  const list = distinct.length <= LISTED_VALUES ? `one of ${distinct.join(', ')}` : `one of the ${distinct.length} values the request schema lists (${distinct.slice(0, 5).join(', ')}, …)`
  if (typeof value !== 'string') return `must be ${list}`
  const named = names?.get(value.trim().toLowerCase())
  if (named !== undefined) return `must be ${list}: write ${named} for ${value.trim()}`
  // Levenshtein is quadratic: only for a value of a plausible length; and a two-letter code one
  // letter away from another (ZZ, AZ) is no slip worth naming.
  if (value.length > 2 && value.length <= 64) {
    const near = distinct
      .filter((v): v is string => typeof v === 'string')
      .map((v) => ({ v, d: distance(value.toLowerCase(), v.toLowerCase()) }))
      .filter((x) => x.d <= Math.max(1, Math.floor(value.length / 3)))
      .sort((a, b) => a.d - b.d || a.v.localeCompare(b.v))
    if (near.length > 0) return `must be ${list}; did you mean ${near.slice(0, 2).map((x) => x.v).join(' or ')}?`
  }
  return `must be ${list}`
}

/** A text that is not a date as JSON Schema's `format: date` reads one (RFC 3339 full-date). */
function dateMessage(value: unknown): string {
  // 11/27/2026, the way a US form writes it: say the same day as it must be written.
  const us = typeof value === 'string' ? /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(value) : null
  const example = us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : '2026-11-27'
  return `must be a date written YYYY-MM-DD (${us ? `${JSON.stringify(value)} is ${example}` : `for example ${example}`})`
}

/** `hint`: look for what an unknown field was meant to be (Levenshtein; only for the fields that will be listed). */
function fieldProblem(e: ErrorObject, endpoint: RequestContract, body: unknown, hint: boolean): FieldProblem & { unknown: boolean } {
  const request = endpoint.request
  switch (e.keyword) {
    case 'required':
      return { field: fieldName(e.instancePath, String(e.params.missingProperty)), message: 'is required', unknown: false }
    case 'additionalProperties': {
      const name = String(e.params.additionalProperty)
      const meant = hint ? suggestion(name, schemaAt(request, e.instancePath)) : undefined
      return { field: fieldName(e.instancePath, name), message: `is not a field of this request${meant ? `; ${meant}` : ''}`, unknown: true }
    }
    case 'enum': {
      const field = fieldName(e.instancePath)
      const names = endpoint.enumNames?.get(field.replace(/\[\d+\]/g, '[]'))
      return { field, message: enumMessage(e.params.allowedValues as unknown[], valueAt(body, e.instancePath), names), unknown: false }
    }
    case 'format':
      if (e.params.format === 'date') return { field: fieldName(e.instancePath), message: dateMessage(valueAt(body, e.instancePath)), unknown: false }
      return { field: fieldName(e.instancePath), message: e.message ?? e.keyword, unknown: false }
    case 'type':
      return { field: fieldName(e.instancePath), message: `must be ${e.params.type === 'integer' ? 'an integer' : `of type ${String(e.params.type)}`}`, unknown: false }
    default:
      return { field: fieldName(e.instancePath), message: e.message ?? e.keyword, unknown: false }
  }
}

/**
 * The most `details` an error carries. A body of thousands of bad items would otherwise get one entry
 * each (a 512 KiB body got a 21 MB answer); past the cap, the message says how many there were.
 */
export const MAX_DETAILS = 20

/**
 * An error's message and details with at most MAX_DETAILS details; when some were cut, the message
 * ends with how many problems there were ("… (250000 problems; details lists the first 20)").
 * docs/errors.md states it. @api public
 */
export function capDetails(message: string, details: FieldProblem[]): { message: string; details: FieldProblem[] } {
  if (details.length <= MAX_DETAILS) return { message, details }
  const note = `(${details.length} problems; details lists the first ${MAX_DETAILS})`
  return { message: message.endsWith(note) ? message : `${message} ${note}`, details: details.slice(0, MAX_DETAILS) }
}

const ASCII = /^[\x00-\x7f]*$/

/**
 * Calls `visit` for each value of `body` that the schema describes, following `properties` and
 * `items`, with its field name as the caller wrote it. @api private
 */
function walk(schema: Schema, value: unknown, field: string, visit: (schema: Schema, value: unknown, field: string) => boolean): void {
  // `visit` answers whether to look inside the value.
  if (!visit(schema, value, field)) return
  if (Array.isArray(value)) {
    const items = schema.items
    if (items === null || typeof items !== 'object') return
    for (let i = 0; i < value.length; i++) walk(items as Schema, value[i], `${field}[${i}]`, visit)
  } else if (value !== null && typeof value === 'object') {
    const properties = schema.properties as Record<string, Schema> | undefined
    if (!properties) return
    for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
      if (Object.hasOwn(properties, name)) walk(properties[name]!, v, field ? `${field}.${name}` : name, visit)
    }
  }
}

/**
 * Lists longer than their `maxItems`, and unknown fields when there are more of them than an error
 * lists, found before anything else is validated: ajv (allErrors) checks every item of a list even
 * when the list is too long and reports every unknown field, and 250,000 bad items cost seconds and
 * an answer of megabytes. @api private
 */
function crowded(schema: Schema, body: unknown): (FieldProblem & { code: 'validation_error' | 'unsupported_parameter' })[] {
  const long: (FieldProblem & { code: 'validation_error' })[] = []
  const unknown: (FieldProblem & { code: 'unsupported_parameter' })[] = []
  walk(schema, body, '', (s, v, field) => {
    if (Array.isArray(v)) {
      if (typeof s.maxItems !== 'number' || v.length <= s.maxItems) return true
      long.push({ field, message: `must NOT have more than ${s.maxItems} items`, code: 'validation_error' })
      return false
    }
    if (v !== null && typeof v === 'object' && s.additionalProperties === false) {
      const properties = (s.properties ?? {}) as Record<string, unknown>
      for (const name of Object.keys(v)) {
        if (Object.hasOwn(properties, name)) continue
        const hint = unknown.length < MAX_DETAILS ? suggestion(name, s) : undefined
        unknown.push({ field: field ? `${field}.${name}` : name, message: `is not a field of this request${hint ? `; ${hint}` : ''}`, code: 'unsupported_parameter' })
      }
    }
    return true
  })
  // A few unknown fields are left to the schema, which reports them beside every other fault.
  return unknown.length > MAX_DETAILS ? [...long, ...unknown] : long
}

/**
 * Text longer than its `maxLength` once normalised (Unicode NFKC, as the service compares text): one
 * character can become 18 (U+FDFA), so a name within the cap as sent was 3,600 characters to the
 * matcher and held the event loop for seconds. ASCII text is its own normal form. @api private
 */
function tooLongNormalised(schema: Schema, body: unknown): FieldProblem[] {
  const found: FieldProblem[] = []
  walk(schema, body, '', (s, v, field) => {
    if (typeof v !== 'string') return true
    if (typeof s.maxLength === 'number' && !ASCII.test(v)) {
      const normal = v.normalize('NFKC')
      // Code points, as maxLength counts them; no more than the UTF-16 units, so counted only when those pass.
      const length = normal.length <= s.maxLength ? normal.length : codePoints(normal)
      if (length > s.maxLength) found.push({ field, message: `must NOT have more than ${s.maxLength} characters once normalised (Unicode NFKC: ${length})` })
    }
    return false
  })
  return found
}

function codePoints(t: string): number {
  let n = 0
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i)
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length && (t.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    n++
  }
  return n
}

/** Normalise, validate and year-check a request body; returns it or throws InputError. @api public */
export function checkRequest(endpoint: RequestContract, body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) throw new InputError('validation_error', 'a JSON object body is required', [{ field: 'body', message: 'is required' }])
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new InputError('validation_error', 'the body must be a JSON object', [{ field: 'body', message: 'must be a JSON object' }])
  }
  // Before the body is copied: spreading 25,000 unknown fields into a new object alone took 0.4 s.
  const tooMany = crowded(endpoint.request, body)
  if (tooMany.length > 0) refuse(tooMany)
  const input = { ...(body as Record<string, unknown>) }
  for (const [field, how] of Object.entries(endpoint.normalize)) {
    const v = input[field]
    if (typeof v !== 'string') continue
    // Case is changed for ASCII text only: toUpperCase maps dotless ı and long ſ to I and S, so
    // "ıl" became IL, a value the published enum (both ASCII cases) does not hold.
    if (how !== 'trim' && !ASCII.test(v)) continue
    input[field] = how === 'uppercase' ? v.toUpperCase() : how === 'lowercase' ? v.toLowerCase() : v.trim()
  }
  // Every fault of the request's shape at once: the schema's, and a year the rules do not cover.
  const problems: (FieldProblem & { code: 'validation_error' | 'unsupported_parameter' })[] = []
  if (!endpoint.validate(input)) {
    // One detail per field, its faults joined: "state" sent as "New York" is one field at fault.
    const byField = new Map<string, FieldProblem & { unknown: boolean }>()
    const errors = endpoint.validate.errors ?? []
    // A value outside an enum is told what to write; that it is also too long for one ("North
    // Carolina" for a two-letter code) says nothing more.
    const enumMissed = new Set(errors.filter((e) => e.keyword === 'enum').map((e) => e.instancePath))
    for (const e of errors) {
      if (enumMissed.has(e.instancePath) && (e.keyword === 'maxLength' || e.keyword === 'minLength' || e.keyword === 'pattern')) continue
      // Past the fields that will be listed, a suggestion would cost time and never be read.
      // The value as the caller sent it (before `state: uppercase`), to be named in the message.
      const p = fieldProblem(e, endpoint, body, byField.size < MAX_DETAILS)
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
  if (problems.length === 0) for (const p of tooLongNormalised(endpoint.request, input)) problems.push({ ...p, code: 'validation_error' })
  if (problems.length > 0) refuse(problems)
  return input
}

/** Throws the InputError of a request's faults: each field once, at most MAX_DETAILS of them. @api private */
function refuse(problems: (FieldProblem & { code: 'validation_error' | 'unsupported_parameter' })[]): never {
  const details = problems.map(({ field, message }) => ({ field: field || 'body', message }))
  const first = details[0]!
  const named = details.slice(0, MAX_DETAILS).map((d) => d.field).join(', ')
  const message = details.length === 1 ? `${first.field} ${first.message}` : `${details.length} fields are invalid: ${named}${details.length > MAX_DETAILS ? ', …' : ''}`
  const capped = capDetails(message, details)
  throw new InputError(combinedCode(problems.map((p) => p.code)), capped.message, capped.details)
}
