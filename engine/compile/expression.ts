/**
 * @module Formula expressions: parsed once at load by jsep, compiled to closures over decimals.
 *
 * The grammar is jsep's (arithmetic, comparison, `&&`, `||`, `!`, `?:`, calls, member access) with
 * one meaning per operator: `+ - * /` on amounts only, `==` and `!=` on values of one type. A name is
 * an input, a formula, a field of the current list item, or a table (by its name in the mirrored
 * tables file, or by its full id such as `estate.federal.rate_schedule`).
 */
import jsep from 'jsep'
import jsepArrow from '@jsep-plugin/arrow'
import { Dec, compare, isDec } from '../values/decimal.js'
import { EvaluationError } from '../errors.js'
import { parseFormula } from '../load/formula-cache.js'
import { functionNames, libraryFunction } from '../functions/index.js'
import type { CallContext, FunctionSpec, Lambda } from '../functions/spec.js'
import { isDate } from '../functions/values.js'
import { locate } from '../load/locate.js'
import type { Dated, TableFamily, ParameterEntry, Scalar, TableEntry } from '../data/tables.js'
import type { Currency } from '../values/money.js'
import type { PathSegment } from '../load/source.js'
import type { Compiled, Runtime, Value, TableReadOn, TableValueOf } from '../model/types.js'

// `x => x.amount > 0`: a function as the argument of filter(), sort_by(), argmax()…
jsep.plugins.register(jsepArrow)

/** Resolves the names a formula may use, at load. @api private */
export interface NameResolver {
  /** An input, formula, list-item field or unknown visible where the formula stands. */
  hasValue(name: string): boolean
  /** A table by local name or full id. */
  table(name: string): TableEntry | undefined
  /** A function the rule set declares itself (`functions:`), found before the library's. */
  fn?(name: string): FunctionSpec | undefined
  /** Where a value name is kept: its slot, and how many scopes out of the formula's own it stands. */
  slot?(name: string): { depth: number; index: number } | undefined
}

export interface CompiledExpression {
  run: Compiled
  /** Names of values (not tables) the expression reads: its edges in the dependency graph. */
  deps: Set<string>
  tables: Set<TableEntry>
  /** The parsed formula and its text, for the load-time type check (check/rule-set-types.ts). */
  ast?: Node
  text?: string
  /** A record built field by field (a call's object input) instead of one formula. */
  fields?: [string, CompiledExpression][]
  /**
   * Declared texts (`text:`, `texts:`, compile/texts.ts) instead of one formula: each item's
   * condition and template, held here so the load check types them as it types notes.
   */
  texts?: {
    first: boolean
    items: DeclaredText[]
    /** The texts as written, on one line, for an explanation's step: `when c: "…"; "…"`. */
    written: string
  }
  /** Where the formula stands in its rule file, set by the rule set compiler. */
  path?: PathSegment[]
}

/** One declared text: the condition it holds under (none: always) and its template's parts. */
export interface DeclaredText {
  when?: CompiledExpression
  /** Literal text, and `{x}` placeholders (`money`: `{$x}`, printed in the endpoint's currency). */
  parts: (string | { expr: CompiledExpression; money: boolean })[]
}

export class CompileError extends Error {
  constructor(
    message: string,
    public index = 0,
    /** The offending node, placed in the text by compileExpression when no index is given. */
    readonly node?: Node,
  ) {
    super(message)
  }
}

type Node = jsep.Expression

interface Ctx {
  resolver: NameResolver
  deps: Set<string>
  tables: Set<TableEntry>
  text: string
}

/** Parse and compile one expression; throws CompileError with the offending offset. @api public */
export function compileExpression(text: string, resolver: NameResolver): CompiledExpression {
  let ast: Node
  try {
    // The same tree jsep gives, read from the cache of parsed formulas where a process kept it.
    ast = parseFormula(text)
  } catch (error) {
    const e = error as Error & { index?: number }
    throw new CompileError(`cannot parse formula: ${e.message.replace(/ at character \d+$/, '')}`, e.index ?? 0)
  }
  const ctx: Ctx = { resolver, deps: new Set(), tables: new Set(), text }
  let run: Piece
  try {
    run = compile(ast, ctx)
  } catch (error) {
    if (error instanceof CompileError && error.node && error.index === 0) error.index = locate(ast, text).get(error.node)?.start ?? 0
    throw error
  }
  if (run.table) throw new CompileError(`a table is not a value: call schedule(), lookup() or series() on it`)
  return { run: run.fn, deps: ctx.deps, tables: ctx.tables, ast, text }
}

