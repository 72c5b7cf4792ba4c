/**
 * @module A decision rule's `when`, written in the formula syntax, compiled to the json-rules-engine
 * condition tree that decides it (conditions.ts runs the tree; decisions.ts holds it to the engine).
 *
 * An analyst writes one language: `new_york_taxable_estate > basic_exclusion_amount &&
 * new_york_taxable_estate <= cliff_amount`, not `{ all: [{ fact, operator, value }] }`. The parts map
 * one to one: `&&` is `all`, `||` is `any`, `!` is `not`; a comparison of a name with a value or with
 * another name is a `{ fact, operator, value }` leaf; `contains([...], name)` is `in` and
 * `contains(name, value)` is `contains`; a bare name is `name == true`. Amounts (and dates, in
 * order) compare with the decimal operators (`lt lte gt gte eq neq`), text and true/false with
 * `equal` and `notEqual`.
 *
 * A leaf compares with ===, where a formula's `==` compares two amounts by value. So what the tree
 * would decide differently from the same text as a formula is refused here, with what to write
 * instead: `==` between two names (the tree cannot tell amounts from text), an amount in a list, a
 * computed operand (give it a name in `formulas:`). The whole `when` is also type-checked as a
 * formula that must be true or false (check/rule-set-types.ts), so a bare name that is not true or false, or a
 * text compared with an amount, is a load error too. One difference stays: json-rules-engine runs
 * every condition of a group, so a comparison that fails on its value (a null ordered) fails the
 * rule even where `&&` would have stopped before it.
 */
import type jsep from 'jsep'
import { CompileError } from './expression.js'
import { locate } from '../load/locate.js'

type Node = jsep.Expression

/** A json-rules-engine condition as this compiler writes it (no priority, path or named condition). */
export type Condition =
  | { all: Condition[] }
  | { any: Condition[] }
  | { not: Condition }
  | { fact: string; operator: string; value: unknown }

/** The top of a rule's conditions: json-rules-engine takes `all`, `any` or `not` there, never a leaf. */
export type TopCondition = Exclude<Condition, { fact: string }>

/**
 * The condition tree of a `when` already parsed (by compileExpression, which also checked its
 * names); throws a CompileError at the offending part of `text`. @api private
 */
export function conditionTree(ast: Node, text: string): TopCondition {
  try {
    const tree = condition(ast)
    return 'fact' in tree ? { all: [tree] } : tree
  } catch (error) {
    if (error instanceof CompileError && error.node && error.index === 0) error.index = locate(ast, text).get(error.node)?.start ?? 0
    throw error
  }
}

const MIRRORED: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' }
const ORDER: Record<string, string> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' }

function condition(node: Node): Condition {
  if (node.type === 'BinaryExpression' && (node.operator === '&&' || node.operator === '||')) {
    // `a && b && c` is one `all` of three, as an analyst reads it, not an `all` inside an `all`.
    const op = node.operator
    const parts: Condition[] = []
    const gather = (n: Node) => {
      if (n.type === 'BinaryExpression' && n.operator === op) {
        gather(n.left as Node)
        gather(n.right as Node)
      } else parts.push(condition(n))
    }
    gather(node)
    return op === '&&' ? { all: parts } : { any: parts }
  }
  if (node.type === 'UnaryExpression' && node.operator === '!') return { not: condition(node.argument as Node) }
  if (node.type === 'BinaryExpression' && (node.operator as string) in MIRRORED) return comparison(node)
  if (node.type === 'CallExpression' && (node.callee as Node).type === 'Identifier' && (node.callee as Node).name === 'contains') return contains(node)
  if (node.type === 'Literal') throw new CompileError(`a rule whose condition is the value ${String(node.raw)} decides nothing; write what it holds for, and the decision's default for what it does not`, 0, node)
  // A bare name: it holds when the value is true (check/rule-set-types.ts requires true or false).
  return { fact: fact(node, 'a condition'), operator: 'equal', value: true }
}

