/**
 * @module Compiling one rule set file: inputs, formulas in dependency order, decisions, calls,
 * lists, fixed points, checks, outputs and notes.
 *
 * Every problem (unknown name, cycle, malformed decision, a table of the wrong kind) is pushed with
 * its `file:line:column`; nothing is thrown, so one run of the rule check reports them all.
 */
import { Decision, OPERATORS, conditionFacts } from './decide.js'
import { Dec, isExactText, parseExact } from './decimal.js'
import type { Problem } from './errors.js'
import { CompileError, LambdaScope, compileExpression, type CompiledExpression, type NameResolver } from './expression.js'
import { libraryFunction } from './functions/index.js'
import type { FunctionSpec, ValueType } from './functions/spec.js'
import { checkTypes } from './typecheck.js'
import { rounding, type Rounding, type RoundingMode } from './round.js'
import type { PathSegment, SourceFile } from './source.js'
import { toCitations, type Citation, type TableEntry } from './tables.js'
import type { Value } from './types.js'

export type InputType = 'amount' | 'integer' | 'text' | 'boolean' | 'date' | 'object' | 'list'

export interface InputSpec {
  type: InputType
  default?: Value
  fields?: Record<string, InputSpec>
  items?: InputSpec
}

interface NodeBase {
  name: string
  label?: string
  references: Citation[]
  round?: Rounding
  /** Names in the same scope this node reads. */
  deps: Set<string>
  tables: Set<TableEntry>
  path: PathSegment[]
}
export interface FormulaNode extends NodeBase {
  kind: 'formula'
  expr: CompiledExpression
}
export interface DecisionNode extends NodeBase {
  kind: 'decision'
  decision: Decision
  /** Each fact a condition reads, compiled: an input, a formula or a parameter. */
  facts: Map<string, CompiledExpression>
}
export interface CallNode extends NodeBase {
  kind: 'call'
  target: string
  fallback?: string
  /** Only when this holds is the rule set run; otherwise the call's value is null. */
  when?: CompiledExpression
  input: Map<string, CompiledExpression>
}
export interface EachNode extends NodeBase {
  kind: 'each'
  over: CompiledExpression
  /** The name the item is bound to; without it, a record item's fields are bound by name. */
  as?: string
  /** Values carried from one item to the next (a balance), each with its start and its next value. */
  carry: { name: string; start: CompiledExpression; next: CompiledExpression }[]
  /** Stop after the first item for which this is true. */
  until?: CompiledExpression
  scope: ScopeDef
  result: Template
}
export interface SolveNode extends NodeBase {
  kind: 'solve'
  start: CompiledExpression
  next: CompiledExpression
  scope: ScopeDef
  tolerance: Dec
  maxIterations: number
}
export type Node = FormulaNode | DecisionNode | CallNode | EachNode | SolveNode

export interface ScopeDef {
  formulas: Map<string, Node>
  /** Dependency order of the formulas. */
  order: string[]
  /**
   * The decisions, calls, and lists whose items hold either, in dependency order: evaluated before
   * anything else in the scope, so that what they cite and note comes in one order whatever the
   * outputs read, and so that a check reading none of them runs before them.
   */
  firstOrder: string[]
}

/** The shape of a result: nested fields whose leaves are expressions. */
export type Template =
  | { kind: 'value'; expr: CompiledExpression; round?: Rounding }
  | { kind: 'object'; fields: [string, Template][] }
  | { kind: 'when'; when: CompiledExpression; then: Template }

/** One input check: when its condition holds, the request is refused naming the field. */
export interface Check {
  when: CompiledExpression
  field: string
  code: 'validation_error' | 'unsupported_parameter'
  /** The message, which may print values of the request, as a note does. */
  message: NoteDef['parts']
}

export interface CheckStage {
  checks: Check[]
  /** Whether this stage waits for the rule set's decisions and calls. */
  late: boolean
}

export interface NoteDef {
  when?: CompiledExpression
  parts: (string | { expr: CompiledExpression; money: boolean })[]
}

