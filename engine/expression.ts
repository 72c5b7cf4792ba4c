/**
 * @module Formula expressions: parsed once at load by jsep, compiled to closures over decimals.
 *
 * The grammar is jsep's (arithmetic, comparison, `&&`, `||`, `!`, `?:`, calls, member access) with
 * one meaning per operator: `+ - * /` on amounts only, `==` and `!=` on values of one type. A name is
 * an input, a formula, a field of the current list item, or a table (by its name in the mirrored
 * tables file, or by its full id such as `estate.federal.rate_schedule`).
 */
import jsep from 'jsep'
import { Dec, compare, isDec } from './decimal.js'
import { EvaluationError } from './errors.js'
import { locate } from './locate.js'
import { lookupKey, marginalTax, type TableEntry } from './tables.js'
import type { PathSegment } from './source.js'
import type { Compiled, Runtime, Value } from './types.js'

/** Resolves the names a formula may use, at load. @api private */
export interface NameResolver {
  /** An input, formula, list-item field or unknown visible where the formula stands. */
  hasValue(name: string): boolean
  /** A table by local name or full id. */
  table(name: string): TableEntry | undefined
}

export interface CompiledExpression {
  run: Compiled
  /** Names of values (not tables) the expression reads: its edges in the dependency graph. */
  deps: Set<string>
  tables: Set<TableEntry>
  /** The parsed formula and its text, for the load-time type check (typing.ts). */
  ast?: Node
  text?: string
  /** A record built field by field (a call's object input) instead of one formula. */
  fields?: [string, CompiledExpression][]
  /** Where the formula stands in its rule file, set by the rule set compiler. */
  path?: PathSegment[]
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
    ast = jsep(text)
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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

function isDate(v: Value): v is string {
  return typeof v === 'string' && ISO_DATE.test(v)
}

function date(ctx: Ctx, v: Value, what: string): string {
  if (isDate(v)) return v
  fail(ctx, `${what} must be a date (YYYY-MM-DD), got ${describe(v)}`)
}

function list(ctx: Ctx, v: Value, what: string): Value[] {
  if (Array.isArray(v)) return v
  fail(ctx, `${what} must be a list, got ${describe(v)}`)
}

function integer(ctx: Ctx, v: Value, what: string): number {
  const d = dec(ctx, v, what)
  if (!d.isInteger() || d.abs().gt(1_000_000)) fail(ctx, `${what} must be a whole number, got ${d.toString()}`)
  return d.toNumber()
}

/** Lists longer than this are refused: a range or grid is a loop, and a loop needs a bound. */
const MAX_LIST = 10_000

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
  if (Array.isArray(v)) return v.map((item) => (item === null || (typeof item === 'object' && !isDec(item) && !Array.isArray(item) && !(key in item)) ? null : field(ctx, item, key)))
  if (v !== null && typeof v === 'object' && !isDec(v)) {
    if (!(key in v)) fail(ctx, `record has no field '${key}'`)
    return (v as Record<string, Value>)[key] as Value
  }
  fail(ctx, `cannot read '${key}' of ${describe(v)}`)
}

