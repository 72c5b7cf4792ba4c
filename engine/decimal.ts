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

/** Whether a runtime value is a decimal. @api public */
export function isDec(value: unknown): value is Dec {
  return value instanceof DecimalJs
}
