/**
 * @module A note's or a check message's text with the values it prints: `{x}` as written, `{$x}`
 * as money in the endpoint's currency.
 */
import { isDec } from '../values/decimal.js'
import { toJson } from '../values/convert.js'
import { formatMoney, type Currency } from '../values/money.js'
import type { CompiledExpression } from '../compile/expression.js'
import type { NoteDef } from '../model/rule-set.js'
import type { Runtime, Value } from '../model/types.js'

/**
 * A note's or a message's text with its values printed. `refuseNull`, when given, is called on a
 * placeholder whose value is null (a declared text holds it a defect, as concat() did).
 */
export function text(parts: NoteDef['parts'], scope: Runtime, currency: Currency, refuseNull?: (expr: CompiledExpression) => never): string {
  return parts
    .map((p) => {
      if (typeof p === 'string') return p
      const v = p.expr.run(scope)
      if (v === null && refuseNull) refuseNull(p.expr)
      return format(v, p.money ? currency : undefined)
    })
    .join('')
}

/** A value as a note shows it; an amount as money when a currency is given. */
function format(v: Value, money: Currency | undefined): string {
  if (isDec(v)) return money ? formatMoney(v, money) : v.toFixed()
  if (Array.isArray(v)) return v.map((item) => format(item, money)).join(', ')
  return typeof v === 'string' ? v : JSON.stringify(toJson(v))
}
