// Where each node of a formula stands in its text: the place a load error points at.
import jsep from 'jsep'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { locate } from '../../engine/load/locate.js'

const test = suite('engine/locate: locate')

/** The text of every node's span, by node type and in walk order. */
function parts(text: string): string[] {
  const spans = locate(jsep(text), text)
  return [...spans].map(([node, s]) => `${node.type}:${text.slice(s.start, s.end)}`)
}

test('operands and operators are found in order, a name only as a whole word', () => {
  const text = 'rate_a + rate * (a - 1)'
  const spans = locate(jsep(text), text)
  const names = [...spans].filter(([n]) => n.type === 'Identifier').map(([n, s]) => [n.name, s.start])
  assert.equal(names, [['rate_a', 0], ['rate', 9], ['a', 17]])
})

test('a call spans its name to its closing parenthesis, and each argument is placed', () => {
  assert.ok(parts('max(0, amount - pow(x))').includes('CallExpression:pow(x)'))
  assert.ok(parts('max(0, amount - pow(x))').includes('CallExpression:max(0, amount - pow(x))'))
  assert.ok(parts('max(0, amount - pow(x))').includes('Identifier:x'))
})

test('a string literal is found with its quotes, even when it holds a name used elsewhere', () => {
  const text = "kind == 'kind' ? kind : 'other'"
  const spans = locate(jsep(text), text)
  const starts = [...spans].filter(([n]) => n.type === 'Identifier' || n.type === 'Literal').map(([n, s]) => `${String(n.name ?? n.raw)}@${s.start}`)
  assert.equal(starts, ['kind@0', "'kind'@8", 'kind@17', "'other'@24"])
})

test('a field of a field is placed at the field, the chain at its head', () => {
  assert.ok(parts('a.b.c + 1').includes('MemberExpression:a.b.c'))
  assert.ok(parts('a.b.c + 1').includes('Identifier:c'))
})

test('a list literal spans its brackets', () => {
  assert.ok(parts('count([a, b])').includes('ArrayExpression:[a, b]'))
})

test.run()