interface Piece {
  fn: Compiled
  /** A table that is not a value by itself (a schedule, a lookup, a series). */
  table?: TableEntry
  /** The parameter this name reads, for a function that takes a parameter itself (value_at). */
  parameter?: TableEntry
}

/**
 * The value of each compiled piece that reads nothing: a literal, and an operator or a pure library
 * function over literals (`-0.9`, `['first', 'second']`, `range(1, 60)`), worked out once at load.
 * Values are never changed once made, so every evaluation may share the one value.
 */
const constants = new WeakMap<Compiled, { value: Value }>()

function constant(value: Value): Compiled {
  const fn: Compiled = () => value
  constants.set(fn, { value })
  return fn
}

/**
 * `fn` folded to its value when all of `parts` are constants, else `fn` itself. A fault (a division by
 * zero, an impossible date) is left to the evaluation, which reports it as it always has.
 */
function folded(fn: Compiled, parts: Compiled[]): Compiled {
  if (!parts.every((p) => constants.has(p))) return fn
  try {
    return constant(fn(NO_RUNTIME))
  } catch {
    return fn
  }
}

/** What a constant is evaluated on at load: it reads nothing, so any use of the runtime is a fault (and nothing is folded). */
const NO_RUNTIME = new Proxy({} as Runtime, {
  get() {
    throw new EvaluationError('not a constant')
  },
})

function fail(ctx: Ctx, message: string): never {
  throw new EvaluationError(`${message} in formula \`${ctx.text}\``)
}

function dec(ctx: Ctx, v: Value, what: string): Dec {
  if (isDec(v)) return v
  fail(ctx, `${what} must be an amount, got ${describe(v)}`)
}

function bool(ctx: Ctx, v: Value, what: string): boolean {
  if (typeof v === 'boolean') return v
  fail(ctx, `${what} must be true or false, got ${describe(v)}`)
}

export function describe(v: Value): string {
  if (v === null) return 'null'
  if (isDec(v)) return `amount ${v.toString()}`
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a record'
  return `${typeof v} ${JSON.stringify(v)}`
}

function memberChain(node: Node): string[] | undefined {
  if (node.type === 'Identifier') return [node.name as string]
  if (node.type === 'MemberExpression' && !node.computed) {
    const head = memberChain(node.object as Node)
    const prop = node.property as Node
    if (head && prop.type === 'Identifier') return [...head, prop.name as string]
  }
  return undefined
}

function field(ctx: Ctx, v: Value, key: string): Value {
  // Across a list, a null item or one without the field (an optional section left out) gives null.
  // A record's own fields only: `constructor` or `toString` is no field of a record.
  if (Array.isArray(v)) return v.map((item) => (item === null || (typeof item === 'object' && !isDec(item) && !Array.isArray(item) && !Object.hasOwn(item, key)) ? null : field(ctx, item, key)))
  if (v !== null && typeof v === 'object' && !isDec(v)) {
    if (!Object.hasOwn(v, key)) fail(ctx, `record has no field '${key}'`)
    return (v as Record<string, Value>)[key] as Value
  }
  fail(ctx, `cannot read '${key}' of ${describe(v)}`)
}

