/**
 * @module The load-time type check of a formula: the type of every node, and a problem at the
 * offending part of the text where an operator, a function or a field is given the wrong type.
 *
 * Formulas are checked in dependency order (rule-set-types.ts), so a name's type is known when it is read:
 * an input's declared type, a table's kind, a formula's inferred type. What cannot be known at load
 * (a called rule set's result, a record read from a data set without declared columns) is `any`,
 * which accepts and is accepted everywhere; the evaluation still checks those values as it runs.
 * After a problem the node is typed `any`, so one mistake is reported once, not at every use.
 */
import type jsep from 'jsep'
import { isoDateProblem } from '../values/calendar.js'
import type { ArgType, FunctionSpec, ValueType } from '../functions/spec.js'
import { locate, type Span } from '../load/locate.js'
import type { TableEntry, TableFamily } from '../data/tables.js'
import { Dec } from '../values/decimal.js'
import type { Value } from '../model/types.js'

type Node = jsep.Expression

/** What the checker may ask of the place a formula stands in. @api private */
export interface TypeEnv {
  /** The type of a value name (input, formula, list-item field, lambda parameter), if it is one. */
  typeOf(name: string): ValueType | undefined
  /** A table by local name or full id. */
  table(name: string): TableEntry | undefined
  /** A function by name: the rule set's own first, then the library. */
  fn(name: string): FunctionSpec | undefined
  /** A table family by its folder id (`employment.law`), where the catalog is known. */
  family?(name: string): TableFamily | undefined
  /** The ids of every family, for the message naming an unknown one. */
  familyNames?(): string[]
}

export interface TypeProblem {
  message: string
  /** Offset in the formula text of the offending part. */
  index: number
}

export interface Checked {
  type: ValueType
  problems: TypeProblem[]
}

export const ANY: ValueType = 'any'
const NUMBERS = new Set<ValueType>(['amount', 'integer', 'rate'])

export function isNumber(t: ValueType): boolean {
  return typeof t === 'string' && NUMBERS.has(t)
}

/** A type as a message names it: "an amount", "text", "a list of dates". @api public */
export function typeName(t: ValueType | ArgType): string {
  if (typeof t === 'object') {
    if ('list' in t) return t.list === ANY ? 'a list' : `a list of ${plural(t.list)}`
    if ('record' in t) return 'a record'
    if ('table' in t) return `a ${t.table.replace(/_/g, '-')} table`
    if ('family' in t) return 'a table family named as text'
    return `a function of ${t.lambda} argument(s)`
  }
  switch (t) {
    case 'amount':
    case 'number':
      return 'an amount'
    case 'integer':
      return 'a whole number'
    case 'rate':
      return 'a rate'
    case 'text':
      return 'text'
    case 'date':
      return 'a date'
    case 'boolean':
      return 'true or false'
    case 'null':
      return 'null'
    case 'list':
      return 'a list'
    case 'numbers':
      return 'an amount or a list of amounts'
    case 'any':
      return 'any value'
  }
}

function plural(t: ValueType | ArgType): string {
  const name = typeName(t)
  if (name === 'text' || name === 'true or false' || name === 'null' || name === 'any value') return name
  return name.replace(/^an? /, '').replace(/^(amount|whole number|rate|date|record|list)/, '$1s')
}

/** Whether a value of type `t` may stand where `want` is expected. @api public */
export function accepts(want: ArgType, t: ValueType): boolean {
  if (t === ANY || want === ANY) return true
  if (typeof want === 'object') {
    if ('list' in want) return typeof t === 'object' && 'list' in t && accepts(want.list, t.list)
    if ('record' in want) return typeof t === 'object' && 'record' in t
    return false
  }
  switch (want) {
    case 'number':
    case 'amount':
    case 'integer':
    case 'rate':
      return isNumber(t)
    case 'numbers':
      return isNumber(t) || (typeof t === 'object' && 'list' in t && (isNumber(t.list) || t.list === ANY || t.list === 'null'))
    case 'list':
      return typeof t === 'object' && 'list' in t
    // A date is text in ISO form; text where a date is wanted is checked as it is read.
    case 'text':
    case 'date':
      return t === 'text' || t === 'date'
    case 'boolean':
    case 'null':
      return t === want
    case 'any':
      return true
  }
}

