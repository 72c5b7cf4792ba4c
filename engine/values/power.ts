/**
 * @module A fractional power x^y as exp(y · ln x), with the logarithm of a base computed once for
 * every power of it a request takes (the value of shares at each vesting date at one growth rate).
 *
 * decimal.js computes the same exp(y · ln x) inside `pow`, but computes ln x again at every call,
 * and ln is the larger half of the cost. Working ten digits beyond the engine's precision and then
 * rounding once gives the correctly rounded result, as `pow` does, except where the ten extra digits
 * sit on a rounding tie (…4999999999 or …5000000000), or the exponent is so large that ten digits do
 * not cover its size: there `pow` itself answers, as it recomputes with more digits.
 */
import { Dec } from './decimal.js'

/** The digits worked beyond the engine's precision (decimal.js `pow` takes at least five, and retries ten more on a tie). */
const GUARD_DIGITS = 10
const Wide = Dec.clone({ precision: Dec.precision + GUARD_DIGITS })
/** Beyond this size of y · ln x the guard digits no longer cover the error exp() multiplies. */
const LARGEST_ARGUMENT = 1e6

/** ln x at the working precision, for `power` (x > 0). @api private */
export function wideLogarithm(x: Dec): Dec {
  return new Wide(x).ln()
}

/**
 * x^y for x > 0 and y not whole, given ln x from `wideLogarithm` (kept by the caller for its base),
 * equal to `x.pow(y)` digit for digit. @api private
 */
export function power(x: Dec, y: Dec, lnX: Dec): Dec {
  const argument = new Wide(y).times(lnX)
  if (Math.abs(argument.toNumber()) > LARGEST_ARGUMENT) return x.pow(y)
  const wide = argument.exp()
  if (!wide.isFinite() || wide.isZero()) return x.pow(y)
  // The digits past the engine's precision: a tie there is one that ten more digits might break.
  const digits = wide.toSignificantDigits(Wide.precision, Dec.ROUND_DOWN).d
  const text = digits.map((w, i) => (i === 0 ? String(w) : String(w).padStart(7, '0'))).join('').padEnd(Wide.precision, '0')
  const beyond = text.slice(Dec.precision, Dec.precision + GUARD_DIGITS - 2)
  if (/^(49+|50+)$/.test(beyond)) return x.pow(y)
  return new Dec(wide.toSignificantDigits(Dec.precision, Dec.rounding))
}
