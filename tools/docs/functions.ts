/**
 * @module docs/functions.md: the reference of what a rule file may write, from the engine itself:
 * every function of the library (engine/functions/*) with its arguments, result and own doc string,
 * and every kind of formula node and rule-set section with the keys its JSON Schema allows
 * (engine/load/schemas.ts). A function or a key added to the engine appears here on the next
 * `npm run docs`, and test/tools/docs.test.ts fails until it does.
 */
import { FAMILIES } from '../../engine/functions/index.js'
import type { ArgType, FunctionSpec, ValueType } from '../../engine/functions/spec.js'
import { ruleSetSchema } from '../../engine/load/schemas.js'
import { cell, code, generatedBy, table } from './markdown.js'

type Schema = Record<string, unknown>

const TABLE_KINDS: Record<string, string> = {
  parameter: 'parameter',
  marginal_rate_schedule: 'marginal rate schedule',
  lookup: 'lookup',
  series: 'series',
  dataset: 'dataset',
}

/** A type as the reference says it, with no article: `amount`, `list of dates`, `x => …`. */
function typeText(t: ArgType | ValueType): string {
  if (typeof t === 'object') {
    if ('list' in t) return `list of ${plural(t.list)}`
    if ('record' in t) return 'record'
    if ('table' in t) return TABLE_KINDS[t.table] ?? t.table
    if ('family' in t) return 'family'
    return t.lambda === 1 ? 'x => …' : `(${['x', 'y', 'z'].slice(0, t.lambda).join(', ')}) => …`
  }
  switch (t) {
    case 'amount':
    case 'number':
      return 'amount'
    case 'integer':
      return 'whole number'
    case 'boolean':
      return 'true or false'
    case 'numbers':
      return 'amount or a list of amounts'
    case 'any':
      return 'any value'
    default:
      return t
  }
}

function plural(t: ArgType | ValueType): string {
  const one = typeText(t)
  return /^(amount|whole number|rate|date|record|list|dataset|lookup)/.test(one) ? one.replace(/^(amount|whole number|rate|date|record|list|dataset|lookup)/, '$1s') : one
}

/** The arguments in order; optional ones say so, a rest argument ends with `, …`. */
function argumentsText(spec: FunctionSpec): string {
  const required = spec.required ?? spec.args.length
  const args = spec.args.map((a, i) => (i < required ? typeText(a) : `optional ${typeText(a)}`))
  if (spec.rest) args.push(`${typeText(spec.rest)}, …`)
  return args.join('; ')
}

/** The result type, where the function declares one; else what it follows. */
function resultText(spec: FunctionSpec): string {
  return typeof spec.returns === 'function' ? 'from its arguments' : typeText(spec.returns)
}

/** What a family is, in a sentence, before its table: the families of engine/functions/index.ts. */
const FAMILY_TEXT: Record<string, string> = {
  tables: 'Reading a table of tables/ in force on the calculation date; the table is named directly (`schedule(rate_schedule, x)`), and each read is cited.',
  families:
    'A table family is the tables files of one folder, one member a file, keyed by its file stem: `tables/employment/law/ca.yaml` is member `ca` of family `employment.law`. The family is written as text and checked at load.',
  data: 'Queries of a data set (`kind: dataset`: records in CSV or JSON Lines); each row read is cited with the data set.',
  lists: 'Lists: a list argument counts as its items where amounts are expected. `x => …` is a function written as an argument: its parameter is each item of the list before it.',
  dates: 'Dates are `YYYY-MM-DD` texts and compare with `<` `<=` `>` `>=`. A day past the target month\'s end becomes its last day (31 January + 1 month = 28 or 29 February). Holidays come from a table or the request, never from code.',
  math: 'Exact decimals at the engine\'s pinned precision; a value outside a function\'s domain is an error, never NaN or an infinity.',
  text: 'Patterns are RE2 (no backreferences or lookaround); characters are counted as Unicode code points.',
  matching: 'Matching names with the thresholds of `tables/matching/entity.yaml`, so a threshold measured once means the same everywhere.',
}

/** What each kind of formula node does, in a sentence, where its schema has no description: the kinds are the schema's. */
const NODE_TEXT: Record<string, string> = {
  formula: 'A named expression over inputs, tables and other formulas: `+ - * /`, comparisons, `&& || !`, `c ? a : b`, fields `a.b`, the functions below and the rule set\'s own. Order follows the dependencies; a cycle or an unknown name is a load error.',
  decision:
    'Rules, each a `when` formula and an `outcome` (`when: "estate > exclusion && estate <= cliff"`, `outcome: phase_out`), and a `default`; each `when` compiles to a json-rules-engine condition tree, and two matching rules of one priority are an error.',
  call: 'Evaluate another rule set (`rule_set: "estate.state.{state}"`, a `fallback` when none has that name) with inputs built here; `when` runs it only where a condition holds. The same call with the same inputs is evaluated once per request.',
  each: 'One result per item of a list (`over`), with values `carry`-ed from one item to the next and an `until` that stops after the first item where it holds.',
  solve: 'A fixed point: from `start`, compute `formulas` and `next` until two values are within `tolerance` (a tax deductible in its own base).',
}

