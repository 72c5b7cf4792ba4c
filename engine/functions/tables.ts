/**
 * @module Functions that read a table named as their first argument: tax under a marginal-rate
 * schedule, a lookup row, a point of a series, a parameter on another date of the case. Every read
 * goes through the evaluation's runtime, so that the table is cited and dated in the answer.
 */
import { compare, isDec } from '../values/decimal.js'
import { lookupKey, marginalTax, type LookupEntry, type ScheduleEntry, type SeriesEntry, type ParameterEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { CallContext, FunctionLibrary } from './spec.js'
import { amount, chargeSort, date, describe } from './values.js'

/** The key a lookup row is indexed under (tables.ts), from the values a formula looks it up by. */
function rowKey(values: Value[]): string {
  const text = (v: Value) => (isDec(v) ? v.toString() : String(v))
  // Most lookups have one key, whose key is its text: no list to build and join.
  return values.length === 1 ? text(values[0]!) : lookupKey(values.map(text))
}

function keyText(v: Value): string {
  return isDec(v) ? v.toString() : String(v)
}

// The compiler checked the table's kind at load (the `{ table }` argument); these narrow the type.
const schedule = (cx: CallContext) => cx.table as ScheduleEntry
const lookup = (cx: CallContext) => cx.table as LookupEntry
const series = (cx: CallContext) => cx.table as SeriesEntry
const parameter = (cx: CallContext) => cx.table as ParameterEntry

const keyCount = (table: { kind: string; keys?: string[]; id: string }, args: number): string | undefined =>
  table.kind === 'lookup' && table.keys && args - 1 !== table.keys.length ? `${table.id} is looked up by ${table.keys.length} key(s) (${table.keys.join(', ')}), got ${args - 1}` : undefined

export const tables: FunctionLibrary = {
  schedule: {
    doc: 'The tax on an amount under a marginal-rate schedule in force on the calculation date: the base of its bracket plus the rate on the excess.',
    args: [{ table: 'marginal_rate_schedule' }, 'number'],
    returns: 'amount',
    tableFirst: true,
    impl: ([, x], cx) => marginalTax(cx.rt.read(schedule(cx)), amount(cx, x!, 'the amount')),
  },
  marginal_rate: {
    doc: 'The rate of the bracket that taxes the next unit above an amount.',
    args: [{ table: 'marginal_rate_schedule' }, 'number'],
    returns: 'rate',
    impl: ([, x], cx) => {
      const at = amount(cx, x!, 'the amount')
      const brackets = cx.rt.read(schedule(cx)).filter((b) => compare(b.over, at) < 1)
      const bracket = brackets[brackets.length - 1]
      return bracket ? bracket.rate : cx.fail(`${cx.table!.id} has no bracket at ${at.toString()}`)
    },
  },
  bracket_end: {
    doc: 'The upper end of the bracket that taxes the next unit above an amount: the next bracket\'s floor (null in the top bracket): how much income fills the current bracket.',
    args: [{ table: 'marginal_rate_schedule' }, 'number'],
    returns: 'amount',
    impl: ([, x], cx) => {
      const at = amount(cx, x!, 'the amount')
      const next = cx.rt.read(schedule(cx)).find((b) => compare(b.over, at) > 0)
      return next ? next.over : null
    },
  },
  rate_bracket_end: {
    doc: 'The upper end of the first bracket taxed at a rate (null when it is the top bracket or no bracket has that rate): the income that fills a bracket named by its rate.',
    args: [{ table: 'marginal_rate_schedule' }, 'number'],
    returns: 'amount',
    impl: ([, r], cx) => {
      const rate = amount(cx, r!, 'the rate')
      const brackets = cx.rt.read(schedule(cx))
      const i = brackets.findIndex((b) => compare(b.rate, rate) === 0)
      return i >= 0 && i + 1 < brackets.length ? brackets[i + 1]!.over : null
    },
  },
  lookup: {
    doc: 'The row of a keyed lookup in force on the calculation date, by its key columns in order; a missing row is an error.',
    args: [{ table: 'lookup' }, 'any'],
    rest: 'any',
    returns: (t) => t[0] ?? 'any',
    checkTable: (table, n) => keyCount(table as LookupEntry, n),
    impl: ([, ...keys], cx) => {
      const values = keys as Value[]
      const row = cx.rt.read(lookup(cx)).get(rowKey(values))
      return row ? (row as Value) : cx.fail(`${cx.table!.id} has no row for ${values.map(describe).join(', ')}`)
    },
  },
  has_row: {
    doc: 'Whether a keyed lookup has a row for these keys.',
    args: [{ table: 'lookup' }, 'any'],
    rest: 'any',
    returns: 'boolean',
    checkTable: (table, n) => keyCount(table as LookupEntry, n),
    impl: ([, ...keys], cx) => cx.rt.read(lookup(cx)).has(rowKey(keys as Value[])),
  },
  keys: {
    doc: 'The keys of a one-key lookup in force on the calculation date, sorted.',
    args: [{ table: 'lookup' }],
    returns: { list: 'text' },
    checkTable: (table) => (table.kind === 'lookup' && table.keys.length !== 1 ? `keys() needs a lookup with one key column; ${table.id} has ${table.keys.length}` : undefined),
    impl: (_args, cx) => {
      const column = lookup(cx).keys[0]!
      const rows = cx.rt.read(lookup(cx))
      chargeSort(cx, rows.size)
      return [...rows.values()].map((row) => String(row[column])).sort()
    },
  },
  series: {
    doc: 'The point of a series at a key (a year, a month "2026-04").',
    args: [{ table: 'series' }, 'any'],
    returns: 'amount',
    impl: ([, key], cx) => cx.rt.read(series(cx), { key: keyText(key as Value) }),
  },
  has_point: {
    doc: 'Whether a series has a point at a key (a § 7520 rate for this month).',
    args: [{ table: 'series' }, 'any'],
    returns: 'boolean',
    impl: ([, key], cx) => series(cx).points.has(keyText(key as Value)),
  },
  points: {
    doc: 'The keys of a series, sorted.',
    args: [{ table: 'series' }],
    returns: { list: 'text' },
    impl: (_args, cx) => {
      const points = series(cx).points
      chargeSort(cx, points.size)
      return [...points.keys()].sort()
    },
  },
  in_force: {
    doc: 'Whether a parameter has a value in force on a date: a guard before reading it there.',
    args: [{ table: 'parameter' }, 'date'],
    returns: 'boolean',
    impl: ([, d], cx) => cx.rt.inForce(cx.table!, date(cx, d!, 'the date')),
  },
  value_at: {
    doc: 'A parameter in force on another date of the case than the calculation date (the applicable age by date of birth).',
    args: [{ table: 'parameter' }, 'date'],
    returns: (t) => t[0] ?? 'any',
    impl: ([, d], cx) => cx.rt.read(parameter(cx), { date: date(cx, d!, 'the date') }),
  },
}