export interface RuleSet {
  id: string
  /** The functions it declares (`functions:`), callable from its formulas like the library's. */
  functions: Map<string, FunctionSpec>
  file: string
  title: string
  references: Citation[]
  inputs: Record<string, InputSpec>
  date?: { input?: string; fallback: CompiledExpression }
  root: ScopeDef
  /**
   * Input checks in two stages: those that read only plain formulas run first; those that read a
   * decision or a call (directly or through formulas) run once those are evaluated.
   */
  checks: CheckStage[]
  outputs: Template
  notes: NoteDef[]
  /** Every table this rule set reads, directly or in a nested scope. */
  tables: Set<TableEntry>
  /** Rule sets it may call (templates not yet expanded) and their fallbacks. */
  calls: CallNode[]
}

interface Compiler {
  source: SourceFile
  problems: Problem[]
  tables: (name: string) => TableEntry | undefined
  roundings: Map<string, Rounding>
  allTables: Set<TableEntry>
  calls: CallNode[]
}

type Raw = Record<string, unknown>

/** Compile a validated rule set file. @api private */
export function compileRuleSet(
  source: SourceFile,
  id: string,
  tables: (name: string) => TableEntry | undefined,
  problems: Problem[],
  shared: Map<string, Rounding> = new Map(),
): RuleSet {
  const raw = source.data as Raw
  const roundings = new Map<string, Rounding>(shared)
  for (const [name, r] of Object.entries((raw.roundings ?? {}) as Record<string, { step: string; mode: RoundingMode }>)) {
    roundings.set(name, rounding(r.step, r.mode))
  }
  const c: Compiler = { source, problems, tables, roundings, allTables: new Set(), calls: [] }
  const inputs: Record<string, InputSpec> = {}
  for (const [name, spec] of Object.entries((raw.inputs ?? {}) as Record<string, Raw>)) {
    inputs[name] = inputSpec(c, spec, ['inputs', name])
  }
  const inputNames = new Set(Object.keys(inputs))
  const formulasRaw = (raw.formulas ?? {}) as Record<string, Raw>
  for (const name of Object.keys(formulasRaw)) {
    if (inputNames.has(name)) problems.push(source.problem(['formulas', name], `duplicate name '${name}': it is already an input`))
    if (tables(name)) problems.push(source.problem(['formulas', name], `duplicate name '${name}': it is already a table of this rule set`))
  }
  const functions = compileFunctions(c, (raw.functions ?? {}) as Record<string, RawFunction>, tables)
  const rootNames = new Set([...inputNames, ...Object.keys(formulasRaw)])
  const rootResolver: NameResolver = { hasValue: (n) => rootNames.has(n), table: tables, fn: (n) => functions.get(n) }
  const root = compileScope(c, formulasRaw, ['formulas'], rootResolver, new Set(), new Set(inputNames))

  const expr = (text: string, path: PathSegment[], resolver = rootResolver) => compileAt(c, text, path, resolver)

  let date: RuleSet['date']
  const rawDate = raw.date as { input?: string; default: string } | undefined
  if (rawDate) {
    if (rawDate.input && !inputNames.has(rawDate.input)) problems.push(source.problem(['date', 'input'], `unknown input '${rawDate.input}'`))
    const fallback = expr(rawDate.default, ['date', 'default'])
    if (fallback) date = rawDate.input ? { input: rawDate.input, fallback } : { fallback }
  }

  // Checks in two stages: those that read a decision or a call (directly or through formulas) wait
  // for them; the others run first, so a bad request is refused before any call is made.
  const checks: CheckStage[] = []
  const rawChecks = (raw.checks ?? []) as { when: string; field: string; message: string; code?: Check['code'] }[]
  const waits = waitsForFirst(root)
  const compiled = rawChecks.flatMap((ch, i) => {
    const when = expr(ch.when, ['checks', i, 'when'])
    if (!when) return []
    // A message may print values of the request, as a note does: "{year_month(valuation_date)}".
    const check: Check = { when, field: ch.field, code: ch.code ?? 'validation_error', message: noteParts(c, ch.message, ['checks', i, 'message'], rootResolver) }
    return [{ check, late: [...when.deps].some(waits) }]
  })
  for (const late of [false, true]) {
    const stage = compiled.filter((x) => x.late === late).map((x) => x.check)
    if (stage.length > 0) checks.push({ checks: stage, late })
  }

  // Decisions and calls are evaluated first in their scope (evaluate.ts, prepare); the iterates of a
  // fixed point are scopes the solver makes on demand, which never get that pass.
  for (const node of root.formulas.values()) {
    for (const solve of [node, ...nested(node)].filter((n) => n.kind === 'solve')) {
      for (const inner of nested(solve)) {
        if (inner.kind === 'decision' || inner.kind === 'call') {
          problems.push(source.problem(inner.path, `${inner.kind} '${inner.name}' may not stand inside the fixed point '${solve.name}'`))
        }
      }
    }
  }
  const outputs = template(c, raw.outputs as Raw, ['outputs'], rootResolver)
  const notes: NoteDef[] = ((raw.notes ?? []) as { when?: string; text: string }[]).map((note, i) => {
    const def: NoteDef = { parts: noteParts(c, note.text, ['notes', i, 'text'], rootResolver) }
    if (note.when) {
      const when = expr(note.when, ['notes', i, 'when'])
      if (when) def.when = when
    }
    return def
  })
  const rs: RuleSet = {
    id,
    functions,
    file: source.file,
    title: String(raw.title),
    references: toCitations(raw.reference),
    inputs,
    root,
    outputs,
    notes,
    tables: c.allTables,
    calls: c.calls,
    checks,
  }
  if (date) rs.date = date
  return rs
}

