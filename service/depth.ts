/**
 * @module The nesting depth a request body may have. A body nested thousands of levels deep (6.5 KB
 * of brackets) overflowed the stack of the structured clone that posts a request to the evaluation
 * pool, a 500; every recursive walk (ajv, the engine) has the same edge. No request of the service
 * nests more than a few levels, so a deeper body is refused at parse, before anything is validated
 * or copied.
 */

/** The deepest nesting of objects and arrays a request body may have (the body itself is level 1). */
export const MAX_DEPTH = 64

/**
 * Whether `value` nests objects and arrays more than `max` levels deep. Iterative, so that the
 * check itself cannot overflow the stack, and it stops at the first container too deep.
 * @api public
 */
export function deeperThan(value: unknown, max: number = MAX_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }]
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!
    if (v === null || typeof v !== 'object') continue
    if (depth > max) return true
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)
    for (const child of children) if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 })
  }
  return false
}
