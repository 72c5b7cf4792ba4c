/**
 * @module A rule set's own functions (`functions:`), compiled to the library's declaration so that
 * formulas call them like any other.
 */
import { LambdaScope, type NameResolver } from './expression.js'
import { libraryFunction } from '../functions/index.js'
import type { FunctionSpec, ValueType } from '../functions/spec.js'
import { checkTypes } from '../check/formula-types.js'
import type { TableEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { InputType } from '../model/rule-set.js'
import { compileAt, type Compiler } from './compiler.js'

export interface RawFunction {
  params: Record<string, InputType>
  formula: string
  label?: string
  description?: string
  reference?: unknown
}

/**
 * A rule set's own functions (`functions: { applicable_age_year: { params: { born: date }, formula } }`):
 * each body sees its parameters, the tables and the functions declared before it, and nothing of
 * the rule set's inputs or formulas, so a call's value depends on its arguments alone.
 */
export function compileFunctions(c: Compiler, raw: Record<string, RawFunction>, tables: (name: string) => TableEntry | undefined): Map<string, FunctionSpec> {
  const functions = new Map<string, FunctionSpec>()
  for (const [name, f] of Object.entries(raw)) {
    const path = ['functions', name]
    if (libraryFunction(name)) c.problems.push(c.source.problem(path, `'${name}' is already a function of the library`))
    const params = Object.keys(f.params)
    const resolver: NameResolver = { hasValue: (n) => params.includes(n), table: tables, fn: (n) => functions.get(n) }
    const body = compileAt(c, f.formula, [...path, 'formula'], resolver)
    if (!body) continue
    // A `list` parameter takes a list of any items (the matches of match_all, amounts by year): the
    // body names a value it would otherwise compute twice, as a function has no names of its own. An
    // `object` one takes a record (an item of a search's list of options), its fields read by name.
    const types = params.map((p) => (f.params[p] === 'list' ? { list: 'any' } : f.params[p] === 'object' ? { record: 'open' } : f.params[p]!)) as ValueType[]
    // Its result type: the body's, with each parameter of its declared type.
    const returns = body.ast
      ? checkTypes(body.ast, f.formula, { typeOf: (n) => (params.includes(n) ? types[params.indexOf(n)] : undefined), table: tables, fn: (n) => functions.get(n) ?? libraryFunction(n) }).type
      : 'any'
    functions.set(name, {
      doc: f.label ?? f.description ?? `${name}(${params.join(', ')})`,
      args: types,
      returns,
      impl: (args, cx) => body.run(new LambdaScope(cx.rt, params, args as Value[])),
    })
  }
  return functions
}

