/**
 * @module A request's JSON Schema filled in from its rule set's declared inputs, so an endpoint
 * manifest writes only what the inputs cannot say: descriptions, bounds, enums and which fields are
 * required (an input without a default may still be optional: a date not given reads as null).
 *
 * Each request field takes its JSON type from its input's type (amount → number, integer, text →
 * string, a date → string with format date, boolean, a list → array with its items, an object →
 * object with its fields), and its default from the input's default; objects are closed
 * (`additionalProperties: false`), so an unknown field is refused at every level. What the manifest
 * writes wins. The order of the keys is the one a person writes: `type` first (then
 * `additionalProperties`), `default` just before the description.
 */
import { isDec, toNumber } from '../engine/values/decimal.js'
import type { InputSpec } from '../engine/model/rule-set.js'
import type { TableEntry } from '../engine/data/tables.js'
import type { ValueType } from '../engine/functions/spec.js'
import type { Value } from '../engine/model/types.js'

type Schema = Record<string, unknown>

const JSON_TYPE: Record<InputSpec['type'], string> = {
  amount: 'number',
  integer: 'integer',
  text: 'string',
  date: 'string',
  boolean: 'boolean',
  list: 'array',
  object: 'object',
}

function json(v: Value): unknown {
  if (isDec(v)) return toNumber(v)
  if (Array.isArray(v)) return v.map(json)
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, json(x)]))
  return v
}

/** One field's schema: the manifest's, with the type, format, default and nested parts it leaves out. */
function field(written: Schema, input: InputSpec | undefined): Schema {
  if (!input) return written
  const out: Schema = {}
  if (!('type' in written)) out.type = JSON_TYPE[input.type]
  if (input.type === 'date' && !('format' in written)) out.format = 'date'
  for (const [k, v] of Object.entries(written)) {
    if (k === 'description' && !('default' in written) && input.default !== undefined) out.default = json(input.default)
    out[k] = v
  }
  if (!('default' in out) && input.default !== undefined) out.default = json(input.default)
  if (input.type === 'list' && input.items && isSchema(out.items)) out.items = field(out.items, input.items)
  if (input.type === 'object' && input.fields) return object(out, input.fields)
  return out
}

function isSchema(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** An object schema: each property filled in from its input, closed to unknown fields. */
function object(written: Schema, inputs: Record<string, InputSpec>): Schema {
  const properties = isSchema(written.properties) ? written.properties : {}
  const filled: Schema = {}
  const required = new Set(Array.isArray(written.required) ? written.required : [])
  for (const [name, schema] of Object.entries(properties)) {
    filled[name] = isSchema(schema) ? field(schema, Object.hasOwn(inputs, name) ? inputs[name] : undefined) : schema
    // A field the caller must send never takes its input's default, so publishing one would tell a
    // client generator a value the service never fills in.
    if (required.has(name) && isSchema(schema) && !('default' in schema) && isSchema(filled[name])) delete (filled[name] as Schema).default
  }
  const out: Schema = { type: 'type' in written ? written.type : 'object' }
  if (!('additionalProperties' in written)) out.additionalProperties = false
  for (const [k, v] of Object.entries(written)) if (k !== 'type') out[k] = k === 'properties' ? filled : v
  return out
}

/** The request schema of a manifest, filled in from the rule set's inputs. @api private */
export function requestSchema(written: Schema, inputs: Record<string, InputSpec>): Schema {
  return object(written, inputs)
}

/**
 * `enum_from: <lookup id>` anywhere in a request or response schema becomes `enum:` the keys of that
 * one-key lookup as last in force (the 51 state codes from `estate.state.jurisdictions`): the list a
 * table already holds is not written again. Returns the schema and, for a name that is no such
 * table, the problem. `minimum_from` / `maximum_from: <parameter id>` likewise become `minimum` /
 * `maximum`, the parameter's last value.
 */
export function enumsFromTables(schema: unknown, table: (id: string) => TableEntry | undefined, problems: string[]): unknown {
  if (Array.isArray(schema)) return schema.map((s) => enumsFromTables(s, table, problems))
  if (!isSchema(schema)) return schema
  const out: Schema = {}
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'minimum_from' || k === 'maximum_from') {
      // A bound the law fixes (the 20% yearly increase of a qualified annuity) is read from its
      // parameter, as last in force, so the schema and the rule's check cannot drift apart.
      const entry = typeof v === 'string' ? table(v) : undefined
      const last = entry?.kind === 'parameter' ? entry.history[entry.history.length - 1]?.value : undefined
      if (last === undefined || !isDec(last)) problems.push(`${k} names ${JSON.stringify(v)}, which is not a parameter with a numeric value`)
      else out[k === 'minimum_from' ? 'minimum' : 'maximum'] = toNumber(last)
      continue
    }
    if (k !== 'enum_from') {
      out[k] = enumsFromTables(v, table, problems)
      continue
    }
    const entry = typeof v === 'string' ? table(v) : undefined
    if (!entry || entry.kind !== 'lookup' || entry.keys.length !== 1) {
      problems.push(`enum_from names ${JSON.stringify(v)}, which is not a lookup table with one key column`)
      continue
    }
    const rows = entry.history[entry.history.length - 1]?.value ?? new Map()
    out.enum = [...rows.values()].map((row) => String(row[entry.keys[0]!])).sort()
  }
  return out
}