function compile(node: Node, ctx: Ctx): Piece {
  switch (node.type) {
    case 'Literal': {
      const value = node.value
      if (typeof value === 'number') {
        const d = new Dec(String(node.raw))
        return { fn: () => d }
      }
      if (typeof value === 'string' || typeof value === 'boolean' || value === null) return { fn: () => value as Value }
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
        // A bare name is most reads, and a name with one field most of the rest.
        if (rest.length === 0) return { fn: (rt) => rt.get(head) }
        if (rest.length === 1) {
          const key = rest[0]!
          return { fn: (rt) => field(ctx, rt.get(head), key) }
        }
        return {
          fn: (rt) => {
            let v = rt.get(head)
            for (const key of rest) v = field(ctx, v, key)
            return v
          },
        }
      }
      const id = chain.join('.')
      const table = ctx.resolver.table(id)
      if (!table) throw new CompileError(`unknown name '${id}'`, 0, node)
      ctx.tables.add(table)
      if (table.kind === 'parameter') return { fn: (rt) => rt.parameter(table), parameter: table }
      return { fn: () => fail(ctx, `table ${id} used as a value`), table }
    }
    case 'UnaryExpression': {
      const arg = value(node.argument as Node, ctx)
      switch (node.operator) {
        case '-':
          return { fn: (rt) => dec(ctx, arg(rt), 'operand of -').neg() }
        case '+':
          return { fn: (rt) => dec(ctx, arg(rt), 'operand of +') }
        case '!':
          return { fn: (rt) => !bool(ctx, arg(rt), 'operand of !') }
      }
      throw new CompileError(`unsupported operator ${String(node.operator)}`)
    }
    case 'BinaryExpression':
      return { fn: binary(node, ctx) }
    case 'ConditionalExpression': {
      const test = value(node.test as Node, ctx)
      const yes = value(node.consequent as Node, ctx)
      const no = value(node.alternate as Node, ctx)
      return { fn: (rt) => (bool(ctx, test(rt), 'condition of ?:') ? yes(rt) : no(rt)) }
    }
    case 'ArrayExpression': {
      const items = (node.elements as Node[]).map((e) => value(e, ctx))
      return { fn: (rt) => items.map((f) => f(rt)) }
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
  const op = node.operator as string
  const left = value(node.left as Node, ctx)
  const right = value(node.right as Node, ctx)
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

type Impl = (ctx: Ctx, args: Compiled[], rt: Runtime, table?: TableEntry) => Value

export interface FunctionSpec {
  min: number
  max: number
  /** The first argument is a table of this kind. */
  table?: TableEntry['kind']
  impl: Impl
}

const amountsOf = (ctx: Ctx, args: Compiled[], rt: Runtime, name: string): Dec[] => {
  const out: Dec[] = []
  for (const a of args) {
    const v = a(rt)
    if (Array.isArray(v)) for (const item of v) out.push(isDec(item) ? item : dec(ctx, item, `item of ${name}()`))
    else out.push(isDec(v) ? v : dec(ctx, v, `argument of ${name}()`))
  }
  return out
}

/** The functions a formula may call. Each is general: no rate, threshold or date of law lives here. */
export const FUNCTIONS: Record<string, FunctionSpec> = {
  min: { min: 1, max: 99, impl: (ctx, args, rt) => extreme(nonEmpty(ctx, amountsOf(ctx, args, rt, 'min'), 'min'), 1) },
  max: { min: 1, max: 99, impl: (ctx, args, rt) => extreme(nonEmpty(ctx, amountsOf(ctx, args, rt, 'max'), 'max'), -1) },
  sum: { min: 1, max: 99, impl: (ctx, args, rt) => amountsOf(ctx, args, rt, 'sum').reduce((a, b) => a.plus(b), new Dec(0)) },
  abs: { min: 1, max: 1, impl: (ctx, [x], rt) => dec(ctx, x!(rt), 'argument of abs()').abs() },
  count: {
    min: 1,
    max: 1,
    impl: (ctx, [list], rt) => {
      const v = list!(rt)
      if (!Array.isArray(v)) fail(ctx, `count() takes a list, got ${describe(v)}`)
      return new Dec(v.length)
    },
  },
  contains: {
    min: 2,
    max: 2,
    impl: (ctx, [list, item], rt) => {
      const v = list!(rt)
      if (!Array.isArray(v)) fail(ctx, `contains() takes a list, got ${describe(v)}`)
      const x = item!(rt)
      return v.some((e) => same(ctx, e, x))
    },
  },
  /** Tax under a marginal-rate schedule in force on the calculation date. */
  schedule: {
    min: 2,
    max: 2,
    table: 'marginal_rate_schedule',
    impl: (ctx, [, amount], rt, table) => {
      if (table?.kind !== 'marginal_rate_schedule') fail(ctx, 'schedule() needs a marginal-rate schedule')
      return marginalTax(rt.schedule(table), dec(ctx, amount!(rt), 'amount of schedule()'))
    },
  },
  /** The rate of the bracket that taxes the next dollar above `amount`. */
  marginal_rate: {
    min: 2,
    max: 2,
    table: 'marginal_rate_schedule',
    impl: (ctx, [, amount], rt, table) => {
      if (table?.kind !== 'marginal_rate_schedule') fail(ctx, 'marginal_rate() needs a marginal-rate schedule')
      const x = dec(ctx, amount!(rt), 'amount of marginal_rate()')
      const brackets = rt.schedule(table).filter((b) => compare(b.over, x) < 1)
      const bracket = brackets[brackets.length - 1]
      if (!bracket) fail(ctx, `${table.id} has no bracket at ${x.toString()}`)
      return bracket.rate
    },
  },
  /** Text made of its arguments in order; an amount prints as written (1500, 0.05). */
  concat: {
    min: 1,
    max: 20,
    impl: (ctx, args, rt) =>
      args
        .map((a) => {
          const v = a(rt)
          if (isDec(v)) return v.toFixed()
          if (typeof v === 'string') return v
          fail(ctx, `concat() joins text and amounts, got ${describe(v)}`)
        })
        .join(''),
  },
  /** The items of a list of lists, in one list. */
  flatten: { min: 1, max: 1, impl: (ctx, [l], rt) => list(ctx, l!(rt), 'argument of flatten()').flatMap((v) => (Array.isArray(v) ? v : [v])) },
  /** The list without its null items. */
  compact: { min: 1, max: 1, impl: (ctx, [l], rt) => list(ctx, l!(rt), 'argument of compact()').filter((v) => v !== null) },
  /** The row of a keyed lookup in force on the calculation date; a missing row is an error. */
  lookup: {
    min: 2,
    max: 9,
    table: 'lookup',
    impl: (ctx, [, ...keys], rt, table) => {
      if (table?.kind !== 'lookup') fail(ctx, 'lookup() needs a lookup table')
      if (keys.length !== table.keys.length) fail(ctx, `lookup(${table.id}) takes ${table.keys.length} key(s)`)
      const values = keys.map((k) => k(rt))
      const row = rt.lookup(table).get(rowKey(values))
      if (!row) fail(ctx, `${table.id} has no row for ${values.map((v) => describe(v)).join(', ')}`)
      return row as Value
    },
  },
  /** Whether a keyed lookup has a row for these keys. */
  has_row: {
    min: 2,
    max: 9,
    table: 'lookup',
    impl: (ctx, [, ...keys], rt, table) => {
      if (table?.kind !== 'lookup') fail(ctx, 'has_row() needs a lookup table')
      const values = keys.map((k) => k(rt))
      return rt.lookup(table).has(rowKey(values))
    },
  },
  series: {
    min: 2,
    max: 2,
    table: 'series',
    impl: (ctx, [, key], rt, table) => {
      if (table?.kind !== 'series') fail(ctx, 'series() needs a series')
      const k = key!(rt)
      return rt.series(table, isDec(k) ? k.toString() : String(k))
    },
  },
  /** An ISO date string from year, month and day. */
  date: {
    min: 3,
    max: 3,
    impl: (ctx, args, rt) => {
      const [y, m, d] = args.map((a) => dec(ctx, a(rt), 'part of date()').toNumber())
      return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
    },
  },
  /** The year of an ISO date. */
  year: {
    min: 1,
    max: 1,
    impl: (ctx, [d], rt) => {
      const v = d!(rt)
      if (typeof v !== 'string' || !/^\d{4}-/.test(v)) fail(ctx, `year() takes a date, got ${describe(v)}`)
      return new Dec(v.slice(0, 4))
    },
  },
  /** Whether any (all) of a list of true/false values is true. */
  any: { min: 1, max: 1, impl: (ctx, [list], rt) => booleans(ctx, list!(rt), 'any').some((b) => b) },
  all: { min: 1, max: 1, impl: (ctx, [list], rt) => booleans(ctx, list!(rt), 'all').every((b) => b) },
  /** Whether a value was given (not null). */
  given: { min: 1, max: 1, impl: (_ctx, [x], rt) => x!(rt) !== null },
  /** x to the power y (a fractional y takes a root: the Table K adjustment, a discount factor). */
  pow: {
    min: 2,
    max: 2,
    impl: (ctx, [x, y], rt) => {
      const r = dec(ctx, x!(rt), 'base of pow()').pow(dec(ctx, y!(rt), 'exponent of pow()'))
      if (!r.isFinite()) fail(ctx, 'pow() has no finite value here')
      return r
    },
  },
  /** The greatest whole number not above x, and the least not below it. */
  floor: { min: 1, max: 1, impl: (ctx, [x], rt) => dec(ctx, x!(rt), 'argument of floor()').floor() },
  ceil: { min: 1, max: 1, impl: (ctx, [x], rt) => dec(ctx, x!(rt), 'argument of ceil()').ceil() },
  /** The month (1 to 12) of an ISO date. */
  month: { min: 1, max: 1, impl: (ctx, [d], rt) => new Dec(date(ctx, d!(rt), 'argument of month()').slice(5, 7)) },
  /** "YYYY-MM" of an ISO date: the key of a table by month (the § 7520 rates). */
  year_month: { min: 1, max: 1, impl: (ctx, [d], rt) => date(ctx, d!(rt), 'argument of year_month()').slice(0, 7) },
  /**
   * The date n months later (earlier when n < 0). A day past the end of the target month becomes its
   * last day (31 January + 1 month = 28 or 29 February): the declared rounding of month arithmetic.
   */
  add_months: {
    min: 2,
    max: 2,
    impl: (ctx, [d, n], rt) => {
      const text = date(ctx, d!(rt), 'date of add_months()')
      const months = Number(text.slice(0, 4)) * 12 + Number(text.slice(5, 7)) - 1 + integer(ctx, n!(rt), 'months of add_months()')
      const y = Math.floor(months / 12)
      const m = (months % 12) + 1
      const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
      const day = Math.min(Number(text.slice(8, 10)), last)
      return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`
    },
  },
  /** The whole numbers from a to b inclusive (empty when b < a). */
  range: {
    min: 2,
    max: 2,
    impl: (ctx, [a, b], rt) => {
      const from = integer(ctx, a!(rt), 'start of range()')
      const to = integer(ctx, b!(rt), 'end of range()')
      if (to - from + 1 > MAX_LIST) fail(ctx, `range() of more than ${MAX_LIST} items`)
      const out: Value[] = []
      for (let i = from; i <= to; i++) out.push(new Dec(i))
      return out
    },
  },
  /** from, from + step, … up to `to`, which is always the last point: a search grid. */
  grid: {
    min: 3,
    max: 3,
    impl: (ctx, [a, b, s], rt) => {
      const from = dec(ctx, a!(rt), 'start of grid()')
      const to = dec(ctx, b!(rt), 'end of grid()')
      const step = dec(ctx, s!(rt), 'step of grid()')
      if (!step.gt(0)) fail(ctx, 'the step of grid() must be above 0')
      if (to.lt(from)) fail(ctx, 'grid() ends before it starts')
      if (to.minus(from).div(step).gt(MAX_LIST)) fail(ctx, `grid() of more than ${MAX_LIST} points`)
      const out: Dec[] = []
      for (let x = from; x.lt(to); x = x.plus(step)) out.push(x)
      out.push(to)
      return out
    },
  },
  /** The sorted union of lists of amounts, each value once: a grid with exact break points added. */
  merge: {
    min: 1,
    max: 9,
    impl: (ctx, args, rt) => {
      const all = amountsOf(ctx, args, rt, 'merge').sort((x, y) => x.cmp(y))
      return all.filter((x, i) => i === 0 || !x.eq(all[i - 1]!))
    },
  },
  /** The item at index i of a list (0 is the first, -1 the last). */
  item: {
    min: 2,
    max: 2,
    impl: (ctx, [l, i], rt) => {
      const items = list(ctx, l!(rt), 'list of item()')
      const k = integer(ctx, i!(rt), 'index of item()')
      const v = items[k < 0 ? items.length + k : k]
      if (v === undefined) fail(ctx, `item() index ${k} is outside a list of ${items.length}`)
      return v
    },
  },
  /**
   * The local minima of the curve ys over xs, each a plateau {from, to, value}: a run of equal values
   * lower than its neighbours (or at an end). A curve that is not monotonic has several.
   */
  minima: {
    min: 2,
    max: 2,
    impl: (ctx, [x, y], rt) => {
      const xs = list(ctx, x!(rt), 'xs of minima()')
      const ys = list(ctx, y!(rt), 'ys of minima()').map((v) => dec(ctx, v, 'value of minima()'))
      if (xs.length !== ys.length) fail(ctx, 'minima() takes two lists of one length')
      const out: Value[] = []
      for (let i = 0; i < ys.length; ) {
        let j = i
        while (j + 1 < ys.length && ys[j + 1]!.eq(ys[i]!)) j++
        const lowerThanBefore = i === 0 || ys[i - 1]!.gt(ys[i]!)
        const lowerThanAfter = j === ys.length - 1 || ys[j + 1]!.gt(ys[j]!)
        if (lowerThanBefore && lowerThanAfter) out.push({ from: xs[i]!, to: xs[j]!, value: ys[i]! })
        i = j + 1
      }
      return out
    },
  },
  /** The runs of consecutive xs where flags is true, each {from, to}. */
  runs: {
    min: 2,
    max: 2,
    impl: (ctx, [x, f], rt) => {
      const xs = list(ctx, x!(rt), 'xs of runs()')
      const flags = booleans(ctx, f!(rt), 'runs')
      if (xs.length !== flags.length) fail(ctx, 'runs() takes two lists of one length')
      const out: Value[] = []
      for (let i = 0; i < flags.length; i++) {
        if (!flags[i]) continue
        let j = i
        while (j + 1 < flags.length && flags[j + 1]) j++
        out.push({ from: xs[i]!, to: xs[j]! })
        i = j
      }
      return out
    },
  },
  /** Whether a series has a point for this key (a § 7520 rate for this month). */
  has_point: {
    min: 2,
    max: 2,
    table: 'series',
    impl: (ctx, [, key], rt, table) => {
      if (table?.kind !== 'series') fail(ctx, 'has_point() needs a series')
      const k = key!(rt)
      return table.points.has(isDec(k) ? k.toString() : String(k))
    },
  },
  /** The keys of a series, sorted. */
  points: {
    min: 1,
    max: 1,
    table: 'series',
    impl: (ctx, _args, _rt, table) => {
      if (table?.kind !== 'series') fail(ctx, 'points() needs a series')
      return [...table.points.keys()].sort()
    },
  },
  /** Whether a parameter has a value in force on a date: a guard before reading it there. */
  in_force: {
    min: 2,
    max: 2,
    table: 'parameter',
    impl: (ctx, [, d], rt, table) => rt.inForce(table!, date(ctx, d!(rt), 'date of in_force()')),
  },
  /** The keys of a one-key lookup table in force on the calculation date, sorted. */
  keys: {
    min: 1,
    max: 1,
    table: 'lookup',
    impl: (ctx, _args, rt, table) => {
      if (table?.kind !== 'lookup' || table.keys.length !== 1) fail(ctx, 'keys() needs a lookup table with one key column')
      const column = table.keys[0]!
      return [...rt.lookup(table).values()].map((row) => String(row[column])).sort()
    },
  },
  /**
   * A parameter's value in force on a given date rather than the calculation date: a figure keyed
   * by another date of the case (the applicable age by date of birth).
   */
  value_at: {
    min: 2,
    max: 2,
    table: 'parameter',
    impl: (ctx, [, d], rt, table) => {
      if (table?.kind !== 'parameter') fail(ctx, 'value_at() needs a parameter')
      return rt.parameterAt(table, date(ctx, d!(rt), 'date of value_at()'))
    },
  },
}

/** The key a lookup row is indexed under (tables.ts), from the values a formula looks it up by. */
function rowKey(values: Value[]): string {
  const text = (v: Value) => (isDec(v) ? v.toString() : (v as string))
  // Most lookups have one key, whose key is its text: no list to build and join.
  return values.length === 1 ? String(text(values[0]!)) : lookupKey(values.map(text))
}

function booleans(ctx: Ctx, v: Value, name: string): boolean[] {
  if (!Array.isArray(v)) fail(ctx, `${name}() takes a list, got ${describe(v)}`)
  return v.map((b) => bool(ctx, b, `item of ${name}()`))
}

/**
 * The least (`above` 1) or greatest (`above` -1) amount, chosen as decimal.js's min and max choose
 * (a tie goes to the later amount while the kept one is positive, so min(0, -0) is -0; NaN wins),
 * without the copy of every argument they make.
 */
function extreme(list: Dec[], above: 1 | -1): Dec {
  let x = list[0]!
  for (let i = 1; i < list.length; i++) {
    const y = list[i]!
    if (y.isNaN()) return y
    const k = compare(x, y)
    if (k === above || (k === 0 && x.s === above)) x = y
  }
  return x
}

function nonEmpty(ctx: Ctx, list: Dec[], name: string): Dec[] {
  if (list.length === 0) fail(ctx, `${name}() of an empty list`)
  return list
}

function call(node: Node, ctx: Ctx): Compiled {
  const callee = node.callee as Node
  if (callee.type !== 'Identifier') throw new CompileError('only named functions may be called', 0, callee)
  const name = callee.name as string
  const spec = FUNCTIONS[name]
  if (!spec) throw new CompileError(`unknown function '${name}()'; known: ${Object.keys(FUNCTIONS).join(', ')}`, 0, callee)
  const argNodes = node.arguments as Node[]
  if (argNodes.length < spec.min || argNodes.length > spec.max) {
    throw new CompileError(`${name}() takes ${spec.min === spec.max ? spec.min : `${spec.min} to ${spec.max}`} argument(s), got ${argNodes.length}`, 0, callee)
  }
  let table: TableEntry | undefined
  const args: Compiled[] = argNodes.map((arg, i) => {
    if (i === 0 && spec.table) {
      const piece = compile(arg, ctx)
      const entry = piece.table ?? piece.parameter
      if (!entry || entry.kind !== spec.table) throw new CompileError(`${name}() takes a ${spec.table.replace(/_/g, '-')} table as its first argument`, 0, arg)
      table = entry
      return piece.fn
    }
    return value(arg, ctx)
  })
  const impl = spec.impl
  return (rt) => impl(ctx, args, rt, table)
}

