/**
 * @module Values crossing the engine's edge: a request's JSON into formula values (numbers become
 * exact decimals), formula values back into JSON, and a call's inputs as the key of its memo.
 */
import { Dec, fromNumber, isDec, toNumber } from './decimal.js'
import { EvaluationError } from '../errors.js'
import type { InputSpec } from '../model/rule-set.js'
import type { Value } from '../model/types.js'

/**
 * A call's inputs as text that is equal exactly when the values are: amounts by value (1.0 and 1
 * are one amount), records by their fields in their declared order.
 */
export function callKey(v: Value): string {
  if (v === null) return 'null'
  if (isDec(v)) return v.toString()
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (Array.isArray(v)) return `[${v.map(callKey).join(',')}]`
  // A record input is built field by field in its declared order (toValues), so its order is fixed.
  let out = '{'
  for (const k in v) out += `${k}:${callKey(v[k]!)},`
  return out + '}'
}

/** Request JSON to formula values: numbers become exact decimals through their shortest text. @api private */
export function toValues(specs: Record<string, InputSpec>, raw: Record<string, unknown>): Record<string, Value> {
  const out: Record<string, Value> = {}
  for (const name of Object.keys(specs)) out[name] = toValue(specs[name]!, raw[name])
  return out
}

function toValue(spec: InputSpec, raw: unknown): Value {
  if (raw === undefined || raw === null) return spec.default !== undefined ? spec.default : spec.type === 'object' && spec.fields ? toValues(spec.fields, {}) : null
  switch (spec.type) {
    case 'amount':
    case 'integer':
      if (isDec(raw)) return raw
      if (typeof raw === 'number') return fromNumber(raw)
      if (typeof raw === 'string') return new Dec(raw)
      break
    case 'object':
      if (typeof raw === 'object' && !Array.isArray(raw)) return toValues(spec.fields ?? {}, raw as Record<string, unknown>)
      break
    case 'list':
      if (Array.isArray(raw)) return raw.map((item) => toValue(spec.items!, item))
      break
    default:
      return raw as Value
  }
  throw new EvaluationError(`input of type ${spec.type} cannot be ${JSON.stringify(raw)}`)
}

/** Formula values to JSON: decimals become numbers (money is rounded before it gets here). @api private */
export function toJson(v: Value | undefined): unknown {
  if (v === undefined || v === null || typeof v !== 'object') return v
  if (isDec(v)) return toNumber(v)
  if (Array.isArray(v)) return v.map(toJson)
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(v)) out[k] = toJson(v[k])
  return out
}