function compile(node: Node, ctx: Ctx): Piece {
  switch (node.type) {
    case 'Literal': {
      const value = node.value
      if (typeof value === 'number') return { fn: constant(new Dec(String(node.raw))) }
      if (typeof value === 'string' || typeof value === 'boolean' || value === null) return { fn: constant(value as Value) }
      throw new CompileError(`unsupported literal ${String(node.raw)}`)
    }
    case 'Identifier':
    case 'MemberExpression': {
      const chain = memberChain(node)
      if (!chain) {
        // A field of a computed value: lookup(t, k).rate
        const prop = node.property as Node
        if (node.type !== 'MemberExpression' || node.computed || prop.type !== 'Identifier') {
          throw new CompileError('only names and fields (a.b, f(x).b) may be read; computed access a[b] is not supported')
        }
        const object = value(node.object as Node, ctx)
        const key = prop.name as string
        return { fn: (rt) => field(ctx, object(rt), key) }
      }
      const [head, ...rest] = chain as [string, ...string[]]
      if (ctx.resolver.hasValue(head)) {
        ctx.deps.add(head)
        // Read by slot where the name has one (every name of a rule set's scopes); by name otherwise
        // (a lambda's parameter).
        const at = ctx.resolver.slot?.(head)
        const read: Compiled = at ? (at.depth === 0 ? (rt) => rt.slot(0, at.index) : (rt) => rt.slot(at.depth, at.index)) : (rt) => rt.get(head)
        // A bare name is most reads, and a name with one field most of the rest.
        if (rest.length === 0) return { fn: read }
        if (rest.length === 1) {
          const key = rest[0]!
          return { fn: (rt) => field(ctx, read(rt), key) }
        }
        return {
          fn: (rt) => {
            let v = read(rt)
            for (const key of rest) v = field(ctx, v, key)
            return v
          },
        }
      }
      const id = chain.join('.')
      const table = ctx.resolver.table(id)
      if (!table) throw new CompileError(`unknown name '${id}'`, 0, node)
      ctx.tables.add(table)
      if (table.kind === 'parameter') return { fn: (rt) => rt.read(table), parameter: table }
      return { fn: () => fail(ctx, `table ${id} used as a value`), table }
    }
    case 'UnaryExpression': {
      const arg = value(node.argument as Node, ctx)
      switch (node.operator) {
        case '-':
          return { fn: folded((rt) => dec(ctx, arg(rt), 'operand of -').neg(), [arg]) }
        case '+':
          return { fn: folded((rt) => dec(ctx, arg(rt), 'operand of +'), [arg]) }
        case '!':
          return { fn: folded((rt) => !bool(ctx, arg(rt), 'operand of !'), [arg]) }
      }
      throw new CompileError(`unsupported operator ${String(node.operator)}`)
    }
    case 'BinaryExpression':
      return { fn: binary(node, ctx) }
    case 'ConditionalExpression': {
      const test = value(node.test as Node, ctx)
      const yes = value(node.consequent as Node, ctx)
      const no = value(node.alternate as Node, ctx)
      // A condition known at load takes its branch then (both branches are still compiled and checked).
      const known = constants.get(test)?.value
      if (typeof known === 'boolean') return { fn: known ? yes : no }
      return { fn: (rt) => (bool(ctx, test(rt), 'condition of ?:') ? yes(rt) : no(rt)) }
    }
    case 'ArrayExpression': {
      const items = (node.elements as Node[]).map((e) => value(e, ctx))
      return { fn: folded((rt) => items.map((f) => f(rt)), items) }
    }
    case 'CallExpression':
      return { fn: call(node, ctx) }
  }
  throw new CompileError(`unsupported expression ${node.type}`)
}

function value(node: Node, ctx: Ctx): Compiled {
  const piece = compile(node, ctx)
  if (piece.table) throw new CompileError(`table ${piece.table.id} is not a value: call schedule(), lookup() or series() on it`, 0, node)
  return piece.fn
}

function same(ctx: Ctx, a: Value, b: Value): boolean {
  if (isDec(a) && isDec(b)) return compare(a, b) === 0
  if (a === null || b === null) return a === b
  if (typeof a !== typeof b || isDec(a) || isDec(b)) fail(ctx, `cannot compare ${describe(a)} with ${describe(b)}`)
  return a === b
}

function binary(node: Node, ctx: Ctx): Compiled {
  const left = value(node.left as Node, ctx)
  const right = value(node.right as Node, ctx)
  return folded(operator(node.operator as string, left, right, ctx), [left, right])
}

function operator(op: string, left: Compiled, right: Compiled, ctx: Ctx): Compiled {
  // Written once here, not on every evaluation: they name an operand only when it is wrong.
  const leftOf = `left of ${op}`
  const rightOf = `right of ${op}`
  const amounts = (f: (a: Dec, b: Dec) => Value): Compiled => (rt) => f(dec(ctx, left(rt), leftOf), dec(ctx, right(rt), rightOf))
  // Order compares two amounts, or two ISO dates (YYYY-MM-DD sorts as text in date order).
  const ordered = (f: (c: number) => boolean): Compiled => (rt) => {
    const a = left(rt)
    const b = right(rt)
    if (isDate(a) && isDate(b)) return f(a < b ? -1 : a > b ? 1 : 0)
    return f(compare(dec(ctx, a, leftOf), dec(ctx, b, rightOf)))
  }
  switch (op) {
    case '+':
      return amounts((a, b) => a.plus(b))
    case '-':
      return amounts((a, b) => a.minus(b))
    case '*':
      return amounts((a, b) => a.times(b))
    case '/':
      return amounts((a, b) => {
        if (b.isZero()) fail(ctx, 'division by zero')
        return a.div(b)
      })
    case '<':
      return ordered((c) => c < 0)
    case '<=':
      return ordered((c) => c <= 0)
    case '>':
      return ordered((c) => c > 0)
    case '>=':
      return ordered((c) => c >= 0)
    case '==':
      return (rt) => same(ctx, left(rt), right(rt))
    case '!=':
      return (rt) => !same(ctx, left(rt), right(rt))
    case '&&':
      return (rt) => bool(ctx, left(rt), 'left of &&') && bool(ctx, right(rt), 'right of &&')
    case '||':
      return (rt) => bool(ctx, left(rt), 'left of ||') || bool(ctx, right(rt), 'right of ||')
  }
  throw new CompileError(`unsupported operator ${op}`)
}

