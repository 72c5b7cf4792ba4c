// Formulas: exact decimal arithmetic, and the names and functions they may use.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/decimal.js'
import { CompileError, compileExpression } from '../../engine/expression.js'
import type { Runtime, Value } from '../../engine/types.js'

const test = suite('engine/expression: compileExpression')
const names = new Set(['a', 'b', 'items'])
const resolver = { hasValue: (n: string) => names.has(n), table: () => undefined }
const values: Record<string, Value> = { a: new Dec('0.1'), b: new Dec('0.2'), items: [{ x: new Dec(1) }, { x: new Dec(2) }] }
const rt = { get: (n: string) => values[n]! } as unknown as Runtime
const run = (text: string) => compileExpression(text, resolver).run(rt)

test('0.1 + 0.2 is exactly 0.3, never a binary float', () => {
  assert.is(String(run('a + b')), '0.3')
  assert.is(String(run('a + b == 0.3')), 'true')
})

test('the ternary, comparisons and functions work on amounts', () => {
  assert.is(String(run('a > b ? 1 : max(a, b, 5)')), '5')
  assert.is(String(run('sum(items.x)')), '3')
  assert.is(String(run('count(items)')), '2')
})

test('an unknown name is a compile error naming it', () => {
  assert.throws(() => compileExpression('a + c', resolver), (e: unknown) => e instanceof CompileError && e.message === "unknown name 'c'")
})

test('an unknown function is a compile error listing the known ones', () => {
  assert.throws(() => compileExpression('pow(a, 2)', resolver), (e: unknown) => e instanceof CompileError && e.message.startsWith("unknown function 'pow()'"))
})

test('division by zero is an evaluation error, not Infinity', () => {
  assert.throws(() => run('a / (b - b)'), /division by zero/)
})

test.run()
