/**
 * @module Formulas given a value instead of computed: a golden case of one rule set tests one step
 * in isolation by giving the steps before it (PolicyEngine's tests that set an upstream variable).
 *
 * A given value is read as the type the load check worked out for its formula (check/rule-set-types.ts), so a
 * case cannot hand text to a formula that computes an amount; amounts are written as numbers or as
 * exact strings ("7_500_000", "2/37"), as the YAML files write them.
 */
import { Dec, fromNumber, isDec, isExactText, parseExact } from '../values/decimal.js'
import { EvaluationError } from '../errors.js'
import type { ValueType } from '../functions/spec.js'
import type { RuleSet } from '../model/rule-set.js'
import { typeName } from '../check/formula-types.js'
import type { Value } from '../model/types.js'

/**
 * Each given formula's value by its slot in the rule set's root scope. A name that is no formula of
 * the rule set, or a value not of its formula's type, is an error naming both. @api private
 */
export function givenSlots(rs: RuleSet, given: Record<string, unknown>): Map<number, Value> {
  const out = new Map<number, Value>()
  for (const [name, raw] of Object.entries(given)) {
    if (Object.hasOwn(rs.inputs, name)) throw new EvaluationError(`${rs.id}: '${name}' is an input; it is given as an input, not in place of a formula`)
    const slot = rs.root.slots.get(name)
    if (slot === undefined || !rs.root.formulas.has(name)) throw new EvaluationError(`${rs.id} has no formula '${name}' to give a value to`)
    out.set(slot, read(rs.formulaTypes?.get(name) ?? 'any', raw, `${rs.id}: the value given to '${name}'`))
  }
  return out
}

/** A JSON (YAML) value as a formula value of type `type`; `what` names it in an error. */
function read(type: ValueType, raw: unknown, what: string): Value {
  // Null is every formula's "not applicable", as a formula may give it.
  if (raw === null || raw === undefined) return null
  const wrong = () => new EvaluationError(`${what} is ${JSON.stringify(raw)}, not ${typeName(type)}`)
  if (typeof type === 'object') {
    if ('list' in type) {
      if (!Array.isArray(raw)) throw wrong()
      return raw.map((item, i) => read(type.list, item, `${what}[${i}]`))
    }
    if (typeof raw !== 'object' || Array.isArray(raw)) throw wrong()
    const fields = type.record
    const out: Record<string, Value> = {}
    for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
      // An open record (a called rule set's answer read through a template) takes any fields.
      if (fields !== 'open' && !Object.hasOwn(fields, k)) throw new EvaluationError(`${what} has a field '${k}' that the formula does not give (it gives ${Object.keys(fields).join(', ')})`)
      out[k] = read(fields === 'open' ? 'any' : fields[k]!, v, `${what}.${k}`)
    }
    return out
  }
  switch (type) {
    case 'amount':
    case 'integer':
    case 'rate': {
      const n = amount(raw)
      if (!n || (type === 'integer' && !n.isInteger())) throw wrong()
      return n
    }
    case 'text':
    case 'date':
      if (typeof raw !== 'string' || (type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(raw))) throw wrong()
      return raw
    case 'boolean':
      if (typeof raw !== 'boolean') throw wrong()
      return raw
    case 'null':
      throw wrong()
    case 'any':
      // No type to read it by: a number is an amount, text stays text, lists and records item by item.
      if (typeof raw === 'number') return fromNumber(raw)
      if (typeof raw === 'string' || typeof raw === 'boolean' || isDec(raw)) return raw as Value
      if (Array.isArray(raw)) return raw.map((item, i) => read('any', item, `${what}[${i}]`))
      if (typeof raw === 'object') return read({ record: 'open' }, raw, what)
      throw wrong()
  }
}

/** A number, a decimal, or an exact amount written as text; otherwise undefined. */
function amount(raw: unknown): Dec | undefined {
  if (isDec(raw)) return raw
  if (typeof raw === 'number' && Number.isFinite(raw)) return fromNumber(raw)
  if (typeof raw === 'string' && isExactText(raw)) return parseExact(raw)
  return undefined
}