/** The sections of a rule set besides its formulas, with what each holds. */
const SECTION_TEXT: Record<string, string> = {
  inputs: 'The request fields the rule set reads, each with its type and default.',
  date: 'Which input is the calculation date, and its default; every table is read as in force on it.',
  roundings: 'Roundings of this rule set beside the service\'s (`cent`, `dollar`), each a step and a mode.',
  functions: 'The rule set\'s own functions, callable from its formulas: each body sees only its parameters, the tables and the functions above it.',
  checks: 'Each a true/false expression that, when it holds, refuses the request with a 400 naming a field.',
  outputs: 'The result\'s shape: leaves are expressions, `{formula, round}`, or `{when, then}` for a section present only sometimes.',
  notes: 'Plain-language caveats, each with an optional `when`; `{x}` prints a value, `{$x}` money.',
}

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A schema's keys as a table of key and what the schema says of it. */
function keysTable(schema: Schema, skip: string[] = []): string {
  const props = isSchema(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  const rows = Object.entries(props)
    .filter(([k]) => !skip.includes(k))
    .flatMap(([k, v]) => {
      const row = [code(k), required.has(k) ? 'yes' : '', isSchema(v) && typeof v.description === 'string' ? v.description : '']
      // A list of records (a decision's rules) shows the keys of each item too.
      const item = isSchema(v) && v.type === 'array' && isSchema(v.items) && isSchema(v.items.properties) ? v.items : undefined
      if (!item) return [row]
      const itemRequired = new Set(Array.isArray(item.required) ? (item.required as string[]) : [])
      return [row, ...Object.entries(item.properties as Schema).map(([n, s]) => [code(`${k}[].${n}`), itemRequired.has(n) ? 'yes' : '', isSchema(s) && typeof s.description === 'string' ? s.description : ''])]
    })
  // A column with nothing in it says nothing: the schema describes few of its keys.
  return rows.some((r) => r[2]) ? table(['key', 'required', 'description'], rows) : table(['key', 'required'], rows.map((r) => r.slice(0, 2)))
}

/** The schema at a rule-set schema reference (`#/$defs/formula`), or the schema itself. */
function resolved(schema: unknown): Schema {
  const defs = ruleSetSchema.$defs as unknown as Record<string, Schema>
  if (isSchema(schema) && typeof schema.$ref === 'string') return defs[schema.$ref.replace('#/$defs/', '')] ?? {}
  return isSchema(schema) ? schema : {}
}

/** docs/functions.md, whole. @api public */
export function functionsDoc(): string {
  const lines: string[] = [
    '# Functions and node kinds: the reference',
    '',
    generatedBy('engine/functions/* and engine/load/schemas.ts'),
    '',
    'What a rule file (`rules/**.yaml`) may write: the kinds of formula node, the other sections of a rule set, and every function of the library. ' +
      'Each function declares the types of its arguments and result, which the load check uses; a pure function (dates, math, text) is run at load when its arguments are all written out, so `date(2026, 2, 30)` is a load error. ' +
      'How to use them: [RULES.md](../RULES.md).',
    '',
    '## Formula nodes',
    '',
  ]
  const formula = resolved((ruleSetSchema.$defs as unknown as Record<string, Schema>).formula)
  const kinds = (formula.oneOf as Schema[]).map((o) => (o.required as string[])[0]!)
  const props = formula.properties as Record<string, unknown>
  const shared = Object.keys(props).filter((k) => !kinds.includes(k))
  lines.push(`A formula is one of: ${kinds.map(code).join(', ')}. Any of them may carry ${shared.map(code).join(', ')}.`, '')
  for (const kind of kinds) {
    const schema = resolved(props[kind])
    // The schema's own description where it has one, else the sentence here.
    const text = typeof schema.description === 'string' ? cell(schema.description) : NODE_TEXT[kind]
    if (!text) throw new Error(`tools/docs/functions.ts: the formula node kind ${kind} has no description in the schema nor a sentence in NODE_TEXT`)
    lines.push(`### ${kind}`, '', text, '')
    if (isSchema(schema.properties)) lines.push(keysTable(schema), '')
  }
  lines.push('## Rule set sections', '')
  const sections = Object.entries(ruleSetSchema.properties as unknown as Record<string, unknown>).filter(([k]) => !['formula_version', 'kind', 'title', 'description', 'reference', 'formulas'].includes(k))
  const rows = sections.map(([k, v]) => {
    const text = SECTION_TEXT[k] ?? (isSchema(v) && typeof v.description === 'string' ? v.description : undefined)
    if (!text) throw new Error(`tools/docs/functions.ts: the rule-set section ${k} has no sentence in SECTION_TEXT`)
    return [code(k), text]
  })
  lines.push(table(['section', 'what it holds'], rows), '')
  const checkItem = resolved(((ruleSetSchema.properties as unknown as Record<string, Schema>).checks as Schema).items)
  lines.push('A check has the keys:', '', keysTable(checkItem), '')
  lines.push('## The function library', '')
  for (const [family, library] of Object.entries(FAMILIES)) {
    const text = FAMILY_TEXT[family]
    if (!text) throw new Error(`tools/docs/functions.ts: the function family ${family} has no sentence in FAMILY_TEXT`)
    lines.push(`### ${family}`, '', text, '')
    lines.push(table(['function', 'arguments', 'result', 'what it returns'], Object.entries(library).map(([name, spec]) => [code(name), argumentsText(spec), resultText(spec), spec.doc])), '')
  }
  return lines.join('\n').replace(/\n+$/, '\n')
}