/** The formulas inside an `each` or `solve`, at any depth. */
function nested(node: Node): Node[] {
  if (node.kind !== 'each' && node.kind !== 'solve') return []
  return [...node.scope.formulas.values()].flatMap((n) => [n, ...nested(n)])
}

function inputSpec(c: Compiler, raw: Raw, path: PathSegment[]): InputSpec {
  const spec: InputSpec = { type: raw.type as InputType }
  if (raw.fields) {
    spec.fields = {}
    for (const [k, v] of Object.entries(raw.fields as Record<string, Raw>)) spec.fields[k] = inputSpec(c, v, [...path, 'fields', k])
  }
  if (raw.items) spec.items = inputSpec(c, raw.items as Raw, [...path, 'items'])
  if (spec.type === 'list' && !spec.items) c.problems.push(c.source.problem(path, 'a list input declares its items'))
  if ('default' in raw) {
    const d = raw.default
    if ((spec.type === 'amount' || spec.type === 'integer') && !(typeof d === 'string' && isExactText(d))) {
      c.problems.push(c.source.problem([...path, 'default'], 'an amount default is written as a string, e.g. "0"'))
    } else spec.default = spec.type === 'amount' || spec.type === 'integer' ? parseExact(d as string) : (d as Value)
  }
  return spec
}

function compileAt(c: Compiler, text: string, path: PathSegment[], resolver: NameResolver): CompiledExpression | undefined {
  try {
    const compiled = compileExpression(text, resolver)
    for (const t of compiled.tables) c.allTables.add(t)
    compiled.path = path
    return compiled
  } catch (error) {
    if (error instanceof CompileError) {
      c.problems.push(c.source.problem(path, error.message, error.index))
      return undefined
    }
    throw error
  }
}

/** Compile each fact a condition tree reads (a name of an input, formula or parameter) and check its operators. */
function factsOf(c: Compiler, conditions: unknown, path: PathSegment[], resolver: NameResolver, into: Map<string, CompiledExpression>) {
  const { facts, operators } = conditionFacts(conditions)
  for (const f of facts) {
    if (into.has(f)) continue
    const e = compileAt(c, f, path, resolver)
    if (e) into.set(f, e)
  }
  for (const o of operators) {
    if (!OPERATORS.includes(o)) c.problems.push(c.source.problem(path, `unknown operator '${o}'; known: ${OPERATORS.join(', ')}`))
  }
}

/**
 * Compile the formulas of one scope and order them by their dependencies.
 * `outerDeps` collects names of enclosing scopes that this scope reads, for the enclosing node.
 */
