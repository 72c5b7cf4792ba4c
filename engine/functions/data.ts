/**
 * @module Queries of a data set (tables/**: rows in a CSV or JSON Lines file, engine/data/): the
 * rows of a key, the band holding a value, a key's history and its row in force on a date. What a
 * query needs (a declared key, band or history, one value per key column) is checked at load, so a
 * query never scans a data set at run time; a search reads a words index (SQLite FTS5).
 */
import type { DatasetEntry, TableEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { CallContext, FunctionLibrary, ValueType } from './spec.js'
import { Dec } from '../values/decimal.js'
import { amount, chargeItems, date, describe } from './values.js'

const dataset = (cx: CallContext) => cx.table as DatasetEntry
/** The most rows one search may return (a bound of the engine's work, not law). */
const MAX_SEARCH_ROWS = 1000

/**
 * A query's rows, charged one step for the query and one a row read: an index finds them, so the
 * rows read are the work (and what the answer then holds).
 */
function charged<T extends Value[]>(cx: CallContext, rows: T): T {
  chargeItems(cx, 1 + rows.length)
  return rows
}

/** The load-time check of a query: the data set declares what it needs, and the keys are all given. */
function needs(what: 'key' | 'history' | 'band', fixed: number) {
  return (table: TableEntry, args: number): string | undefined => {
    if (table.kind !== 'dataset') return undefined
    const d = table.descriptor
    const columns = what === 'key' ? d.key : what === 'history' ? d.history?.key : undefined
    if (what === 'band') return d.band ? undefined : `${table.id} declares no band (band: { lower, upper })`
    if (!columns) return `${table.id} declares no ${what}; a query may only use what the data set indexes`
    const given = args - fixed
    return given === columns.length ? undefined : `${table.id} is looked up by ${columns.length} key(s) (${columns.join(', ')}), got ${given}`
  }
}

const rowsOf = (t: ValueType[]): ValueType => ({ list: t[0] ?? 'any' })
/** Declared one-column key, for key_values. */
function oneKey(table: TableEntry): string | undefined {
  if (table.kind !== 'dataset') return undefined
  const key = table.descriptor.key
  return key?.length === 1 ? undefined : `${table.id} has no one-column key (key: [column]); key_values lists the values of such a key`
}
const rowOf = (t: ValueType[]): ValueType => t[0] ?? 'any'

export const data: FunctionLibrary = {
  rows: {
    doc: 'Every row of a data set whose key columns equal the keys given, in file order (a list; empty when none): rows(licences, state).',
    args: [{ table: 'dataset' }, 'any'],
    rest: 'any',
    returns: rowsOf,
    checkTable: needs('key', 1),
    impl: ([, ...key], cx) => charged(cx, cx.rt.read(dataset(cx)).rows(key as Value[])),
  },
  band: {
    doc: 'The row of a data set whose band holds a value (lower bound inclusive, upper exclusive, an empty upper open-ended); no such band is an error: band(accessible_spaces, total_spaces).',
    args: [{ table: 'dataset' }, 'number'],
    returns: rowOf,
    checkTable: needs('band', 1),
    impl: ([, v], cx) => {
      const value = amount(cx, v!, 'the value')
      return cx.rt.read(dataset(cx)).band(value) ?? cx.fail(`${cx.table!.id} has no band holding ${value.toString()}`)
    },
  },
  key_values: {
    doc: "The distinct values of a data set's one-column key, sorted: key_values(airports), the codes an unknown one is compared with (filter them with similarity for close matches).",
    args: [{ table: 'dataset' }],
    returns: { list: 'any' },
    checkTable: oneKey,
    impl: (_args, cx) => charged(cx, cx.rt.read(dataset(cx)).keyValues()),
  },
  row_count: {
    doc: 'How many rows a data set holds: row_count(patents), what an answer reports of its coverage.',
    args: [{ table: 'dataset' }],
    returns: 'integer',
    impl: (_args, cx) => new Dec(cx.rt.read(dataset(cx)).count()),
  },
  search_rows: {
    doc: 'The rows of a data set whose search columns share words with a text, best first (BM25), at most `limit` (1 to 1,000): search_rows(providers, name, 50), the candidates a name is then compared with (entity_match).',
    args: [{ table: 'dataset' }, 'text', 'number'],
    returns: rowsOf,
    checkTable: (table) => (table.kind !== 'dataset' || table.descriptor.search ? undefined : `${table.id} declares no search columns (search: [column]); search_rows reads only an indexed text`),
    impl: ([, text, limit], cx) => {
      const most = amount(cx, limit!, 'the limit')
      if (!most.isInteger() || most.lt(1) || most.gt(MAX_SEARCH_ROWS)) return cx.fail(`the limit of search_rows is a whole number from 1 to ${MAX_SEARCH_ROWS}, got ${most.toString()}`)
      if (typeof text !== 'string') return cx.fail(`search_rows searches a text, got ${describe(text!)}`)
      return charged(cx, cx.rt.read(dataset(cx)).search(text, most.toNumber()))
    },
  },
  rows_with: {
    doc: "The rows of a data set whose identifier column holds a value, however it is written (compared as entity_match compares identifiers: upper case, without spaces, hyphens, dots or slashes), in file order: rows_with(providers, 'npi', npi). The column is one of the data set's `identifiers`.",
    args: [{ table: 'dataset' }, 'text', 'any'],
    returns: rowsOf,
    checkTable: (table) => (table.kind !== 'dataset' || table.descriptor.identifiers ? undefined : `${table.id} declares no identifier columns (identifiers: [column]); rows_with reads only an indexed identifier`),
    impl: ([, column, value], cx) => {
      const d = dataset(cx).descriptor
      if (typeof column !== 'string' || !d.identifiers!.includes(column)) return cx.fail(`${cx.table!.id} indexes the identifiers ${d.identifiers!.join(', ')}, not ${describe(column!)}`)
      if (value === null || value === undefined) return []
      return charged(cx, cx.rt.read(dataset(cx)).withIdentifier(column, value as Value))
    },
  },
  count_rows: {
    doc: "How many rows a data set holds for each distinct value of some columns, sorted by them, each a record of the columns and `rows`: count_rows(providers, 'state', 'taxonomy_code'). Counted once per store (it reads every row the first time), so a coverage statement need not read the rows.",
    args: [{ table: 'dataset' }, 'text'],
    rest: 'text',
    returns: { list: { record: 'open' } },
    impl: ([, ...columns], cx) => {
      const d = dataset(cx).descriptor
      const names = columns as Value[]
      for (const c of names) {
        if (typeof c !== 'string' || !Object.hasOwn(d.columns, c) || c === 'rows') return cx.fail(`count_rows counts by columns of ${cx.table!.id} (${Object.keys(d.columns).join(', ')}), not ${describe(c)}`)
      }
      return charged(cx, cx.rt.read(dataset(cx)).counts(names as string[]))
    },
  },
  history: {
    doc: "The rows of a key in order of effective date (empty when the key has none): history(minimum_wage, state).",
    args: [{ table: 'dataset' }, 'any'],
    rest: 'any',
    returns: rowsOf,
    checkTable: needs('history', 1),
    impl: ([, ...key], cx) => charged(cx, cx.rt.read(dataset(cx)).history(key as Value[])),
  },
  row_in_force: {
    doc: 'The row of a key in force on a date: the one with the latest effective date on or before it; none is an error: row_in_force(minimum_wage, on, state).',
    args: [{ table: 'dataset' }, 'date', 'any'],
    rest: 'any',
    returns: rowOf,
    checkTable: needs('history', 2),
    impl: ([, on, ...key], cx) => {
      const day = date(cx, on!, 'the date')
      const values = key as Value[]
      return cx.rt.read(dataset(cx)).inForce(values, day) ?? cx.fail(`${cx.table!.id} has no row for ${values.map(describe).join(', ')} in force on ${day}`)
    },
  },
}
