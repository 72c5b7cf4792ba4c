/**
 * @module The function library: every function a formula may call, by name, from the families of
 * this folder. A name is looked up as the registry's own key only (`constructor` is no function).
 */
import { data } from './data.js'
import { dates } from './dates.js'
import { families } from './families.js'
import { lists } from './lists.js'
import { matching } from './matching.js'
import { math } from './math.js'
import type { FunctionLibrary, FunctionSpec } from './spec.js'
import { tables } from './tables.js'
import { texts } from './text.js'

export const FAMILIES: Record<string, FunctionLibrary> = { tables, families, data, lists, dates, math, text: texts, matching }

const REGISTRY = new Map<string, FunctionSpec>()
for (const [family, library] of Object.entries(FAMILIES)) {
  for (const [name, spec] of Object.entries(library)) {
    // Two families defining one name is a defect of the library, found when it is first imported.
    if (REGISTRY.has(name)) throw new Error(`function ${name}() is defined twice (again in ${family})`)
    REGISTRY.set(name, spec)
  }
}

/** The library function of this name, if there is one. @api public */
export function libraryFunction(name: string): FunctionSpec | undefined {
  return REGISTRY.get(name)
}

/** Every function name, sorted: what an unknown-function message lists. */
export function functionNames(): string[] {
  return [...REGISTRY.keys()].sort()
}