/** The type of a value that is one of two types (the branches of ?:, the items of a list). */
export function join(a: ValueType, b: ValueType): ValueType {
  if (a === ANY || b === ANY) return ANY
  if (a === 'null') return b
  if (b === 'null') return a
  if (a === b) return a
  if (isNumber(a) && isNumber(b)) return 'amount'
  if ((a === 'date' && b === 'text') || (a === 'text' && b === 'date')) return 'text'
  if (typeof a === 'object' && typeof b === 'object') {
    if ('list' in a && 'list' in b) return { list: join(a.list, b.list) }
    if ('record' in a && 'record' in b) {
      if (a.record === 'open' || b.record === 'open') return { record: 'open' }
      const fields: Record<string, ValueType> = {}
      for (const k of new Set([...Object.keys(a.record), ...Object.keys(b.record)])) {
        fields[k] = join(Object.hasOwn(a.record, k) ? a.record[k]! : 'null', Object.hasOwn(b.record, k) ? b.record[k]! : 'null')
      }
      return { record: fields }
    }
  }
  return ANY
}

/** The type a table argument stands for: what a function reads from it. */
export function tableType(entry: TableEntry): ValueType {
  switch (entry.kind) {
    case 'parameter':
      return entry.history.map((h) => scalarType(h.value)).reduce(join)
    case 'lookup': {
      const sample = entry.history[0]?.value.values().next().value
      if (!sample) return { record: 'open' }
      const fields: Record<string, ValueType> = {}
      for (const [k, v] of Object.entries(sample)) fields[k] = scalarType(v)
      return { record: fields }
    }
    case 'series':
      return 'amount'
    case 'marginal_rate_schedule':
      return { list: { record: { over: 'amount', rate: 'rate', base: 'amount' } } }
    case 'dataset':
      // A row: each column as its type says (an empty cell reads as null).
      return { record: { ...entry.descriptor.columns } }
  }
  return ANY
}

function scalarType(v: unknown): ValueType {
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'string') return isoDateProblem(v) === undefined ? 'date' : 'text'
  if (typeof v === 'object' && v !== null) return 'amount'
  return ANY
}

/** Check one parsed formula; `spans` locate its nodes in `text`. @api public */
export function checkTypes(ast: Node, text: string, env: TypeEnv): Checked {
  // Positions serve only to report a problem, and most formulas have none: found at the first one.
  let spans: Map<Node, Span> | undefined
  const problems: TypeProblem[] = []
  const at = (node: Node): number => (spans ??= locate(ast, text)).get(node)?.start ?? 0
  const report = (node: Node, message: string): ValueType => {
    problems.push({ message, index: at(node) })
    return ANY
  }
  const type = infer(ast, env, { report })
  return { type, problems }
}

interface Ctx {
  report(node: Node, message: string): ValueType
}

/** The chain of names `a.b.c`, or undefined for anything else. */
function chain(node: Node): Node[] | undefined {
  if (node.type === 'Identifier') return [node]
  if (node.type === 'MemberExpression' && !node.computed) {
    const head = chain(node.object as Node)
    if (head && (node.property as Node).type === 'Identifier') return [...head, node.property as Node]
  }
  return undefined
}

/** The type of `t.key`; across a list, a list of the field (null where an item lacks it). */
function field(t: ValueType, key: string, node: Node, ctx: Ctx): ValueType {
  if (t === ANY) return ANY
  if (typeof t === 'object' && 'list' in t) {
    const item = field(t.list, key, node, ctx)
    return { list: item }
  }
  if (typeof t === 'object' && 'record' in t) {
    if (t.record === 'open') return ANY
    if (!Object.hasOwn(t.record, key)) return ctx.report(node, `no field '${key}' here; the fields are ${Object.keys(t.record).join(', ') || 'none'}`)
    return t.record[key]!
  }
  if (t === 'null') return 'null'
  return ctx.report(node, `cannot read '${key}' of ${typeName(t)}`)
}

