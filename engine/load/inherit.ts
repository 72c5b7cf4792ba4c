/**
 * @module A rule set's declarations taken from another: `inputs_like` (its inputs and calculation
 * date) and `outputs_like` (the shape of its result, merged with what the rule set writes itself).
 *
 * Outputs merge field by field: a mapping of outputs merges with the other's mapping, a leaf (an
 * expression, `{formula, round}`, `{when, then}`) replaces the other's, and a field written as null
 * removes it. The merged fields keep the other's order, each field only this rule set writes
 * standing after the field it follows here, so a state that adds three lines to the common shape
 * reads, and answers, in the order it writes them.
 */

type Raw = Record<string, unknown>

const isMapping = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A mapping of outputs, not a leaf: leaves are expressions or carry `formula` or `when`. */
function isOutputs(v: unknown): v is Raw {
  return isMapping(v) && !('formula' in v) && !('when' in v)
}

/** `own` written over `base`. @api private */
export function mergeOutputs(base: Raw, own: Raw): Raw {
  const keys = Object.keys(base)
  let anchor = -1
  for (const key of Object.keys(own)) {
    const at = keys.indexOf(key)
    if (at >= 0) anchor = at
    else keys.splice(++anchor, 0, key)
  }
  const out: Raw = {}
  for (const key of keys) {
    const mine = Object.hasOwn(own, key) ? own[key] : undefined
    const theirs = Object.hasOwn(base, key) ? base[key] : undefined
    if (Object.hasOwn(own, key) && mine === null) continue
    if (mine === undefined) out[key] = theirs
    else if (isOutputs(mine) && isOutputs(theirs)) out[key] = mergeOutputs(theirs, mine)
    else out[key] = mine
  }
  return out
}