function compileScope(
  c: Compiler,
  raw: Record<string, Raw>,
  path: PathSegment[],
  resolver: NameResolver,
  outerDeps: Set<string>,
  leaves: Set<string>,
): ScopeDef {
  const local = new Set([...leaves, ...Object.keys(raw)])
  const formulas = new Map<string, Node>()
  for (const [name, spec] of Object.entries(raw)) {
    const node = compileNode(c, name, spec, [...path, name], resolver)
    if (!node) continue
    for (const dep of node.deps) if (!local.has(dep)) outerDeps.add(dep)
    for (const dep of [...node.deps]) if (!formulas.has(dep) && !(dep in raw)) node.deps.delete(dep)
    formulas.set(name, node)
  }
  const sorted = order(c, formulas)
  return { formulas, order: sorted, firstOrder: sorted.filter((n) => isFirst(formulas.get(n)!)) }
}

/** Whether a root name is, or reads through formulas, a node the scope evaluates first. */
function waitsForFirst(root: ScopeDef): (name: string) => boolean {
  const memo = new Map<string, boolean>()
  const waits = (name: string): boolean => {
    const known = memo.get(name)
    if (known !== undefined) return known
    memo.set(name, false)
    const node = root.formulas.get(name)
    const result = node !== undefined && (isFirst(node) || [...node.deps].some(waits))
    memo.set(name, result)
    return result
  }
  return waits
}

function isFirst(node: Node): boolean {
  return node.kind === 'decision' || node.kind === 'call' || (node.kind === 'each' && node.scope.firstOrder.length > 0)
}