function infer(node: Node, env: TypeEnv, ctx: Ctx): ValueType {
  switch (node.type) {
    case 'Literal': {
      const v = node.value
      if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'amount'
      if (typeof v === 'boolean') return 'boolean'
      if (v === null) return 'null'
      if (typeof v === 'string') {
        if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
          const problem = isoDateProblem(v)
          return problem ? ctx.report(node, problem) : 'date'
        }
        return 'text'
      }
      return ANY
    }
    case 'Identifier':
    case 'MemberExpression': {
      const names = chain(node)
      if (!names) {
        const object = infer(node.object as Node, env, ctx)
        return field(object, String((node.property as Node).name), node.property as Node, ctx)
      }
      const head = String(names[0]!.name)
      const known = env.typeOf(head)
      if (known !== undefined) {
        let t = known
        for (const part of names.slice(1)) t = field(t, String(part.name), part, ctx)
        return t
      }
      // A table by its dotted id: a parameter is a value; another kind only an argument.
      const table = env.table(names.map((n) => String(n.name)).join('.'))
      if (table) return table.kind === 'parameter' ? tableType(table) : ANY
      return ctx.report(names[0]!, `unknown name '${head}'`)
    }
    case 'UnaryExpression': {
      const arg = node.argument as Node
      const t = infer(arg, env, ctx)
      if (node.operator === '!') return accepts('boolean', t) ? 'boolean' : ctx.report(arg, `the operand of ! must be true or false, not ${typeName(t)}`)
      return accepts('number', t) ? (t === ANY ? 'amount' : t) : ctx.report(arg, `the operand of ${String(node.operator)} must be an amount, not ${typeName(t)}`)
    }
    case 'BinaryExpression':
      return binary(node, env, ctx)
    case 'ConditionalExpression': {
      const test = node.test as Node
      const t = infer(test, env, ctx)
      if (!accepts('boolean', t)) ctx.report(test, `the condition of ?: must be true or false, not ${typeName(t)}`)
      return join(infer(node.consequent as Node, env, ctx), infer(node.alternate as Node, env, ctx))
    }
    case 'ArrayExpression': {
      const items = ((node.elements as (Node | null)[]) ?? []).filter((e): e is Node => e !== null).map((e) => infer(e, env, ctx))
      return { list: items.length === 0 ? ANY : items.reduce(join) }
    }
    case 'CallExpression':
      return call(node, env, ctx)
    case 'ArrowFunctionExpression':
      return ctx.report(node, 'a function (x => …) may stand only as the argument of a function that takes one')
  }
  return ctx.report(node, `unsupported expression ${node.type}`)
}

function binary(node: Node, env: TypeEnv, ctx: Ctx): ValueType {
  const op = String(node.operator)
  const leftNode = node.left as Node
  const rightNode = node.right as Node
  const left = infer(leftNode, env, ctx)
  const right = infer(rightNode, env, ctx)
  /** Whether both operands are of the wanted type; each one that is not is reported where it stands. */
  const both = (want: ArgType, what: string): boolean => {
    const leftOk = accepts(want, left)
    const rightOk = accepts(want, right)
    if (!leftOk) ctx.report(leftNode, `the left of ${op} must be ${what}, not ${typeName(left)}`)
    if (!rightOk) ctx.report(rightNode, `the right of ${op} must be ${what}, not ${typeName(right)}`)
    return leftOk && rightOk
  }
  switch (op) {
    case '+':
    case '-':
    case '*':
    case '/':
      if (!both('number', 'an amount')) return ANY
      return op !== '/' && left === 'integer' && right === 'integer' ? 'integer' : 'amount'
    case '<':
    case '<=':
    case '>':
    case '>=': {
      // Two amounts, or two dates (ISO dates order as text).
      const dates = accepts('date', left) && accepts('date', right) && (left === 'date' || right === 'date')
      if (!dates) both('number', 'an amount (or both sides dates)')
      return 'boolean'
    }
    case '==':
    case '!=': {
      if (left !== ANY && right !== ANY && left !== 'null' && right !== 'null' && join(left, right) === ANY) {
        ctx.report(rightNode, `cannot compare ${typeName(left)} with ${typeName(right)}`)
      }
      return 'boolean'
    }
    case '&&':
    case '||':
      both('boolean', 'true or false')
      return 'boolean'
  }
  return ctx.report(node, `unsupported operator ${op}`)
}

