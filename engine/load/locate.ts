/**
 * @module Where each node of a parsed formula stands in its text, so that a load error can point at
 * the offending part (`file:line:column` of `state` in `state + rate`), not at the formula's start.
 *
 * jsep's nodes carry no positions. Its tokens, though, stand in the text in the order an in-order
 * walk of the tree meets them (left operand, operator, right operand; callee, then arguments;
 * object, then field; test, consequent, alternate; parameters, then body). So one walk with a cursor
 * finds every token by searching forward from the end of the previous one; parentheses, commas and
 * spaces between tokens are skipped by the search. A node spans from its first token to its last.
 */
import type jsep from 'jsep'

export interface Span {
  start: number
  end: number
}

type Node = jsep.Expression

const IDENTIFIER_PART = /[A-Za-z0-9_$]/

/** The span of every node of `ast` in `text`. @api private */
export function locate(ast: Node, text: string): Map<Node, Span> {
  const spans = new Map<Node, Span>()
  let cursor = 0

  /** Find `token` at or after the cursor; a name only where it is a whole word. */
  const find = (token: string, word: boolean): Span => {
    let at = text.indexOf(token, cursor)
    while (word && at >= 0 && (IDENTIFIER_PART.test(text[at - 1] ?? '') || IDENTIFIER_PART.test(text[at + token.length] ?? ''))) {
      at = text.indexOf(token, at + 1)
    }
    // Not found (a token jsep rewrote): point at the cursor rather than nowhere.
    if (at < 0) return { start: cursor, end: cursor }
    cursor = at + token.length
    return { start: at, end: cursor }
  }

  const visit = (node: Node): Span => {
    const span = walk(node)
    spans.set(node, span)
    return span
  }
  const join = (first: Span, last: Span): Span => ({ start: first.start, end: Math.max(first.end, last.end) })

  const walk = (node: Node): Span => {
    switch (node.type) {
      case 'Identifier':
        return find(String(node.name), true)
      case 'Literal':
        return find(String(node.raw), typeof node.value !== 'string')
      case 'ThisExpression':
        return find('this', true)
      case 'UnaryExpression': {
        const op = find(String(node.operator), false)
        return join(op, visit(node.argument as Node))
      }
      case 'BinaryExpression': {
        const left = visit(node.left as Node)
        find(String(node.operator), false)
        return join(left, visit(node.right as Node))
      }
      case 'ConditionalExpression': {
        const test = visit(node.test as Node)
        visit(node.consequent as Node)
        return join(test, visit(node.alternate as Node))
      }
      case 'MemberExpression': {
        const object = visit(node.object as Node)
        return join(object, visit(node.property as Node))
      }
      case 'CallExpression': {
        const callee = visit(node.callee as Node)
        let last = callee
        for (const arg of (node.arguments as Node[]) ?? []) last = visit(arg)
        // The closing parenthesis ends the call.
        const close = text.indexOf(')', last.end)
        if (close >= 0) cursor = close + 1
        return { start: callee.start, end: close >= 0 ? close + 1 : last.end }
      }
      case 'ArrayExpression': {
        const open = find('[', false)
        for (const element of (node.elements as (Node | null)[]) ?? []) if (element) visit(element)
        const close = find(']', false)
        return join(open, close)
      }
      case 'ArrowFunctionExpression': {
        const params = (node.params as Node[] | null) ?? []
        const first = params.length > 0 ? params.map(visit)[0]! : find('(', false)
        find('=>', false)
        return join(first, visit(node.body as Node))
      }
      case 'SequenceExpression':
      case 'Compound': {
        const parts = ((node.expressions ?? node.body) as Node[]).map(visit)
        return parts.length > 0 ? join(parts[0]!, parts[parts.length - 1]!) : { start: cursor, end: cursor }
      }
    }
    return { start: cursor, end: cursor }
  }

  visit(ast)
  return spans
}
