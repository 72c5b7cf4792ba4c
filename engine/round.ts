/**
 * @module Rounding as each output declares it: to the cent, down to the dollar, and so on.
 *
 * Nothing is rounded implicitly. A rule file names its roundings once (`roundings:`) and each
 * formula or output that rounds refers to one by name.
 */
import { Decimal as DecimalJs } from 'decimal.js'
import type { Dec } from './decimal.js'

export type RoundingMode = 'half_up' | 'half_even' | 'down' | 'up'

export interface Rounding {
  step: Dec
  mode: RoundingMode
}

const MODE: Record<RoundingMode, DecimalJs.Rounding> = {
  half_up: DecimalJs.ROUND_HALF_UP,
  half_even: DecimalJs.ROUND_HALF_EVEN,
  // "down" and "up" are toward zero and away from zero, as a statute's "drop the cents" means.
  down: DecimalJs.ROUND_DOWN,
  up: DecimalJs.ROUND_UP,
}

/** Round to a multiple of `rule.step` ("0.01", "1", "10000"). @api public */
export function round(value: Dec, rule: Rounding): Dec {
  return value.div(rule.step).toDecimalPlaces(0, MODE[rule.mode]).times(rule.step)
}
