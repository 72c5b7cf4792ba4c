/**
 * @module Condition trees of decisions, compiled at load to synchronous tests.
 *
 * An analyst writes a decision rule's condition as a formula (`when:`); condition-tree.ts turns it
 * into a json-rules-engine condition tree, and this file compiles that tree to a plain closure.
 * Running the tree through json-rules-engine costs tens of microseconds a run (measured: 17 µs for
 * New York's three-rule decision; promises per condition, a deep clone of the conditions for each
 * result, an event emitter, a fact cache keyed by hashing), and a request pays it once per decision
 * of every rule set it reaches: a QTIP search reaches hundreds. Compiled here, the same tree costs
 * well under a microsecond and needs no promise. No json-rules-engine Engine runs in production:
 * decisions.ts builds one only when a test asks for it, as the reference these closures are held to.
 *
 * The semantics are json-rules-engine 7's, including the corners:
 * - `all` and `any` of no conditions are both true; `not` holds one condition;
 * - the conditions of an `all` or `any` are grouped by priority (a condition's own `priority`, else
 *   1) and run highest group first; every condition of a group is evaluated (the engine runs a group
 *   with Promise.all, so an operator that throws there is an error even when a sibling already
 *   decided the group), and a group that decides the result stops the later ones;
 * - a condition's `value` may be `{ fact: name }`, read like the left-hand side;
 * - `contains` and `doesNotContain` are false unless the fact is a list; `in`, `notIn` call the
 *   value's indexOf as the engine does; `equal`, `notEqual` compare with === and !==;
 * - the decimal operators compare exact decimals, or two ISO dates in date order (and `eq`, `neq`
 *   a null as a formula's `==` does), and throw on anything else.
 * What the engine offers beyond that (named shared conditions, `path` into a fact) condition-tree.ts
 * never writes; a tree given here with it is refused rather than run differently.
 */
import { Dec, compare, isDec, isExactText, parseExact } from '../values/decimal.js'
import { EvaluationError } from '../errors.js'
import { isDate } from '../functions/values.js'
import type { Value } from '../model/types.js'

/** The values of the facts a condition tree reads, by the name the condition gives them. */
export type Facts = Readonly<Record<string, Value>>

/** A compiled condition: whether it holds for these facts. */
export type Test = (facts: Facts) => boolean

type Compare = (a: unknown, b: unknown) => boolean

/** As decimal.js's lt, lte, gt, gte and eq answer from cmp (NaN compares false, so neq is true). */
const ORDER: Record<string, (c: number) => boolean> = {
  lt: (c) => c < 0,
  lte: (c) => c < 1,
  gt: (c) => c > 0,
  gte: (c) => c >= 0,
  eq: (c) => c === 0,
  neq: (c) => c !== 0,
}

const DECIMAL_COMPARISONS: Record<string, (a: Dec, b: Dec) => boolean> = Object.fromEntries(
  Object.entries(ORDER).map(([name, holds]) => [name, (a: Dec, b: Dec) => holds(compare(a, b))]),
)

/** An amount as a condition may give it: a decimal, exact text ("0.16", "15_000_000") or a number. */
export function toDec(v: unknown): Dec | undefined {
  if (isDec(v)) return v
  if (typeof v === 'string' && isExactText(v)) return parseExact(v)
  if (typeof v === 'number' && Number.isFinite(v)) return new Dec(String(v))
  return undefined
}

/** A decimal operator as json-rules-engine's addOperator takes it (decisions.ts registers these). */
export function decimalOperator(name: string): Compare {
  const holds = DECIMAL_COMPARISONS[name]!
  const ordered = ORDER[name]!
  const equality = name === 'eq' || name === 'neq'
  return (a, b) => {
    // Two ISO dates compare in date order, as a formula's `<` compares them (YYYY-MM-DD sorts as text).
    if (typeof a === 'string' && typeof b === 'string' && isDate(a) && isDate(b)) return ordered(a < b ? -1 : a > b ? 1 : 0)
    // A figure that does not apply (null) equals nothing but null, as a formula's `==` answers.
    if (equality && (a === null || b === null)) return ordered(a === b ? 0 : 1)
    const x = toDec(a)
    const y = toDec(b)
    if (!x || !y) throw new EvaluationError(`operator ${name} compares amounts, got ${String(a)} and ${String(b)}`)
    return holds(x, y)
  }
}

export const DECIMAL_OPERATORS = Object.keys(DECIMAL_COMPARISONS)

interface Listish {
  indexOf(x: unknown): number
}

