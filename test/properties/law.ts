/**
 * @module Figures the invariants compare against, read from the loaded tables (never written into
 * a test): each rule set's top rate, a jurisdiction's break points, a parameter on a date.
 */
import { Dec } from '../../engine/values/decimal.js'
import { at, marginalTax, type TableEntry } from '../../engine/data/tables.js'
import { catalog } from '../helpers.js'

export function table(id: string): TableEntry {
  const t = catalog().tables.get(id)
  if (!t) throw new Error(`no table ${id}`)
  return t
}

/** A dated parameter's value in force on `date`. */
export function parameter(id: string, date: string): Dec {
  const t = table(id)
  if (t.kind !== 'parameter') throw new Error(`${id} is a ${t.kind}`)
  const v = at(t.history, date)
  if (!v) throw new Error(`${id} has no value on ${date}`)
  return v.value as Dec
}

/** Tax under a marginal-rate schedule in force on `date`. */
export function scheduleTax(id: string, amount: Dec | number | string, date: string): Dec {
  const t = table(id)
  if (t.kind !== 'marginal_rate_schedule') throw new Error(`${id} is a ${t.kind}`)
  return marginalTax(at(t.history, date)!.value, new Dec(amount))
}

const isRate = (t: TableEntry) => /rate/.test(t.name)

/**
 * The highest rate any table of this rule set can apply, at any date: every bracket of its rate
 * schedules, every rate parameter, every rate column of its lookups. An upper bound on its tax per
 * dollar of base.
 */
export function topRate(ruleSetId: string): number {
  const rs = catalog().ruleSets.get(ruleSetId)
  if (!rs) throw new Error(`no rule set ${ruleSetId}`)
  let top = new Dec(0)
  for (const t of rs.tables) {
    if (t.kind === 'marginal_rate_schedule') for (const d of t.history) for (const b of d.value) top = Dec.max(top, b.rate)
    if (t.kind === 'parameter' && isRate(t) && t.unit === '/1') for (const d of t.history) top = Dec.max(top, d.value as Dec)
    if (t.kind === 'lookup') for (const d of t.history) for (const row of d.value.values()) if (row.rate instanceof Dec) top = Dec.max(top, row.rate)
  }
  return top.toNumber()
}

/**
 * Amounts where a state's tax changes course: its dollar parameters (exclusions, thresholds, caps),
 * each also scaled by its fraction parameters that are not rates (New York's 105% cliff), and its
 * bracket floors.
 */
export function breakPoints(ruleSetId: string): number[] {
  const rs = catalog().ruleSets.get(ruleSetId)
  if (!rs) return []
  const amounts: Dec[] = []
  const fractions: Dec[] = []
  for (const t of rs.tables) {
    if (t.kind === 'parameter' && t.unit === 'currency-USD') for (const d of t.history) amounts.push(d.value as Dec)
    if (t.kind === 'parameter' && t.unit === '/1' && !isRate(t)) for (const d of t.history) fractions.push(d.value as Dec)
    if (t.kind === 'marginal_rate_schedule') for (const d of t.history) for (const b of d.value) amounts.push(b.over)
  }
  const all = [...amounts, ...amounts.flatMap((a) => fractions.map((f) => a.times(f.plus(1))))]
  return [...new Set(all.map((d) => d.toNumber()))].filter((n) => n > 0).sort((a, b) => a - b)
}

/** The row of a state in estate.state.jurisdictions. */
export function jurisdiction(state: string, date: string): { estate_tax: boolean; inheritance_tax: boolean; state_portability: boolean } {
  const t = table('estate.state.jurisdictions')
  if (t.kind !== 'lookup') throw new Error('jurisdictions is not a lookup')
  const row = at(t.history, date)!.value.get(state)
  if (!row) throw new Error(`no jurisdiction ${state}`)
  return row as unknown as { estate_tax: boolean; inheritance_tax: boolean; state_portability: boolean }
}

/** Whether a state has a rule set of its own (otherwise it answers "no tax"). */
export function stateRuleSet(state: string): string | undefined {
  const id = `estate.state.${state.toLowerCase()}`
  return catalog().ruleSets.has(id) ? id : undefined
}

/** Half-up to the cent, as the service rounds money. */
export function cents(v: Dec | number | string): number {
  return new Dec(v).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toNumber()
}

/**
 * Whether `tax` is at most `base` × `rate`, plus half a cent for rounding (more where given), in
 * exact decimals: 0.15 × 1081456.9 is 162218.535, which binary floating point makes 162218.53499….
 */
export function withinRate(tax: number, base: number, rate: number, slack = 0.005): boolean {
  return new Dec(tax).lte(new Dec(base).times(new Dec(String(rate))).plus(slack))
}

/** Above this many dollars a JSON number (a double) cannot hold every cent. */
export const CENT_EXACT_LIMIT = Number.MAX_SAFE_INTEGER / 100

/**
 * Whether an amount read from an answer is `expected` (a Decimal computed by the test): to the cent
 * while the figures involved stay below CENT_EXACT_LIMIT; beyond it (a schedule can grow a balance to
 * 1e22), to within a few doubles' precision of `scale`, the largest figure the amount was computed
 * from, since the answer's own inputs to the test's arithmetic were already rounded to doubles.
 */
export function sameMoney(actual: number, expected: Dec | number, scale: Dec | number = expected): boolean {
  const e = new Dec(expected).toNumber()
  const magnitude = Math.max(Math.abs(e), Math.abs(new Dec(scale).toNumber()))
  if (magnitude < CENT_EXACT_LIMIT) return actual === e
  return Math.abs(actual - e) <= magnitude * 4 * Number.EPSILON
}
