/**
 * @module The run-time guards the library's implementations share. The load check has typed every
 * argument it can; these catch what it cannot know (a field of a called rule set's result, a row of
 * a data set) and fail with a message that names the function and what it was given.
 */
import { isDec, type Dec } from '../values/decimal.js'
import type { Value } from '../model/types.js'
import type { CallContext, Lambda, ValueType } from './spec.js'

/** A value as a message names it. @api public */
export function describe(v: Value | Lambda): string {
  if (v === null) return 'null'
  if (typeof v === 'function') return 'a function'
  if (isDec(v)) return `amount ${v.toString()}`
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a record'
  return `${typeof v} ${JSON.stringify(v)}`
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

export function isDate(v: Value | Lambda): v is string {
  return typeof v === 'string' && ISO_DATE.test(v)
}

export function amount(cx: CallContext, v: Value | Lambda, what: string): Dec {
  if (isDec(v)) return v
  return cx.fail(`${what} must be an amount, got ${describe(v)}`)
}

/** The largest whole number a count may be (a month count, a list index): far beyond any real one. */
const MAX_COUNT = 1_000_000

/** A whole number small enough to count with (a month count, a list index). */
export function integer(cx: CallContext, v: Value | Lambda, what: string): number {
  const d = amount(cx, v, what)
  // As a number first: every whole number up to MAX_COUNT is exact in a double, so the comparison
  // needs no decimal built for it.
  const n = d.toNumber()
  if (!d.isInteger() || !(Math.abs(n) <= MAX_COUNT)) return cx.fail(`${what} must be a whole number, got ${d.toString()}`)
  return n
}

export function text(cx: CallContext, v: Value | Lambda, what: string): string {
  if (typeof v === 'string') return v
  return cx.fail(`${what} must be text, got ${describe(v)}`)
}

export function date(cx: CallContext, v: Value | Lambda, what: string): string {
  if (isDate(v)) return v
  return cx.fail(`${what} must be a date (YYYY-MM-DD), got ${describe(v)}`)
}

export function bool(cx: CallContext, v: Value | Lambda, what: string): boolean {
  if (typeof v === 'boolean') return v
  return cx.fail(`${what} must be true or false, got ${describe(v)}`)
}

export function list(cx: CallContext, v: Value | Lambda, what: string): Value[] {
  if (Array.isArray(v)) return v
  return cx.fail(`${what} must be a list, got ${describe(v)}`)
}

export function lambda(cx: CallContext, v: Value | Lambda, what: string): Lambda {
  if (typeof v === 'function') return v
  return cx.fail(`${what} must be a function, got ${describe(v)}`)
}

/** The amounts of the arguments, a list argument counting as its items (min, max, sum). */
export function amountsOf(cx: CallContext, args: (Value | Lambda)[], name: string): Dec[] {
  const out: Dec[] = []
  for (const v of args) {
    if (Array.isArray(v)) for (const item of v) out.push(isDec(item) ? item : amount(cx, item, `an item of ${name}()`))
    else out.push(isDec(v) ? v : amount(cx, v, `an argument of ${name}()`))
  }
  return out
}

/** The item type of a list type, for `returns` and lambda parameters. */
export function itemOf(t: ValueType | undefined): ValueType {
  return typeof t === 'object' && 'list' in t ? t.list : 'any'
}

/**
 * Whether two values are equal: amounts by value, text and true/false as they are, null only to
 * null; undefined when they cannot be compared (an amount with text), which the caller reports.
 */
export function sameValue(a: Value, b: Value): boolean | undefined {
  if (isDec(a) && isDec(b)) return a.eq(b)
  if (a === null || b === null) return a === b
  if (typeof a !== typeof b || isDec(a) || isDec(b) || typeof a === 'object') return undefined
  return a === b
}

/**
 * What the library charges against the request's step budget (CallContext.work), so that a step
 * stays about the same work whatever counts it: a formula computed or a lambda call is one; a pass
 * in native code (normalising, splitting, comparing texts) reads many characters a step.
 */
const CHARS_PER_STEP = 64

/** Charge a pass over `n` characters (a text normalised, split, joined or measured). @api private */
export function chargeChars(cx: CallContext, n: number): void {
  cx.work(Math.ceil(n / CHARS_PER_STEP))
}

/** Charge a pass over `n` items (an aggregate, a membership test, a flattening). @api private */
export function chargeItems(cx: CallContext, n: number): void {
  cx.work(n)
}

/** Charge a sort of `n` items: n·log₂ n comparisons. @api private */
export function chargeSort(cx: CallContext, n: number): void {
  if (n > 1) cx.work(Math.ceil(n * Math.log2(n)))
}