/** The fact a name (or a field of one) stands for; anything computed is refused. */
function fact(node: Node, what: string): string {
  const chain = names(node)
  if (chain) return chain.join('.')
  throw new CompileError(`${what} compares names and values; give the computed part a name of its own under formulas: and compare that name`, 0, node)
}

function names(node: Node): string[] | undefined {
  if (node.type === 'Identifier') return [node.name as string]
  if (node.type === 'MemberExpression' && !node.computed && (node.property as Node).type === 'Identifier') {
    const head = names(node.object as Node)
    return head && [...head, (node.property as Node).name as string]
  }
  return undefined
}

function isValue(node: Node): boolean {
  return node.type === 'Literal' || (node.type === 'UnaryExpression' && node.operator === '-' && (node.argument as Node).type === 'Literal')
}

/** A written value: an amount as its exact text (never a binary float), text, true, false or null. */
function literal(node: Node): { value: unknown; amount: boolean } {
  if (node.type === 'UnaryExpression') {
    const inner = literal(node.argument as Node)
    if (!inner.amount) throw new CompileError(`- applies to an amount, not ${String((node.argument as Node).raw)}`, 0, node)
    return { value: `-${String(inner.value)}`, amount: true }
  }
  if (typeof node.value === 'number') return { value: String(node.raw), amount: true }
  return { value: node.value, amount: false }
}

function comparison(node: Node): Condition {
  let op = node.operator as string
  let left = node.left as Node
  let right = node.right as Node
  // `0 < x` is `x > 0`: the fact stands on the left of a leaf.
  if (isValue(left) && !isValue(right)) {
    ;[left, right] = [right, left]
    op = MIRRORED[op]!
  }
  if (isValue(left)) throw new CompileError(`${op} compares two written values, which decides nothing; compare a name with a value`, 0, node)
  const name = fact(left, `the left of ${op}`)
  if (!isValue(right)) {
    const other = fact(right, `the right of ${op}`)
    const operator = ORDER[op]
    if (!operator) {
      throw new CompileError(
        `${op} between two names cannot tell amounts (compared by value) from text; compare amounts with <= and >=, or give the comparison a name of its own under formulas: and write that name`,
        0,
        node,
      )
    }
    return { fact: name, operator, value: { fact: other } }
  }
  const { value, amount } = literal(right)
  const ordered = ORDER[op]
  if (ordered) {
    // A written text is a date here (the type check holds it to one): the operators order two dates.
    if (!amount && typeof value !== 'string') throw new CompileError(`${op} compares amounts or dates, not ${String(right.raw)}`, 0, right)
    return { fact: name, operator: ordered, value }
  }
  if (amount) return { fact: name, operator: op === '==' ? 'eq' : 'neq', value }
  return { fact: name, operator: op === '==' ? 'equal' : 'notEqual', value }
}

/** `contains(['a', 'b'], name)` is the engine's `in`; `contains(name, 'a')`, its `contains`. */
function contains(node: Node): Condition {
  const [list, item, ...rest] = node.arguments as Node[]
  if (!list || !item || rest.length > 0) throw new CompileError('contains() takes a list and a value', 0, node)
  if (list.type === 'ArrayExpression') {
    const items = (list.elements as Node[]).map((e) => {
      if (e.type !== 'Literal' || typeof e.value === 'number') {
        throw new CompileError('a list in a condition holds written texts, true or false (an amount is compared by value: write x == 1 || x == 2)', 0, e)
      }
      return e.value
    })
    return { fact: fact(item, 'the value of contains()'), operator: 'in', value: items }
  }
  const name = fact(list, 'the list of contains()')
  if (item.type !== 'Literal' || typeof item.value === 'number') {
    throw new CompileError('contains() on a list name looks for a written text, true or false; for anything else give the test a name of its own under formulas:', 0, item)
  }
  return { fact: name, operator: 'contains', value: item.value }
}
