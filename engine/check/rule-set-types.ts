/**
 * @module The load-time type check of a whole rule set: every formula, list, call input, check,
 * output and note, in dependency order, each name typed from its declaration or its formula.
 *
 * Inputs are typed as declared (`amount`, `date`, a list of records with their fields…); a table
 * argument by its kind; a formula by what its expression gives; a list item by the list it comes
 * from; a decision's outcome is text; a called rule set's result is a record whose fields are not
 * known here (`any`, checked as the evaluation reads it). A problem is placed at the offending part
 * of the formula (formula-types.ts) in the rule file.
 */
import type { PathSegment } from '../load/source.js'
import type { CompiledExpression } from '../compile/expression.js'
import type { FunctionSpec, ValueType } from '../functions/spec.js'
import type { InputSpec, Node, RuleSet, ScopeDef, Template } from '../model/rule-set.js'
import type { TableEntry, TableFamily } from '../data/tables.js'
import { ANY, accepts, checkTypes, typeName, type TypeEnv } from './formula-types.js'

export interface TypedProblem {
  path: PathSegment[]
  /** Offset in the formula text. */
  index: number
  message: string
}

interface Names {
  get(name: string): ValueType | undefined
}

/** The type of a declared input. @api private */
export function inputType(spec: InputSpec): ValueType {
  switch (spec.type) {
    case 'object': {
      if (!spec.fields) return { record: 'open' }
      const fields: Record<string, ValueType> = {}
      for (const [k, f] of Object.entries(spec.fields)) fields[k] = inputType(f)
      return { record: fields }
    }
    case 'list':
      return { list: spec.items ? inputType(spec.items) : ANY }
    default:
      return spec.type
  }
}

/**
 * Type-check every expression of a compiled rule set; returns the problems and the type of its
 * result. `called` gives the result type of a rule set it calls by name (a templated call, such as
 * the state dispatch, gives a record whose fields are not known). @api public
 */