/** json-rules-engine's own operators that stay available (text and list comparisons), as it defines them. */
const BUILTINS: Record<string, Compare> = {
  equal: (a, b) => a === b,
  notEqual: (a, b) => a !== b,
  in: (a, b) => (b as Listish).indexOf(a) > -1,
  notIn: (a, b) => (b as Listish).indexOf(a) === -1,
  contains: (a, b) => Array.isArray(a) && a.indexOf(b) > -1,
  doesNotContain: (a, b) => Array.isArray(a) && a.indexOf(b) === -1,
}

export const OPERATORS = [...DECIMAL_OPERATORS, ...Object.keys(BUILTINS)]

type Raw = Record<string, unknown>

const has = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key)

function fact(name: string): (facts: Facts) => Value {
  return (facts) => {
    if (!has(facts, name)) throw new EvaluationError(`Undefined fact: ${name}`)
    return facts[name] as Value
  }
}

/** Compile a rule's `conditions`; throws an Error naming what json-rules-engine would do otherwise. */
export function compileConditions(conditions: unknown): Test {
  const root = conditions as Raw
  if (!root || typeof root !== 'object' || !['all', 'any', 'not'].some((k) => has(root, k))) {
    throw new Error('"conditions" root must contain a single instance of "all", "any" or "not"')
  }
  return compile(root)
}

function compile(c: Raw): Test {
  if (!c || typeof c !== 'object' || Array.isArray(c)) throw new Error('a condition is a mapping')
  if (has(c, 'condition')) throw new Error(`named conditions (condition: ${String(c.condition)}) are not supported; write the condition out`)
  // The engine's order: `any` before `all` before `not`.
  if (has(c, 'any')) return group(c.any, 'any')
  if (has(c, 'all')) return group(c.all, 'all')
  if (has(c, 'not')) {
    if (Array.isArray(c.not)) throw new Error('"not" cannot be an array')
    const inner = compile(c.not as Raw)
    return (facts) => !inner(facts)
  }
  return leaf(c)
}

function group(raw: unknown, op: 'all' | 'any'): Test {
  if (!Array.isArray(raw)) throw new Error(`"${op}" must be an array`)
  const conditions = raw as Raw[]
  if (conditions.length === 0) return () => true
  if (conditions.length === 1) return compile(conditions[0]!)
  const sets = prioritized(conditions).map((set) => set.map(compile))
  const decides = op === 'any'
  return (facts) => {
    for (const set of sets) {
      // Every condition of the set runs (an error in any is an error), as under Promise.all.
      let decided = false
      for (const test of set) if ((test(facts) === true) === decides) decided = true
      if (decided) return decides
    }
    return !decides
  }
}

/** Conditions grouped by priority, highest first; without a priority of its own a condition has 1. */
function prioritized(conditions: Raw[]): Raw[][] {
  const sets = new Map<number, Raw[]>()
  for (const c of conditions) {
    const priority = parseInt(String(c.priority), 10) || 1
    const set = sets.get(priority) ?? []
    set.push(c)
    sets.set(priority, set)
  }
  return [...sets.entries()].sort((a, b) => b[0] - a[0]).map(([, set]) => set)
}

function leaf(c: Raw): Test {
  for (const key of ['fact', 'operator', 'value']) if (!has(c, key)) throw new Error(`Condition: constructor "${key}" property required`)
  const left = fact(factName(c))
  const operator = String(c.operator)
  const value = c.value
  const reference = value !== null && typeof value === 'object' && has(value, 'fact') ? fact(factName(value as Raw)) : undefined
  const right = reference ?? (() => value)

  const builtin = BUILTINS[operator]
  if (builtin) return (facts) => builtin(left(facts), right(facts))
  const holds = DECIMAL_COMPARISONS[operator]
  if (!holds) {
    // compiler.ts reports the unknown operator at load; the engine would fail here when run.
    return () => {
      throw new EvaluationError(`Unknown operator: ${operator}`)
    }
  }
  const operate = decimalOperator(operator)
  // A written amount is parsed once, here, not on every evaluation.
  const written = reference ? undefined : toDec(value)
  if (written) {
    return (facts) => {
      const a = left(facts)
      return isDec(a) ? holds(a, written) : operate(a, value)
    }
  }
  return (facts) => operate(left(facts), right(facts))
}

/** The fact a condition (or its `{ fact }` value) reads: a name or an expression, never a path into one. */
function factName(c: Raw): string {
  if (has(c, 'path')) throw new Error(`a path into a fact (path: ${String(c.path)}) is not supported; read the field in the fact's expression`)
  if (typeof c.fact !== 'string') throw new Error(`a condition's fact is a name or an expression, got ${JSON.stringify(c.fact)}`)
  return c.fact
}
