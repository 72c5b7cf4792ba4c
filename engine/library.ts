/**
 * @module TEMPORARY bridge: the function library's declarations as the type checker reads them,
 * made from the compiler's own table until the library moves to engine/functions/.
 */
import { FUNCTIONS } from './expression.js'
import type { FunctionSpec } from './functions/spec.js'

export function libraryFunction(name: string): FunctionSpec | undefined {
  if (!Object.hasOwn(FUNCTIONS, name)) return undefined
  const f = FUNCTIONS[name]!
  const args = Array.from({ length: Math.max(f.min, 1) }, (_, i) => (i === 0 && f.table ? { table: f.table } : 'any')) as FunctionSpec['args']
  const spec: FunctionSpec = { doc: '', args, required: f.min, returns: 'any', impl: () => null }
  if (f.max > args.length) spec.rest = 'any'
  return spec
}
