/**
 * @module One named node of a rule set, by kind: a formula, a decision, a call of another rule set,
 * a list (`each`), a fixed point (`solve`); each compiled with the names it reads.
 */
import { Decision, type DecisionRule } from './decisions.js'
import { parseExact } from '../values/decimal.js'
import { CompileError, type CompiledExpression, type NameResolver } from './expression.js'
import type { PathSegment } from '../load/source.js'
import { toCitations, type TableEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { CallNode, EachNode, Node, NodeBase } from '../model/rule-set.js'
import { compileAt, factsOf, type Compiler, type Raw } from './compiler.js'
import { compileScope, scopeLayout } from './scope.js'
import { template } from './outputs.js'
import { conditionTree, type TopCondition } from './condition-tree.js'
import { compileTexts, type RawTexts } from './texts.js'

export function compileNode(c: Compiler, name: string, spec: Raw, path: PathSegment[], resolver: NameResolver): Node | undefined {
  const base = {
    name,
    references: toCitations(spec.reference),
    deps: new Set<string>(),
    tables: new Set<TableEntry>(),
    path,
  } as NodeBase
  if (typeof spec.label === 'string') base.label = spec.label
  if (typeof spec.round === 'string') {
    const r = c.roundings.get(spec.round)
    if (!r) c.problems.push(c.source.problem([...path, 'round'], `unknown rounding '${spec.round}'; declare it under roundings:`))
    else base.round = r
  }
  const absorb = (e: CompiledExpression | undefined) => {
    if (!e) return
    for (const d of e.deps) base.deps.add(d)
    for (const t of e.tables) base.tables.add(t)
  }
  if (typeof spec.formula === 'string') {
    const expr = compileAt(c, spec.formula, [...path, 'formula'], resolver)
    if (!expr) return undefined
    absorb(expr)
    return { ...base, kind: 'formula', expr }
  }
  // Declared texts are a formula too: its value is the text (or list of texts) whose `when` holds.
  for (const key of ['text', 'texts'] as const) {
    if (spec[key] === undefined) continue
    const expr = compileTexts(c, name, spec[key] as RawTexts, key === 'text', [...path, key], resolver)
    absorb(expr)
    return { ...base, kind: 'formula', expr }
  }
  if (spec.decision) {
    const d = spec.decision as { rules: Raw[]; default?: string }
    const facts = new Map<string, CompiledExpression>()
    const whens: CompiledExpression[] = []
    const rules: DecisionRule[] = []
    d.rules.forEach((r, i) => {
      const at = [...path, 'decision', 'rules', i, 'when']
      // Compiled whole as a formula first: its names are checked where they stand, and
      // check/rule-set-types.ts checks it is true or false; then written as the tree json-rules-engine decides.
      const when = compileAt(c, String(r.when), at, resolver)
      if (!when) return
      whens.push(when)
      let conditions: TopCondition
      try {
        conditions = conditionTree(when.ast!, String(r.when))
      } catch (error) {
        if (!(error instanceof CompileError)) throw error
        c.problems.push(c.source.problem(at, error.message, error.index))
        return
      }
      factsOf(c, conditions, at, resolver, facts)
      const rule: DecisionRule = { conditions, outcome: String(r.outcome), references: toCitations(r.reference) }
      rules.push(typeof r.priority === 'number' ? { ...rule, priority: r.priority } : rule)
    })
    if (rules.length < d.rules.length) return undefined
    for (const e of facts.values()) absorb(e)
    try {
      return { ...base, kind: 'decision', decision: new Decision(name, rules, d.default), facts, whens }
    } catch (error) {
      c.problems.push(c.source.problem([...path, 'decision'], `malformed decision: ${(error as Error).message}`))
      return undefined
    }
  }
  if (spec.call) {
    const call = spec.call as { rule_set: string; fallback?: string; when?: string; pass?: string[]; input?: Record<string, CallInput> }
    const input = new Map<string, CompiledExpression>()
    // `pass`: the caller's values of these names go to the inputs of the same names.
    for (const [i, k] of (call.pass ?? []).entries()) {
      if (call.input && Object.hasOwn(call.input, k)) c.problems.push(c.source.problem([...path, 'call', 'pass', i], `'${k}' is both passed and given in input; keep one`))
      const e = compileAt(c, k, [...path, 'call', 'pass', i], resolver)
      absorb(e)
      if (e) input.set(k, e)
    }
    for (const [k, raw] of Object.entries(call.input ?? {})) {
      const e = compileInput(c, raw, [...path, 'call', 'input', k], resolver)
      absorb(e)
      if (e) input.set(k, e)
    }
    for (const m of call.rule_set.matchAll(/\{([a-z0-9_]+)\}/g)) {
      const n = m[1]!
      if (!resolver.hasValue(n)) c.problems.push(c.source.problem([...path, 'call', 'rule_set'], `unknown name '${n}' in rule set template`))
      else base.deps.add(n)
    }
    const node: CallNode = { ...base, kind: 'call', target: call.rule_set, input }
    if (call.fallback) node.fallback = call.fallback
    if (call.when) {
      const when = compileAt(c, call.when, [...path, 'call', 'when'], resolver)
      absorb(when)
      if (when) node.when = when
    }
    c.calls.push(node)
    return node
  }
  if (spec.each) {
    const each = spec.each as {
      over: string
      as?: string
      carry?: Record<string, { start: string; next: string }>
      until?: string
      formulas?: Record<string, Raw>
      result: unknown
    }
    const over = compileAt(c, each.over, [...path, 'each', 'over'], resolver)
    absorb(over)
    const fields = each.as ? [each.as] : itemFields(c, resolver, each.over, [...path, 'each', 'over'])
    const carried = Object.keys(each.carry ?? {})
    const leaves = [...fields, ...carried]
    const innerNames = new Set([...leaves, ...Object.keys(each.formulas ?? {})])
    const layout = scopeLayout(resolver, leaves, Object.keys(each.formulas ?? {}))
    const inner = layout.resolver
    const outer = new Set<string>()
    const scope = compileScope(c, each.formulas ?? {}, [...path, 'each', 'formulas'], inner, outer, new Set(leaves), layout.names)
    const result = template(c, each.result, [...path, 'each', 'result'], inner, outer, innerNames)
    const track = (e: CompiledExpression | undefined) => {
      if (e) for (const d of e.deps) if (!innerNames.has(d)) outer.add(d)
      if (e) for (const t of e.tables) base.tables.add(t)
      return e
    }
    const carry: EachNode['carry'] = []
    for (const [n, spec] of Object.entries(each.carry ?? {})) {
      const start = compileAt(c, spec.start, [...path, 'each', 'carry', n, 'start'], resolver)
      absorb(start)
      const next = track(compileAt(c, spec.next, [...path, 'each', 'carry', n, 'next'], inner))
      if (start && next) carry.push({ name: n, start, next })
    }
    const until = each.until ? track(compileAt(c, each.until, [...path, 'each', 'until'], inner)) : undefined
    for (const d of outer) base.deps.add(d)
    if (!over) return undefined
    const node: EachNode = { ...base, kind: 'each', over, carry, scope, result }
    if (each.as) node.as = each.as
    if (until) node.until = until
    return node
  }
  if (spec.solve) {
    const s = spec.solve as { start: string; next: string; tolerance: string; max_iterations: number; formulas?: Record<string, Raw> }
    const start = compileAt(c, s.start, [...path, 'solve', 'start'], resolver)
    absorb(start)
    // Inside the solve scope the node's own name is the unknown, bound to the current iterate.
    const innerNames = new Set([name, ...Object.keys(s.formulas ?? {})])
    const layout = scopeLayout(resolver, [name], Object.keys(s.formulas ?? {}))
    const inner = layout.resolver
    const outer = new Set<string>()
    const scope = compileScope(c, s.formulas ?? {}, [...path, 'solve', 'formulas'], inner, outer, new Set([name]), layout.names)
    const next = compileAt(c, s.next, [...path, 'solve', 'next'], inner)
    if (next) for (const d of next.deps) if (!innerNames.has(d)) outer.add(d)
    if (next) for (const t of next.tables) base.tables.add(t)
    for (const d of outer) base.deps.add(d)
    if (!start || !next) return undefined
    return { ...base, kind: 'solve', start, next, scope, tolerance: parseExact(s.tolerance), maxIterations: s.max_iterations }
  }
  return undefined
}

export type CallInput = string | { [field: string]: CallInput }

/** A call's input: an expression, or a mapping of fields (an object input such as `deductions`). */
export function compileInput(c: Compiler, raw: CallInput, path: PathSegment[], resolver: NameResolver): CompiledExpression | undefined {
  if (typeof raw === 'string') return compileAt(c, raw, path, resolver)
  const fields: [string, CompiledExpression][] = []
  const deps = new Set<string>()
  const tables = new Set<TableEntry>()
  for (const [k, sub] of Object.entries(raw)) {
    const e = compileInput(c, sub, [...path, k], resolver)
    if (!e) return undefined
    fields.push([k, e])
    for (const d of e.deps) deps.add(d)
    for (const t of e.tables) tables.add(t)
  }
  return {
    fields,
    run: (rt) => {
      const out: Record<string, Value> = {}
      for (const [k, e] of fields) out[k] = e.run(rt)
      return out
    },
    deps,
    tables,
  }
}

/** The fields of the items of the list an `each` maps over: it must be a list input with declared items. */
export function itemFields(c: Compiler, resolver: NameResolver, over: string, path: PathSegment[]): string[] {
  const raw = (c.source.data as Raw).inputs as Record<string, Raw> | undefined
  const spec = raw?.[over.trim()]
  const items = spec?.items as Raw | undefined
  if (!resolver.hasValue(over.trim()) || spec?.type !== 'list' || !items?.fields) {
    c.problems.push(c.source.problem(path, `each.over names a list input whose items declare their fields; '${over}' does not`))
    return []
  }
  return Object.keys(items.fields as Raw)
}