function compileNode(c: Compiler, name: string, spec: Raw, path: PathSegment[], resolver: NameResolver): Node | undefined {
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
  if (spec.decision) {
    const d = spec.decision as { rules: Raw[]; default?: string }
    const facts = new Map<string, CompiledExpression>()
    d.rules.forEach((rule, i) => factsOf(c, rule.conditions, [...path, 'decision', 'rules', i, 'conditions'], resolver, facts))
    for (const e of facts.values()) absorb(e)
    try {
      const decision = new Decision(
        name,
        d.rules.map((r) => {
          const rule = { conditions: r.conditions, outcome: String(r.outcome), references: toCitations(r.reference) }
          return typeof r.priority === 'number' ? { ...rule, priority: r.priority } : rule
        }),
        d.default,
      )
      return { ...base, kind: 'decision', decision, facts }
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
    const inner: NameResolver = { ...resolver, hasValue: (n) => innerNames.has(n) || resolver.hasValue(n) }
    const outer = new Set<string>()
    const scope = compileScope(c, each.formulas ?? {}, [...path, 'each', 'formulas'], inner, outer, new Set(leaves))
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
    const inner: NameResolver = { ...resolver, hasValue: (n) => innerNames.has(n) || resolver.hasValue(n) }
    const outer = new Set<string>()
    const scope = compileScope(c, s.formulas ?? {}, [...path, 'solve', 'formulas'], inner, outer, new Set([name]))
    const next = compileAt(c, s.next, [...path, 'solve', 'next'], inner)
    if (next) for (const d of next.deps) if (!innerNames.has(d)) outer.add(d)
    if (next) for (const t of next.tables) base.tables.add(t)
    for (const d of outer) base.deps.add(d)
    if (!start || !next) return undefined
    return { ...base, kind: 'solve', start, next, scope, tolerance: parseExact(s.tolerance), maxIterations: s.max_iterations }
  }
  return undefined
}

type CallInput = string | { [field: string]: CallInput }

/** A call's input: an expression, or a mapping of fields (an object input such as `deductions`). */
function compileInput(c: Compiler, raw: CallInput, path: PathSegment[], resolver: NameResolver): CompiledExpression | undefined {
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
function itemFields(c: Compiler, resolver: NameResolver, over: string, path: PathSegment[]): string[] {
  const raw = (c.source.data as Raw).inputs as Record<string, Raw> | undefined
  const spec = raw?.[over.trim()]
  const items = spec?.items as Raw | undefined
  if (!resolver.hasValue(over.trim()) || spec?.type !== 'list' || !items?.fields) {
    c.problems.push(c.source.problem(path, `each.over names a list input whose items declare their fields; '${over}' does not`))
    return []
  }
  return Object.keys(items.fields as Raw)
}

/** Dependency order; a cycle is reported once, with its path, where its first formula stands. */
function order(c: Compiler, formulas: Map<string, Node>): string[] {
  const done = new Set<string>()
  const visiting: string[] = []
  const out: string[] = []
  const reported = new Set<string>()
  const visit = (name: string) => {
    if (done.has(name)) return
    const at = visiting.indexOf(name)
    if (at >= 0) {
      const cycle = [...visiting.slice(at), name]
      const key = [...cycle].sort().join(',')
      if (!reported.has(key)) {
        reported.add(key)
        const first = formulas.get(cycle[0]!)!
        c.problems.push(c.source.problem(first.path, `cycle: ${cycle.join(' → ')}`))
      }
      return
    }
    const node = formulas.get(name)
    if (!node) return
    visiting.push(name)
    for (const dep of node.deps) visit(dep)
    visiting.pop()
    done.add(name)
    out.push(name)
  }
  for (const name of formulas.keys()) visit(name)
  return out
}

const RESERVED = new Set(['formula', 'round', 'when', 'then'])

function template(
  c: Compiler,
  raw: unknown,
  path: PathSegment[],
  resolver: NameResolver,
  outer?: Set<string>,
  innerNames?: Set<string>,
): Template {
  const track = (e: CompiledExpression | undefined) => {
    if (e && outer) for (const d of e.deps) if (!innerNames?.has(d)) outer.add(d)
    return e
  }
  const fallback: Template = { kind: 'object', fields: [] }
  if (typeof raw === 'string') {
    const e = track(compileAt(c, raw, path, resolver))
    return e ? { kind: 'value', expr: e } : fallback
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    c.problems.push(c.source.problem(path, 'an output is an expression, a {formula, round} pair, a {when, then} pair or a mapping of outputs'))
    return fallback
  }
  const obj = raw as Raw
  if ('formula' in obj) {
    const e = track(compileAt(c, String(obj.formula), [...path, 'formula'], resolver))
    if (!e) return fallback
    const t: Template = { kind: 'value', expr: e }
    if (typeof obj.round === 'string') {
      const r = c.roundings.get(obj.round)
      if (!r) c.problems.push(c.source.problem([...path, 'round'], `unknown rounding '${obj.round}'; declare it under roundings:`))
      else t.round = r
    }
    return t
  }
  if ('when' in obj) {
    const when = track(compileAt(c, String(obj.when), [...path, 'when'], resolver))
    const then = template(c, obj.then, [...path, 'then'], resolver, outer, innerNames)
    return when ? { kind: 'when', when, then } : fallback
  }
  const fields: [string, Template][] = []
  for (const [k, v] of Object.entries(obj)) {
    if (RESERVED.has(k)) continue
    fields.push([k, template(c, v, [...path, k], resolver, outer, innerNames)])
  }
  return { kind: 'object', fields }
}

/** A note's text with `{expression}` placeholders compiled. */
function noteParts(c: Compiler, text: string, path: PathSegment[], resolver: NameResolver): NoteDef['parts'] {
  const parts: NoteDef['parts'] = []
  let last = 0
  // `{x}` prints a value as it is; `{$x}` prints an amount as money: $1,234,567.50.
  for (const m of text.matchAll(/\{(\$?)([^{}]+)\}/g)) {
    parts.push(text.slice(last, m.index))
    const e = compileAt(c, m[2]!, path, resolver)
    if (e) parts.push({ expr: e, money: m[1] === '$' })
    last = m.index! + m[0].length
  }
  parts.push(text.slice(last))
  return parts.filter((p) => p !== '')
}


interface RawFunction {
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
function compileFunctions(c: Compiler, raw: Record<string, RawFunction>, tables: (name: string) => TableEntry | undefined): Map<string, FunctionSpec> {
  const functions = new Map<string, FunctionSpec>()
  for (const [name, f] of Object.entries(raw)) {
    const path = ['functions', name]
    if (libraryFunction(name)) c.problems.push(c.source.problem(path, `'${name}' is already a function of the library`))
    const params = Object.keys(f.params)
    const resolver: NameResolver = { hasValue: (n) => params.includes(n), table: tables, fn: (n) => functions.get(n) }
    const body = compileAt(c, f.formula, [...path, 'formula'], resolver)
    if (!body) continue
    const types = params.map((p) => f.params[p]!) as ValueType[]
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
