/**
 * @module Money as a note prints it, in the currency its endpoint declares (rules/service.yaml
 * `currencies`): the symbol, the whole units grouped by thousands, and the minor units only when
 * there are any ($1,234,567 and $1,234,567.50).
 */
import type { Dec } from './decimal.js'

/** A currency as rules/service.yaml declares it. */
export interface Currency {
  /** ISO 4217 code: USD, AUD, CAD. */
  code: string
  /** How answers and documents name it: "US dollars". */
  name: string
  /** What a note prints before an amount: "$", "A$". */
  symbol: string
  /** Digits after the point when an amount has a fraction: 2 for cents. */
  minor_units: number
}

/** An amount as money: `-$1,234.50`. @api public */
export function formatMoney(v: Dec, currency: Currency): string {
  const fixed = v.abs().toFixed(v.isInteger() ? 0 : currency.minor_units)
  const [int, frac] = fixed.split('.')
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${v.isNeg() ? '-' : ''}${currency.symbol}${grouped}${frac ? `.${frac}` : ''}`
}