/**
 * The names of the values an `enum_from` table lists, where its rows have a `name` column (the
 * states: "New York" for NY), by field (`state`, `donees[].state`) and by name in lower case: so a
 * caller who writes the name is told the code. @api private
 */
export function enumNamesFrom(schema: unknown, table: (id: string) => TableEntry | undefined, field = '', out = new Map<string, Map<string, string>>()): Map<string, Map<string, string>> {
  if (!isSchema(schema)) return out
  const from = schema.enum_from
  const entry = typeof from === 'string' ? table(from) : undefined
  if (entry?.kind === 'lookup' && entry.keys.length === 1) {
    const names = new Map<string, string>()
    for (const row of entry.history[entry.history.length - 1]?.value.values() ?? []) {
      const name = row.name
      if (typeof name === 'string') names.set(name.toLowerCase(), String(row[entry.keys[0]!]))
    }
    if (names.size > 0) out.set(field, names)
  }
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) enumNamesFrom(sub, table, field ? `${field}.${name}` : name, out)
  if (schema.items !== undefined) enumNamesFrom(schema.items, table, `${field}[]`, out)
  return out
}

/** The JSON type of a value type, where it has one (null and any have none). */
function jsonTypeOf(t: ValueType): string | undefined {
  if (typeof t === 'object') return 'list' in t ? 'array' : 'object'
  switch (t) {
    case 'amount':
    case 'rate':
      return 'number'
    case 'integer':
      return 'integer'
    case 'text':
    case 'date':
      return 'string'
    case 'boolean':
      return 'boolean'
    default:
      return undefined
  }
}

/**
 * A response schema filled in from the rule set's result type (worked out by the load check from
 * its outputs): each field's JSON `type` where the manifest does not write one, and every object
 * closed (`additionalProperties: false`), through nested objects and the items of lists. A nullable field or one the checker cannot type keeps what the
 * manifest writes.
 */
export function responseSchema(written: unknown, output: ValueType | undefined): unknown {
  if (!isSchema(written) || output === undefined) return written
  const json = jsonTypeOf(output)
  const out: Schema = {}
  if (!('type' in written) && json) out.type = json
  // A result's objects are closed: a field the schema does not list is a defect the tests catch.
  if (json === 'object' && !('additionalProperties' in written)) out.additionalProperties = false
  for (const [k, v] of Object.entries(written)) {
    if (k === 'properties' && isSchema(v) && typeof output === 'object' && 'record' in output && output.record !== 'open') {
      const fields = output.record
      out.properties = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, responseSchema(s, Object.hasOwn(fields, name) ? fields[name] : undefined)]))
    } else if (k === 'items' && typeof output === 'object' && 'list' in output) out.items = responseSchema(v, output.list)
    else out[k] = v
  }
  return out
}
