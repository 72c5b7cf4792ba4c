/**
 * @module What a rule set may reach: the rule sets it calls (templates expanded), and the first date
 * on which every dated table they read has a value, the earliest calculation date they can answer.
 */
import type { RuleSet } from '../model/rule-set.js'
import type { TableEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'

/** The value of a rule set's input where it is known (a request's), else undefined. */
export type KnownInputs = (name: string) => Value | undefined

/**
 * Every rule set `rs` may reach, itself included. A templated target (`estate.state.{state}`) is
 * expanded against the ids that exist, unless `known` gives the inputs it is templated on: a call
 * in the rule set's root scope then reaches only the rule set this request names (or its fallback),
 * and hands on the inputs it passes unchanged (`pass: [state]`), so its callee's templates resolve too.
 */
export function reachable(rs: RuleSet, ruleSets: Map<string, RuleSet>, known?: KnownInputs, seen = new Set<RuleSet>()): Set<RuleSet> {
  if (seen.has(rs)) return seen
  seen.add(rs)
  for (const call of rs.calls) {
    const atRoot = known !== undefined && rs.root.formulas.get(call.name) === call
    const names = [...call.target.matchAll(/\{([a-z0-9_]+)\}/g)].map((m) => m[1]!)
    const values = names.map((n) => (atRoot ? known(n) : undefined))
    const callees: RuleSet[] = []
    if (values.every((v) => typeof v === 'string')) {
      const target = names.reduce((t, n, i) => t.replace(`{${n}}`, (values[i] as string).toLowerCase()), call.target)
      const callee = ruleSets.get(target) ?? (call.fallback ? ruleSets.get(call.fallback) : undefined)
      if (callee) callees.push(callee)
    } else {
      const pattern = new RegExp('^' + call.target.replace(/\./g, '\\.').replace(/\{[a-z0-9_]+\}/g, '[a-z0-9_]+') + '$')
      for (const [id, other] of ruleSets) if (pattern.test(id)) callees.push(other)
      const fb = call.fallback ? ruleSets.get(call.fallback) : undefined
      if (fb) callees.push(fb)
    }
    // The callee's inputs given as one of this rule set's inputs, unchanged, are known to it as well.
    const handed: KnownInputs | undefined = atRoot
      ? (name) => {
          const e = call.input.get(name)
          const source = e && e.tables.size === 0 && e.deps.size === 1 ? [...e.deps][0]! : undefined
          return source !== undefined && e!.text?.trim() === source && Object.hasOwn(rs.inputs, source) ? known(source) : undefined
        }
      : undefined
    for (const callee of callees) reachable(callee, ruleSets, handed, seen)
  }
  return seen
}

/**
 * The first date on which every dated table (parameter, schedule, lookup) of these rule sets has a
 * value, and the table whose first value comes last; undefined when they read none. A calculation
 * date on or after it finds every one of them in force. Series and data sets are keyed otherwise
 * (a month, a row's own date): a rule set checks those itself.
 */
export function earliestCommonDate(ruleSets: Iterable<RuleSet>): { date: string; entry: TableEntry } | undefined {
  let found: { date: string; entry: TableEntry } | undefined
  for (const rs of ruleSets) {
    for (const entry of rs.tables) {
      if (entry.kind === 'series' || entry.kind === 'dataset') continue
      const first = entry.history[0]?.from
      if (first !== undefined && (!found || first > found.date)) found = { date: first, entry }
    }
  }
  return found
}

/**
 * The data date of an answer that read no table (an ADA toilet room whose figures come from the
 * rules alone): the newest as-of date of every table the rule set and those it may call name, or,
 * for a rule set that names none, of every table loaded. Fixed at load, so no clock is read and the
 * same request answers the same bytes. @api private
 */
export function fallbackDataDate(rs: RuleSet, ruleSets: Map<string, RuleSet>, allTables: Iterable<TableEntry>): string {
  let newest = ''
  for (const other of reachable(rs, ruleSets)) for (const entry of other.tables) if (entry.as_of > newest) newest = entry.as_of
  if (newest) return newest
  for (const entry of allTables) if (entry.as_of > newest) newest = entry.as_of
  return newest
}
