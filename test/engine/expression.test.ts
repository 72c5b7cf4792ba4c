// Formulas: exact decimal arithmetic, and the names and functions they may use.
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { CompileError, compileExpression } from '../../engine/compile/expression.js'
import type { Runtime, Value } from '../../engine/model/types.js'

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

test('min and max choose as decimal.js chooses, ties and signed zeros included', () => {
  const amount = fc.oneof(fc.constantFrom('0', '-0', '1', '-1', '0.5'), fc.integer({ min: -3, max: 3 }).map(String))
  fc.assert(
    fc.property(fc.array(amount, { minLength: 1, maxLength: 5 }), (texts) => {
      const list = texts.map((t) => new Dec(t))
      const args = texts.map((_, i) => `x${i}`)
      const scope: Record<string, Value> = Object.fromEntries(list.map((d, i) => [`x${i}`, d]))
      const own = { hasValue: (n: string) => n in scope, table: () => undefined }
      const get = { get: (n: string) => scope[n]! } as unknown as Runtime
      for (const [f, reference] of [['min', Dec.min(...list)], ['max', Dec.max(...list)]] as const) {
        const ours = compileExpression(`${f}(${args.join(', ')})`, own).run(get) as Dec
        if (!Object.is(ours.toNumber(), reference.toNumber())) return false
      }
      return true
    }),
    { numRuns: 3000 },
  )
})

test('a formula of literals is worked out once at load, and answers as before', () => {
  assert.is(String(run("-0.9")), '-0.9')
  assert.is(String(run('(1 + 2) * 3 / 4')), '2.25')
  assert.is(JSON.stringify(run("['first', 'second']")), '["first","second"]')
  assert.is(String(run('count(range(1, 60))')), '60')
  assert.is(String(run('1 > 2 ? a : b')), '0.2')
  // Folded once: the same value on every evaluation, never rebuilt.
  const folded = compileExpression("['first', 'second']", resolver)
  assert.is(folded.run(rt), folded.run(rt))
})

test('a folded call still charges its steps at each evaluation, and a fault in literals is still the evaluation\'s', () => {
  let steps = 0
  const counting = { ...rt, get: rt.get, work: (n: number) => void (steps += n) } as unknown as Runtime
  const power = compileExpression('pow(2, 10)', resolver)
  assert.is(String(power.run(counting)), '1024')
  const once = steps
  assert.ok(once > 0)
  power.run(counting)
  assert.is(steps, 2 * once)
  // Compiled without complaint, refused when evaluated, with the message it always had.
  const broken = compileExpression('1 / (2 - 2)', resolver)
  assert.throws(() => broken.run(rt), /division by zero/)
  assert.throws(() => compileExpression('date(2026, 2, 30)', resolver).run(rt))
})

test('an unknown name is a compile error naming it', () => {
  assert.throws(() => compileExpression('a + c', resolver), (e: unknown) => e instanceof CompileError && e.message === "unknown name 'c'")
})

test('an unknown function is a compile error listing the known ones', () => {
  assert.throws(() => compileExpression('power(a, 2)', resolver), (e: unknown) => e instanceof CompileError && e.message.startsWith("unknown function 'power()'"))
})

test('a record has only its own fields: constructor, toString and __proto__ are no fields of it', () => {
  for (const key of ['constructor', 'toString', '__proto__']) {
    assert.throws(() => run(`item(items, 0).${key}`), /record has no field/, key)
    assert.equal(run(`items.${key}`), [null, null], `${key} across a list is null for each item`)
  }
  assert.throws(() => compileExpression('constructor', resolver), (e: unknown) => e instanceof CompileError && /unknown name 'constructor'/.test((e as Error).message))
})

test('division by zero is an evaluation error, not Infinity', () => {
  assert.throws(() => run('a / (b - b)'), /division by zero/)
})


const list = (text: string) => JSON.stringify(run(text), (_k, v: unknown) => (v instanceof Dec ? v.toString() : v))

test('pow takes roots as well as powers (the Table K adjustment at 9.8% quarterly is 1.0360)', () => {
  assert.is(String(run('pow(2, 10)')), '1024')
  const k = run('0.098 / (4 * (pow(1.098, 1/4) - 1))') as Dec
  assert.is(k.toDecimalPlaces(4).toString(), '1.036')
  assert.throws(() => run('pow(-1, 0.5)'), /no finite value/)
})

test('ranges and grids are bounded lists; a grid always ends at its end point', () => {
  assert.is(list('range(2025, 2028)'), '["2025","2026","2027","2028"]')
  assert.is(list('range(3, 2)'), '[]')
  assert.is(list('grid(0, 1, 0.3)'), '["0","0.3","0.6","0.9","1"]')
  assert.is(list('merge(grid(0, 1, 0.5), [0.25, 0.5])'), '["0","0.25","0.5","1"]')
  assert.throws(() => run('grid(0, 1, 0)'), /above 0/)
  assert.throws(() => run('range(0, 100000)'), /more than/)
})

test('minima finds every local minimum plateau, runs finds the stretches where a flag holds', () => {
  // 5 4 4 6 3 3 7 2: plateaus at 4 (x 1..2), 3 (x 4..5) and the end point 2.
  assert.is(
    list('minima([0,1,2,3,4,5,6,7], [5,4,4,6,3,3,7,2])'),
    '[{"from":"1","to":"2","value":"4"},{"from":"4","to":"5","value":"3"},{"from":"7","to":"7","value":"2"}]',
  )
  assert.is(list('minima([0,1,2], [1,1,1])'), '[{"from":"0","to":"2","value":"1"}]')
  assert.is(list('runs([0,1,2,3,4], [true,true,false,false,true])'), '[{"from":"0","to":"1"},{"from":"4","to":"4"}]')
})

test('dates compare in date order, and month arithmetic clamps to the end of the month', () => {
  assert.is(run("'2026-03-31' < '2026-04-01'"), true)
  assert.is(run("add_months('2026-03-31', -1)"), '2026-02-28')
  assert.is(run("add_months('2026-01-15', -2)"), '2025-11-15')
  assert.is(run("year_month('2026-04-09')"), '2026-04')
  assert.is(String(run("month('2026-04-09')")), '4')
  assert.throws(() => run("'2026-03-31' < 3"), /must be an amount/)
})

test('item reads by index from either end, and refuses one outside the list', () => {
  assert.is(String(run('item([4, 5, 6], -1)')), '6')
  assert.throws(() => run('item([4], 1)'), /outside/)
})

test.run()