function call(node: Node, env: TypeEnv, ctx: Ctx): ValueType {
  const callee = node.callee as Node
  const args = (node.arguments as Node[]) ?? []
  if (callee.type !== 'Identifier') return ctx.report(callee, 'only named functions may be called')
  const name = String(callee.name)
  const spec = env.fn(name)
  if (!spec) return ctx.report(callee, `unknown function '${name}()'`)
  const required = spec.required ?? spec.args.length
  const most = spec.rest ? Infinity : spec.args.length
  if (args.length < required || args.length > most) {
    const count = spec.rest ? `at least ${required}` : required === spec.args.length ? `${required}` : `${required} to ${spec.args.length}`
    return ctx.report(callee, `${name}() takes ${count} argument(s), got ${args.length}`)
  }
  const wantOf = (i: number): ArgType => spec.args[i] ?? spec.rest!
  // Lambdas are typed after the other arguments: their parameters take their types from them.
  const types: ValueType[] = args.map(() => ANY)
  let family: TableFamily | undefined
  args.forEach((arg, i) => {
    const want = wantOf(i)
    if (typeof want === 'object' && 'family' in want) {
      if (arg.type !== 'Literal' || typeof arg.value !== 'string') ctx.report(arg, `${name}() takes a table family named as text (such as 'employment.law') as argument ${i + 1}`)
      else if (env.family) {
        family = env.family(arg.value)
        if (!family) ctx.report(arg, `no table family '${arg.value}'; the families are ${(env.familyNames?.() ?? []).join(', ')}`)
      }
      types[i] = 'text'
      return
    }
    if (typeof want === 'object' && 'table' in want) {
      const names = chain(arg)
      const table = names ? env.table(names.map((n) => String(n.name)).join('.')) : undefined
      if (!table || table.kind !== want.table) ctx.report(arg, `${name}() takes ${typeName(want)} as argument ${i + 1}`)
      else types[i] = tableType(table)
      return
    }
    if (typeof want === 'object' && 'lambda' in want) return
    if (arg.type === 'ArrowFunctionExpression') {
      ctx.report(arg, `${name}() takes no function as argument ${i + 1}`)
      return
    }
    const t = infer(arg, env, ctx)
    if (!accepts(want, t)) ctx.report(arg, `argument ${i + 1} of ${name}() must be ${typeName(want)}, not ${typeName(t)}`)
    else if (arg.type === 'Literal' && spec.checkLiteral) {
      const problem = spec.checkLiteral(i, (typeof arg.value === 'number' ? new Dec(String(arg.raw)) : arg.value) as Value)
      if (problem) ctx.report(arg, problem)
    }
    types[i] = t
  })
  args.forEach((arg, i) => {
    const want = wantOf(i)
    if (typeof want !== 'object' || !('lambda' in want)) return
    if (arg.type !== 'ArrowFunctionExpression') {
      ctx.report(arg, `argument ${i + 1} of ${name}() must be a function such as x => x.amount`)
      return
    }
    const params = ((arg.params as Node[] | null) ?? []).map((p) => String(p.name))
    if (params.length !== want.lambda) {
      ctx.report(arg, `the function given to ${name}() takes ${want.lambda} parameter(s), not ${params.length}`)
      return
    }
    const paramTypes = want.paramTypes(types)
    const inner: TypeEnv = {
      typeOf: (n) => {
        const k = params.indexOf(n)
        return k >= 0 ? (paramTypes[k] ?? ANY) : env.typeOf(n)
      },
      table: env.table,
      fn: env.fn,
    }
    const body = infer(arg.body as Node, inner, ctx)
    if (want.body !== undefined && !accepts(want.body, body)) ctx.report(arg.body as Node, `the function given to ${name}() must give ${typeName(want.body)}, not ${typeName(body)}`)
    types[i] = body
  })
  const impossible = foldProblem(spec, args)
  if (impossible) return ctx.report(callee, `${name}(): ${impossible}`)
  if (spec.parameterArg !== undefined && family) {
    // A parameter named as a literal: its type across the members that have it (the union).
    const named = args[spec.parameterArg]
    if (named?.type === 'Literal' && typeof named.value === 'string') {
      const found = [...family.members.values()].map((m) => m.parameters.get(named.value as string)).filter((p): p is NonNullable<typeof p> => p !== undefined)
      // No member has it yet (a table the members will carry once loaded): any, read as null until then.
      return found.length === 0 ? ANY : found.map(tableType).reduce(join)
    }
    return ANY
  }
  return typeof spec.returns === 'function' ? spec.returns(types) : spec.returns
}

/** Thrown by a folded call's `fail`: the value its literal arguments can never have. */
class Impossible extends Error {}

/**
 * A pure function whose arguments are all literals is run at load: what it refuses then (30
 * February, the square root of −1) it would refuse on every request, so it is a load error.
 */
function foldProblem(spec: FunctionSpec, args: Node[]): string | undefined {
  if (!spec.pure || args.length === 0 || !args.every((a) => a.type === 'Literal')) return undefined
  const values = args.map((a) => (typeof a.value === 'number' ? new Dec(String(a.raw)) : (a.value as Value)))
  try {
    spec.impl(values, {
      rt: undefined as never,
      fail: (message: string) => {
        throw new Impossible(message)
      },
      // Run once at load, on literals: no request's limits to count against.
      work: () => {},
    })
  } catch (error) {
    if (error instanceof Impossible) return error.message
    return undefined
  }
  return undefined
}