export function typeRuleSet(
  rs: RuleSet,
  tables: (name: string) => TableEntry | undefined,
  functions: (name: string) => FunctionSpec | undefined,
  called: (id: string) => ValueType = () => ({ record: 'open' }),
  families: Map<string, TableFamily> = new Map(),
): { problems: TypedProblem[]; output: ValueType; formulas: Map<string, ValueType> } {
  const problems: TypedProblem[] = []
  const inputs = new Map<string, ValueType>()
  for (const [name, spec] of Object.entries(rs.inputs)) inputs.set(name, inputType(spec))

  /** The type of one expression where `names` are visible; `want`, when given, is what it must be. */
  const check = (e: CompiledExpression | undefined, names: Names, want?: ValueType, what?: string): ValueType => {
    if (!e) return ANY
    if (e.fields) {
      const record: Record<string, ValueType> = {}
      for (const [k, sub] of e.fields) record[k] = check(sub, names)
      return { record }
    }
    if (e.texts) {
      // Declared texts are typed as notes are: each condition true or false, each placeholder a value.
      for (const item of e.texts.items) {
        check(item.when, names, 'boolean', 'the condition of a text')
        for (const part of item.parts) if (typeof part !== 'string') check(part.expr, names)
      }
      return e.texts.first ? 'text' : { list: 'text' }
    }
    if (!e.ast || e.text === undefined) return ANY
    const env: TypeEnv = {
      typeOf: (n) => names.get(n),
      table: tables,
      fn: (n) => rs.functions.get(n) ?? functions(n),
      family: (n) => families.get(n),
      familyNames: () => [...families.keys()].sort(),
    }
    const { type, problems: found } = checkTypes(e.ast, e.text, env)
    for (const p of found) problems.push({ path: e.path ?? [], index: p.index, message: p.message })
    if (want && found.length === 0 && !accepts(want, type)) {
      problems.push({ path: e.path ?? [], index: 0, message: `${what ?? 'this'} must be ${typeName(want)}, not ${typeName(type)}` })
    }
    return type
  }

  /** Type a scope's formulas in dependency order; what is not typed yet (a cycle, reported elsewhere) is any. */
  const scope = (def: ScopeDef, bound: Map<string, ValueType>, outer: Names): Names => {
    const typed = new Map<string, ValueType>()
    const names: Names = {
      get: (n) => (bound.has(n) ? bound.get(n) : typed.has(n) ? typed.get(n) : def.formulas.has(n) ? ANY : outer.get(n)),
    }
    for (const name of def.order) typed.set(name, node(def.formulas.get(name)!, names))
    return names
  }

  const node = (n: Node, names: Names): ValueType => {
    switch (n.kind) {
      case 'formula': {
        const t = check(n.expr, names)
        if (n.round && t !== ANY && !accepts('number', t)) problems.push({ path: [...n.path, 'round'], index: 0, message: `'${n.name}' rounds, but its formula gives ${typeName(t)}` })
        return n.round ? 'amount' : t
      }
      case 'decision':
        for (const e of n.facts.values()) check(e, names)
        for (const e of n.whens) check(e, names, 'boolean', 'the condition of a decision rule')
        return 'text'
      case 'call':
        check(n.when, names, 'boolean', 'the condition of a call')
        for (const e of n.input.values()) check(e, names)
        if (n.target.includes('{')) return { record: 'open' }
        // A call that does not run (its `when` false) is null, which any field read of it gives way to.
        return called(n.target)
      case 'each': {
        const over = check(n.over, names)
        if (over !== ANY && !(typeof over === 'object' && 'list' in over)) {
          problems.push({ path: n.over.path ?? [], index: 0, message: `each maps over a list, not ${typeName(over)}` })
        }
        const item = typeof over === 'object' && 'list' in over ? over.list : ANY
        const bound = new Map<string, ValueType>()
        if (n.as) bound.set(n.as, item)
        else if (typeof item === 'object' && 'record' in item && item.record !== 'open') for (const [k, t] of Object.entries(item.record)) bound.set(k, t)
        for (const c of n.carry) bound.set(c.name, check(c.start, names))
        // A record item whose fields are unknown binds names the compiler already accepted: any.
        const inner = scope(n.scope, bound, { get: (k) => names.get(k) ?? (n.as ? undefined : ANY) })
        for (const c of n.carry) check(c.next, inner)
        check(n.until, inner, 'boolean', 'until')
        return { list: template(n.result, inner) }
      }
      case 'solve': {
        check(n.start, names, 'amount', 'the start of a fixed point')
        const inner = scope(n.scope, new Map([[n.name, 'amount' as ValueType]]), names)
        check(n.next, inner, 'amount', 'the next iterate of a fixed point')
        return 'amount'
      }
    }
  }

  const template = (t: Template, names: Names): ValueType => {
    switch (t.kind) {
      case 'value': {
        const type = check(t.expr, names)
        if (t.round && type !== ANY && !accepts('number', type)) problems.push({ path: t.expr.path ?? [], index: 0, message: `an output rounds, but its formula gives ${typeName(type)}` })
        return t.round ? 'amount' : type
      }
      case 'when':
        check(t.when, names, 'boolean', 'the condition of an output')
        return template(t.then, names)
      case 'object': {
        const fields: Record<string, ValueType> = {}
        for (const [k, sub] of t.fields) fields[k] = template(sub, names)
        return { record: fields }
      }
    }
  }

  const root = scope(rs.root, inputs, { get: () => undefined })
  if (rs.date) check(rs.date.fallback, root, 'date', 'the calculation date')
  for (const stage of rs.checks) {
    for (const ch of stage.checks) {
      let names = root
      if (ch.each) {
        // A check made for each item sees the item as an `each` does, and its index.
        const over = check(ch.each.over, root)
        if (over !== ANY && !(typeof over === 'object' && 'list' in over)) {
          problems.push({ path: ch.each.over.path ?? [], index: 0, message: `for_each takes a list, not ${typeName(over)}` })
        }
        const item = typeof over === 'object' && 'list' in over ? over.list : ANY
        const bound = new Map<string, ValueType>([[ch.each.index, 'integer']])
        if (ch.each.as) bound.set(ch.each.as, item)
        else if (typeof item === 'object' && 'record' in item && item.record !== 'open') for (const [k, t] of Object.entries(item.record)) bound.set(k, t)
        const as = ch.each.as
        names = { get: (k) => (bound.has(k) ? bound.get(k) : (root.get(k) ?? (as ? undefined : ANY))) }
      }
      check(ch.when, names, 'boolean', 'the condition of a check')
      for (const part of [...ch.message, ...ch.fieldParts]) if (typeof part !== 'string') check(part.expr, names)
    }
  }
  const output = template(rs.outputs, root)
  for (const note of rs.notes) {
    check(note.when, root, 'boolean', 'the condition of a note')
    for (const part of note.parts) if (typeof part !== 'string') check(part.expr, root)
  }
  // Each root formula's type, for a value given in its place (a golden case of one step).
  const formulas = new Map<string, ValueType>()
  for (const name of rs.root.order) formulas.set(name, root.get(name) ?? ANY)
  return { problems, output, formulas }
}