/** The lambda's parameters bound to values; every other name and table read goes to the enclosing runtime. */
export class LambdaScope implements Runtime {
  constructor(
    private readonly parent: Runtime,
    private readonly names: readonly string[],
    private readonly values: readonly Value[],
  ) {}
  get(name: string): Value {
    if (this.names[0] === name) return this.values[0] ?? null
    const i = this.names.indexOf(name)
    return i >= 0 ? (this.values[i] ?? null) : this.parent.get(name)
  }
  read<E extends TableEntry>(entry: E, on?: TableReadOn<E>): TableValueOf<E> {
    return this.parent.read(entry, on)
  }
  slot(depth: number, index: number): Value {
    return this.parent.slot(depth, index)
  }
  inForce(entry: TableEntry, date: string): boolean {
    return this.parent.inForce(entry, date)
  }
  family(id: string): TableFamily | undefined {
    return this.parent.family(id)
  }
  citeValue(entry: ParameterEntry, dated: Dated<Scalar>): void {
    this.parent.citeValue(entry, dated)
  }
  dataDate(asOf: string): void {
    this.parent.dataDate(asOf)
  }
  work(units: number): void {
    this.parent.work?.(units)
  }
  currency(): Currency {
    return this.parent.currency()
  }
  keep<T extends Value>(key: string, compute: () => T): T {
    return this.parent.keep ? this.parent.keep(key, compute) : compute()
  }
}

/** The most steps a call of literals may charge and still be worked out at load. */
const MOST_STEPS_FOLDED = 1000

/**
 * A pure function of constants, called once at load. The steps it charges (a power's series, a
 * range's items) are charged again at each evaluation, so that folding changes no step count; a
 * call that charges is therefore no constant for the expression around it. Undefined when the
 * call fails at load: the evaluation reports the fault as it always has.
 */
function atLoadValue(impl: FunctionSpec['impl'], args: Compiled[], where: string, name: string): Compiled | undefined {
  let units = 0
  const cx: CallContext = {
    rt: NO_RUNTIME,
    fail: (message: string): never => {
      throw new EvaluationError(`${name}(): ${message}${where}`)
    },
    work: (n: number): void => {
      if (n > 0) units += n
      // A large piece of work is left to the evaluation, where the step budget bounds it.
      if (units > MOST_STEPS_FOLDED) throw new EvaluationError('too much work to fold')
    },
  }
  let value: Value
  try {
    value = impl(args.map((a) => constants.get(a)!.value), cx)
  } catch {
    return undefined
  }
  if (units === 0) return constant(value)
  const charged = units
  return (rt) => {
    rt.work?.(charged)
    return value
  }
}

/** Read a table on the calculation date through the runtime (cited then; later reads are answered from the first). */
function readTable(rt: Runtime, entry: TableEntry): void {
  if (entry.kind === 'marginal_rate_schedule' || entry.kind === 'lookup' || entry.kind === 'parameter') rt.read(entry)
}

/** A function written as an argument (`x => x.amount > 0`), compiled to a closure over the runtime it is called in. */
function lambda(node: Node, ctx: Ctx, arity: number): (rt: Runtime) => Lambda {
  const params = ((node.params as Node[] | null) ?? []).map((p) => {
    if (p.type !== 'Identifier') throw new CompileError('a function parameter is a name', 0, p)
    return String(p.name)
  })
  if (params.length !== arity) throw new CompileError(`the function takes ${arity} parameter(s), not ${params.length}`, 0, node)
  // Its parameters are names of its body only: what else the body reads is a dependency of the formula.
  const inner: Ctx = {
    ...ctx,
    deps: new Set(),
    resolver: {
      ...ctx.resolver,
      hasValue: (n) => params.includes(n) || ctx.resolver.hasValue(n),
      // A parameter is read by name (it shadows an outer name); the rest keep their slots, since a
      // lambda's scope is no level of slots.
      slot: (n) => (params.includes(n) ? undefined : ctx.resolver.slot?.(n)),
    },
  }
  const body = value(node.body as Node, inner)
  for (const d of inner.deps) if (!params.includes(d)) ctx.deps.add(d)
  // Each call is a step: a lambda is how a list function (filter, map, sort_by, any…) loops, so
  // counting here bounds them all without each function counting its own calls.
  // Most lambdas take one parameter (`x => x.amount > 0`): called without a rest array.
  if (params.length === 1)
    return (rt) => (arg: Value) => {
      rt.work?.(1)
      return body(new LambdaScope(rt, params, [arg]))
    }
  return (rt) =>
    (...args: Value[]) => {
      rt.work?.(1)
      return body(new LambdaScope(rt, params, args))
    }
}

