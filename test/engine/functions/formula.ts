/**
 * @module A formula compiled and run on a few named values, for the function library's tests: the
 * path a rule file's formula takes (parse, compile, call), without a rule set around it.
 */
import { Dec } from '../../../engine/values/decimal.js'
import { compileExpression } from '../../../engine/compile/expression.js'
import type { TableEntry } from '../../../engine/data/tables.js'
import type { Runtime, Value } from '../../../engine/model/types.js'

export function formula(text: string, values: Record<string, Value> = {}, tables: Record<string, TableEntry> = {}): Value {
  const resolver = { hasValue: (n: string) => Object.hasOwn(values, n), table: (n: string) => (Object.hasOwn(tables, n) ? tables[n] : undefined) }
  const rt = {
    get: (n: string) => values[n]!,
    // The read path of the runtime: the latest value of a dated table, or the one in force on a date; a series' point.
    read: (e: TableEntry, on?: { date?: string; key?: string }) => {
      if (e.kind === 'series') return e.points.get(on!.key!) ?? new Dec(0)
      if (e.kind === 'dataset') return null
      const history = e.history as { from: string; value: unknown }[]
      return on?.date === undefined ? history[history.length - 1]!.value : [...history].reverse().find((h) => h.from <= on.date!)!.value
    },
    inForce: (e: TableEntry, date: string) => e.kind !== 'parameter' || e.history.some((h) => h.from <= date),
  } as unknown as Runtime
  return compileExpression(text, resolver).run(rt)
}

/** A value as comparable text: decimals as their digits, lists and records as JSON of those. */
export function show(v: Value): string {
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof Dec ? x.toString() : x))
}

export const dec = (s: string) => new Dec(s)
