/**
 * @module A fractional power x^y as exp(y · ln x), with the logarithm of a base computed once for
 * every power of it a request takes (the value of shares at each vesting date at one growth rate).
 *
 * decimal.js computes the same exp(y · ln x) inside `pow`, but computes ln x again at every call,
 * and ln is the larger half of the cost. Working ten digits beyond the engine's precision and then
 * rounding once gives the correctly rounded result, as `pow` does, except where the ten extra digits
 * sit on a rounding tie (…4999999999 or …5000000000), or the exponent is so large that ten digits do
 * not cover its size: there `pow` itself answers, as it recomputes with more digits.
 *
 * The wide logarithm and exponential are computed in binary fixed point on native integers (BigInt,
 * 256 bits after the point, some 77 digits), not in decimal.js: its series divide at full length
 * and compare the sum as text at every term, so one wide exponential cost as much as a whole
 * bisection step of the 83(b) analysis. The fixed-point result is good to far more digits than the
 * wide precision keeps (an error below 10^-60 of the value against the 10^-50 of one rounding), so
 * rounded to the wide precision it is the correctly rounded value decimal.js gives, and the guard
 * digits above decide the final rounding exactly as before (test/engine/power.test.ts).
 */
import { Dec } from './decimal.js'

/** The digits worked beyond the engine's precision (decimal.js `pow` takes at least five, and retries ten more on a tie). */
const GUARD_DIGITS = 10
const Wide = Dec.clone({ precision: Dec.precision + GUARD_DIGITS })
/** Beyond this size of y · ln x the guard digits no longer cover the error exp() multiplies. */
const LARGEST_ARGUMENT = 1e6

/** ln x at the working precision, for `power` (x > 0). @api private */
export function wideLogarithm(x: Dec): Dec {
  return fixedLogarithm(x) ?? new Wide(x).ln()
}

/**
 * x^y for x > 0 and y not whole, given ln x from `wideLogarithm` (kept by the caller for its base),
 * equal to `x.pow(y)` digit for digit. @api private
 */
export function power(x: Dec, y: Dec, lnX: Dec): Dec {
  const argument = new Wide(y).times(lnX)
  if (Math.abs(argument.toNumber()) > LARGEST_ARGUMENT) return x.pow(y)
  const wide = fixedExponential(argument) ?? argument.exp()
  if (!wide.isFinite() || wide.isZero()) return x.pow(y)
  // The digits past the engine's precision: a tie there is one that ten more digits might break.
  const digits = wide.toSignificantDigits(Wide.precision, Dec.ROUND_DOWN).d
  const text = digits.map((w, i) => (i === 0 ? String(w) : String(w).padStart(7, '0'))).join('').padEnd(Wide.precision, '0')
  const beyond = text.slice(Dec.precision, Dec.precision + GUARD_DIGITS - 2)
  if (/^(49+|50+)$/.test(beyond)) return x.pow(y)
  return new Dec(wide.toSignificantDigits(Dec.precision, Dec.rounding))
}

/** Bits after the binary point of the fixed-point values: 2^-256 is about 10^-77. */
const BITS = 256n
const ONE = 1n << BITS
/** Decimal places a fixed-point result is written with before the wide rounding (10^-100: every digit the fixed point holds). */
const PLACES = 100n
const TEN_TO_PLACES = 10n ** PLACES
/**
 * The fixed point's range: |y · ln x| and |ln x| at most 40 (e^40 is some 2 × 10^17), so a value and
 * its reciprocal keep more than 60 significant digits in 256 bits; anything larger is decimal.js's.
 */
const FIXED_RANGE = 40
/** Closer to 1 than this, ln x is too small for the fixed point's absolute precision: decimal.js's. */
const NEAR_ONE = 1e-12

/** A decimal as round-down(|a| · 2^256), with its sign. */
function toFixed(a: Dec): { magnitude: bigint; negative: boolean } {
  const text = a.abs().toFixed()
  const point = text.indexOf('.')
  if (point < 0) return { magnitude: BigInt(text) << BITS, negative: a.isNegative() }
  const fraction = text.slice(point + 1)
  const magnitude = (BigInt(text.slice(0, point) + fraction) << BITS) / 10n ** BigInt(fraction.length)
  return { magnitude, negative: a.isNegative() }
}

/** A non-negative fixed-point value as a wide decimal, rounded once to the wide precision. */
function toWide(v: bigint, negative: boolean): Dec {
  const digits = ((v * TEN_TO_PLACES) >> BITS).toString().padStart(Number(PLACES) + 1, '0')
  const text = `${digits.slice(0, digits.length - Number(PLACES))}.${digits.slice(digits.length - Number(PLACES))}`
  return new Wide(negative ? `-${text}` : text).toSignificantDigits(Wide.precision, Wide.rounding)
}

/**
 * e^r for a fixed-point r ≥ 0 (at most FIXED_RANGE): r halved k times below 2^-12, the Taylor series
 * there (each term some 2^12 times smaller than the one before), squared k times back. Each
 * operation truncates by at most 2^-256 and each squaring doubles the relative error: at most some
 * 2^-230 of the value, far below the 10^-50 of the wide rounding.
 */
function expFixed(r: bigint): bigint {
  const size = r.toString(2).length - Number(BITS)
  const k = Math.max(0, size + 12)
  const x = r >> BigInt(k)
  let term = ONE
  let sum = ONE
  for (let i = 1n; term > 0n; i++) {
    term = ((term * x) >> BITS) / i
    sum += term
  }
  for (let j = 0; j < k; j++) sum = (sum * sum) >> BITS
  return sum
}

/** e^a at the wide precision, or undefined outside the fixed point's range (decimal.js answers). */
function fixedExponential(a: Dec): Dec | undefined {
  if (!(Math.abs(a.toNumber()) <= FIXED_RANGE)) return undefined
  const { magnitude, negative } = toFixed(a)
  const e = expFixed(magnitude)
  // e^-a as the reciprocal, in fixed point: e ≥ 1, so the quotient loses no relative precision.
  return toWide(negative ? (ONE << BITS) / e : e, false)
}

/**
 * ln x at the wide precision by Newton's (Halley's) iteration on e^y = x, from the float logarithm:
 * y ← y + 2(x − e^y) / (x + e^y) triples the correct digits each time (16, 48, then past the fixed
 * point's own). Undefined outside the fixed point's range or next to 1 (decimal.js answers).
 */
function fixedLogarithm(x: Dec): Dec | undefined {
  const float = x.toNumber()
  const guess = Math.log(float)
  if (!(float > 0) || !(Math.abs(guess) <= FIXED_RANGE) || Math.abs(float - 1) < NEAR_ONE) return undefined
  // ln x = -ln(1/x): work above 1, where e^y ≥ 1 keeps its relative precision.
  const below = float < 1
  const fixed = toFixed(x).magnitude
  const target = below ? (ONE << BITS) / fixed : fixed
  let y = BigInt(Math.round(Math.abs(guess) * 2 ** 52)) << (BITS - 52n)
  const settled = 1n << (BITS - 100n)
  for (let i = 0; i < 6; i++) {
    const e = expFixed(y)
    const step = ((target - e) << (BITS + 1n)) / (target + e)
    y += step
    // Once a step is below 2^-100, the next would be below 2^-300: the fixed point's last bit.
    if ((step < 0n ? -step : step) < settled) return toWide(y, below)
  }
  return undefined
}
