/**
 * @module Rounding as each output declares it: to the cent, down to the dollar, and so on.
 *
 * Nothing is rounded implicitly. A rule file names its roundings once (`roundings:`) and each
 * formula or output that rounds refers to one by name.
 */
import { Decimal as DecimalJs } from 'decimal.js'
import { Dec, parseExact } from './decimal.js'

export type RoundingMode = 'half_up' | 'half_even' | 'down' | 'up'

export interface Rounding {
  step: Dec
  mode: RoundingMode
  /** When the step is 1, 0.1, 0.01…: how many decimal places it keeps. */
  places?: number
}

const MODE: Record<RoundingMode, DecimalJs.Rounding> = {
  half_up: DecimalJs.ROUND_HALF_UP,
  half_even: DecimalJs.ROUND_HALF_EVEN,
  // "down" and "up" are toward zero and away from zero, as a statute's "drop the cents" means.
  down: DecimalJs.ROUND_DOWN,
  up: DecimalJs.ROUND_UP,
}

/** A rounding as a rule file declares it: `{ step: "0.01", mode: half_up }`. @api private */
export function rounding(step: string, mode: RoundingMode): Rounding {
  const exact = parseExact(step)
  const places = exact.decimalPlaces()
  return exact.eq(new Dec(10).pow(-places)) ? { step: exact, mode, places } : { step: exact, mode }
}

/**
 * Digits a decimal may have for rounding to decimal places to be the same as dividing by the step,
 * rounding to a whole number and multiplying back: five words of seven, well inside the 40-digit
 * precision, so neither the division nor the multiplication by a power of ten rounds.
 */
const SHIFT_EXACT_WORDS = 5

/** Round to a multiple of `rule.step` ("0.01", "1", "10000"). @api public */
export function round(value: Dec, rule: Rounding): Dec {
  // To a power of ten at or below 1 the division and multiplication only move the point: round in
  // place, one decimal.js operation instead of three (the same digits, rounded by the same mode).
  if (rule.places !== undefined && value.d && value.d.length <= SHIFT_EXACT_WORDS) return value.toDecimalPlaces(rule.places, MODE[rule.mode])
  return value.div(rule.step).toDecimalPlaces(0, MODE[rule.mode]).times(rule.step)
}
