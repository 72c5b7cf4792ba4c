/**
 * @module The one place where decimal.js precision and rounding are pinned.
 *
 * Every amount, rate and intermediate value in the engine is a `Dec` built here. Forty significant
 * digits hold any dollar figure to far below a cent, and half-up is the rounding a tax form means by
 * "round"; an output that rounds otherwise declares it (see round.ts).
 */
import { Decimal as DecimalJs } from 'decimal.js'

export const Dec = DecimalJs.clone({
  precision: 40,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
})
export type Dec = DecimalJs

const EXACT = /^-?[0-9][0-9_]*(\.[0-9]+)?(\/[0-9][0-9_]*)?$/

/** True when `text` is an exact amount as the YAML files write it: "15_000_000", "0.16", "2/37". @api public */
export function isExactText(text: string): boolean {
  return EXACT.test(text)
}

/** Parse an exact amount written as a string; underscores group digits, "a/b" is a rational. @api public */
export function parseExact(text: string): Dec {
  const clean = text.replace(/_/g, '')
  const slash = clean.indexOf('/')
  if (slash < 0) return new Dec(clean)
  return new Dec(clean.slice(0, slash)).div(new Dec(clean.slice(slash + 1)))
}

/**
 * A JSON number as the decimal of its shortest text, exactly `new Dec(String(n))`, at a third of the
 * cost for the whole amounts requests mostly carry: decimal.js reads a number through that same text
 * (or, below ten million, straight from the integer), except that it keeps the sign of -0, which the
 * text drops. @api private
 */
export function fromNumber(n: number): Dec {
  return new Dec(n === 0 ? 0 : n)
}

/** Whether a runtime value is a decimal. @api public */
export function isDec(value: unknown): value is Dec {
  // Every clone of decimal.js (Dec, a wider one for guard digits) shares one prototype: comparing it
  // is what `instanceof` does, without the walk up the chain (half the cost; isDec is called on
  // nearly every value an expression reads).
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === DECIMAL_PROTOTYPE
}
const DECIMAL_PROTOTYPE: object = DecimalJs.prototype

/** 10^0 … 10^22: every power of ten a binary float holds exactly (parsed, since 10 ** n may be off). */
const EXACT_POWERS_OF_TEN = Array.from({ length: 23 }, (_, n) => Number(`1e${n}`))
const BASE = 1e7 // decimal.js keeps its digits in words of seven (its documented `d` property)

/**
 * A decimal as the JSON number it prints as: exactly `x.toNumber()`, without printing the decimal
 * to text and parsing it back, which cost a tenth of an evaluation with long result lists.
 *
 * When the digits, as a whole number, fit in 53 bits and the power of ten is at most 22 either way,
 * both factors are exact floats and one multiplication or division rounds once, to nearest: the
 * same float the parse of the text gives (Clinger's fast path, the one every correct strtod takes
 * first). Zero keeps its sign; anything else (NaN, infinities, more digits, a larger exponent) goes
 * through decimal.js. @api private
 */
export function toNumber(x: Dec): number {
  const { d, e, s } = x
  if (!d) return x.toNumber()
  if (d[0] === 0) return s < 0 ? -0 : 0
  let digits = d[0]!
  let count = String(digits).length
  for (let i = 1; i < d.length; i++) {
    digits = digits * BASE + d[i]!
    count += 7
    if (digits >= Number.MAX_SAFE_INTEGER) return x.toNumber()
  }
  // The value is digits × 10^power, `e` being the place of the first digit.
  let power = e - count + 1
  while (digits % 10 === 0) {
    digits /= 10
    power++
  }
  if (power > 22 || power < -22) return x.toNumber()
  const magnitude = power >= 0 ? digits * EXACT_POWERS_OF_TEN[power]! : digits / EXACT_POWERS_OF_TEN[-power]!
  return s < 0 ? -magnitude : magnitude
}

/**
 * `x.cmp(y)` for two decimals, without the copy of `y` that decimal.js makes on every comparison (a
 * schedule compares an amount with each bracket; every `<` and `min` compares): the same steps on
 * the documented `d`, `e` and `s`, so 1, 0, -1 as it answers them, and NaN where either is NaN. @api private
 */
export function compare(x: Dec, y: Dec): number {
  const xd = x.d
  const yd = y.d
  const xs = x.s
  const ys = y.s
  // NaN or ±Infinity.
  if (!xd || !yd) return !xs || !ys ? NaN : xs !== ys ? xs : xd === yd ? 0 : !xd !== xs < 0 ? 1 : -1
  // Zero.
  if (!xd[0] || !yd[0]) return xd[0] ? xs : yd[0] ? -ys : 0
  if (xs !== ys) return xs
  if (x.e !== y.e) return x.e > y.e !== xs < 0 ? 1 : -1
  const n = Math.min(xd.length, yd.length)
  for (let i = 0; i < n; i++) if (xd[i] !== yd[i]) return xd[i]! > yd[i]! !== xs < 0 ? 1 : -1
  return xd.length === yd.length ? 0 : xd.length > yd.length !== xs < 0 ? 1 : -1
}
