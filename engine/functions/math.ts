/**
 * @module Mathematical functions on exact decimals (decimal.js computes each to the engine's pinned
 * precision). A value outside a function's domain (the logarithm of 0, the square root of −1, the
 * arcsine of 2) is an error, never NaN or an infinity carried into an answer.
 */
import { Dec } from '../values/decimal.js'
import type { Dec as Decimal } from '../values/decimal.js'
import type { CallContext, FunctionLibrary, FunctionSpec } from './spec.js'
import { amount, list } from './values.js'
import { power, wideLogarithm } from '../values/power.js'

/** The result, or an error when it is not a finite number. */
function finite(cx: CallContext, r: Decimal, name: string): Decimal {
  return r.isFinite() ? r : cx.fail(`${name}() has no finite value here`)
}

/**
 * Steps a function charges beyond its call: decimal.js computes roots, logarithms, exponentials and
 * angles by series iterated to 40 digits, each about as much CPU as 10 to 60 formula steps
 * (measured: a product 6 µs, sqrt 60 µs, ln or exp 140–160 µs, a fractional power 370 µs).
 */
const SERIES_STEPS = { sqrt: 8, series: 24, fractionalPower: 48 } as const

/** A function of one amount, with its domain, charging `steps` for each call. */
function unary(doc: string, name: string, f: (x: Decimal) => Decimal, domain?: (x: Decimal) => boolean, outside?: string, steps = 0): FunctionSpec {
  return {
    doc,
    args: ['number'],
    returns: 'amount',
    pure: true,
    impl: ([x], cx) => {
      const v = amount(cx, x!, `the argument of ${name}()`)
      if (domain && !domain(v)) return cx.fail(`${name}() of ${v.toString()}: ${outside}`)
      cx.work(steps)
      return finite(cx, f(v), name)
    },
  }
}

export const math: FunctionLibrary = {
  abs: unary('The absolute value.', 'abs', (x) => x.abs()),
  floor: unary('The greatest whole number not above x.', 'floor', (x) => x.floor()),
  ceil: unary('The least whole number not below x.', 'ceil', (x) => x.ceil()),
  sqrt: unary('The square root.', 'sqrt', (x) => x.sqrt(), (x) => x.gte(0), 'not defined below 0', SERIES_STEPS.sqrt),
  ln: unary('The natural logarithm.', 'ln', (x) => x.ln(), (x) => x.gt(0), 'defined only above 0', SERIES_STEPS.series),
  exp: unary('e to the power x.', 'exp', (x) => x.exp(), undefined, undefined, SERIES_STEPS.series),
  sin: unary('The sine of x radians.', 'sin', (x) => x.sin(), undefined, undefined, SERIES_STEPS.series),
  cos: unary('The cosine of x radians.', 'cos', (x) => x.cos(), undefined, undefined, SERIES_STEPS.series),
  asin: unary('The arcsine, in radians from −π/2 to π/2.', 'asin', (x) => x.asin(), (x) => x.abs().lte(1), 'defined only from −1 to 1', SERIES_STEPS.series),
  atan2: {
    doc: 'The angle in radians from the x axis to the point (x, y), from −π to π: atan2(y, x) (great-circle distances between airports).',
    args: ['number', 'number'],
    returns: 'amount',
    pure: true,
    impl: ([y, x], cx) => {
      cx.work(SERIES_STEPS.series)
      return finite(cx, Dec.atan2(amount(cx, y!, 'y of atan2()'), amount(cx, x!, 'x of atan2()')), 'atan2')
    },
  },
  pow: {
    doc: 'x to the power y (a fractional y takes a root: the Table K adjustment, a discount factor).',
    args: ['number', 'number'],
    returns: 'amount',
    pure: true,
    impl: ([x, y], cx) => {
      const base = amount(cx, x!, 'the base of pow()')
      const exponent = amount(cx, y!, 'the exponent of pow()')
      // A whole exponent is repeated squaring (a product per bit); a fractional one is exp(y·ln x).
      if (exponent.isInteger()) {
        cx.work(Math.ceil(Math.log2(exponent.abs().toNumber() + 1)))
        return finite(cx, base.pow(exponent), 'pow')
      }
      // Charged in full even when kept, so the steps of a request do not depend on what it repeats.
      cx.work(SERIES_STEPS.fractionalPower)
      // The series costs some hundred multiplications at forty digits; a search asks for the same
      // factor again at each of its steps (a discount factor by date), so the request keeps it.
      if (!base.isPositive() || base.isZero()) return finite(cx, base.pow(exponent), 'pow')
      // ln of a base is kept too (a search values shares at several dates at each growth rate). Both
      // are computed in fixed point (values/power.ts), so even a base met once costs less this way
      // than through decimal.js pow.
      const keep = cx.rt.keep?.bind(cx.rt)
      if (!keep) return finite(cx, power(base, exponent, wideLogarithm(base)), 'pow')
      const b = base.toString()
      return keep(`pow ${b} ${exponent.toString()}`, () => finite(cx, power(base, exponent, keep(`ln ${b}`, () => wideLogarithm(base))), 'pow'))
    },
  },
  discounted_sum: {
    doc: 'The sum of a list of amounts due at the start of periods 0, 1, 2…, each discounted at a factor per period: the sum of amounts[i] × factor^i (an annuity\'s expected present value).',
    args: [{ list: 'number' }, 'number'],
    returns: 'amount',
    pure: true,
    // By Horner's rule from the last amount, one multiplication and one addition per amount: a
    // pow() per amount (some fifteen multiplications each) made an implied-rate search of an
    // annuity's 700 monthly payments cost a second.
    impl: ([l, f], cx) => {
      const amounts = list(cx, l!, 'the amounts of discounted_sum()')
      const factor = amount(cx, f!, 'the factor of discounted_sum()')
      cx.work(amounts.length)
      let total = new Dec(0)
      for (let i = amounts.length - 1; i >= 0; i--) total = total.times(factor).plus(amount(cx, amounts[i]!, 'an amount of discounted_sum()'))
      return finite(cx, total, 'discounted_sum')
    },
  },
}