function call(node: Node, ctx: Ctx): Compiled {
  const callee = node.callee as Node
  if (callee.type !== 'Identifier') throw new CompileError('only named functions may be called', 0, callee)
  const name = callee.name as string
  const spec = ctx.resolver.fn?.(name) ?? libraryFunction(name)
  if (!spec) throw new CompileError(`unknown function '${name}()'; known: ${functionNames().join(', ')}`, 0, callee)
  const argNodes = node.arguments as Node[]
  const required = spec.required ?? spec.args.length
  if (argNodes.length < required || (!spec.rest && argNodes.length > spec.args.length)) {
    const count = spec.rest ? `at least ${required}` : required === spec.args.length ? `${required}` : `${required} to ${spec.args.length}`
    throw new CompileError(`${name}() takes ${count} argument(s), got ${argNodes.length}`, 0, callee)
  }
  let table: TableEntry | undefined
  let familyId: string | undefined
  const lambdas: ((rt: Runtime) => Lambda)[] = []
  const args: Compiled[] = argNodes.map((arg, i) => {
    const want = spec.args[i] ?? spec.rest!
    if (typeof want === 'object' && 'family' in want) {
      if (arg.type !== 'Literal' || typeof arg.value !== 'string') throw new CompileError(`${name}() takes a table family named as text (such as 'employment.law') as argument ${i + 1}`, 0, arg)
      const id = arg.value
      familyId = id
      return () => id
    }
    if (typeof want === 'object' && 'table' in want) {
      const piece = compile(arg, ctx)
      const entry = piece.table ?? piece.parameter
      if (!entry || entry.kind !== want.table) throw new CompileError(`${name}() takes a ${want.table.replace(/_/g, '-')} table as argument ${i + 1}`, 0, arg)
      table = entry
      const problem = spec.checkTable?.(entry, argNodes.length)
      if (problem) throw new CompileError(problem, 0, arg)
      return () => null
    }
    if (typeof want === 'object' && 'lambda' in want) {
      if (arg.type !== 'ArrowFunctionExpression') throw new CompileError(`argument ${i + 1} of ${name}() is a function such as x => x.amount`, 0, arg)
      lambdas[i] = lambda(arg, ctx, want.lambda)
      return () => null
    }
    if (arg.type === 'ArrowFunctionExpression') throw new CompileError(`${name}() takes no function as argument ${i + 1}`, 0, arg)
    return value(arg, ctx)
  })
  const impl = spec.impl
  const where = ` in formula \`${ctx.text}\``
  if (spec.pure && !table && familyId === undefined && lambdas.length === 0 && args.every((a) => constants.has(a))) {
    const atLoad = atLoadValue(impl, args, where, name)
    if (atLoad) return atLoad
  }
  const cx: CallContext = {
    rt: undefined as unknown as Runtime,
    fail: (message: string): never => {
      throw new EvaluationError(`${name}(): ${message}${where}`)
    },
    work: (units: number): void => {
      if (units > 0) cx.rt.work?.(units)
    },
  }
  if (table) cx.table = table
  const n = args.length
  const first = spec.tableFirst ? table : undefined
  // Most calls take values only (given, year, min, count): their arguments, then the function.
  if (!first && familyId === undefined && lambdas.length === 0) {
    return (rt) => {
      const values: Value[] = new Array(n)
      for (let i = 0; i < n; i++) values[i] = args[i]!(rt)
      const outer = cx.rt
      cx.rt = rt
      try {
        return impl(values, cx)
      } finally {
        cx.rt = outer
      }
    }
  }
  return (rt) => {
    if (first) readTable(rt, first)
    const values: (Value | Lambda)[] = new Array(n)
    for (let i = 0; i < n; i++) values[i] = lambdas[i] ? lambdas[i]!(rt) : args[i]!(rt)
    // One context per call site; a nested evaluation of the same site (through a lambda) restores it.
    const outer = cx.rt
    cx.rt = rt
    if (familyId !== undefined) {
      const family = rt.family(familyId)
      if (!family) throw new EvaluationError(`${name}(): no table family ${familyId}${where}`)
      cx.family = family
    }
    try {
      return impl(values, cx)
    } finally {
      cx.rt = outer
    }
  }
}
