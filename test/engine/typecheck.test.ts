// The load-time type check of one formula: each node's type, and each mistake at its place.
import jsep from 'jsep'
// The engine's parser: jsep with the arrow-function plugin registered.
import '../../engine/compile/expression.js'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { FunctionSpec, ValueType } from '../../engine/functions/spec.js'
import { isoDateProblem } from '../../engine/values/calendar.js'
import { accepts, checkTypes, join, type TypeEnv } from '../../engine/check/formula-types.js'

const test = suite('engine/typecheck: checkTypes')

const names: Record<string, ValueType> = {
  amount: 'amount',
  years: 'integer',
  state: 'text',
  born: 'date',
  married: 'boolean',
  heirs: { list: { record: { share: 'amount', relationship: 'text' } } },
  person: { record: { born: 'date', name: 'text' } },
  called: { record: 'open' },
}
const spec = (s: Partial<FunctionSpec> & Pick<FunctionSpec, 'args' | 'returns'>): FunctionSpec => ({ doc: '', impl: () => null, ...s })
const functions: Record<string, FunctionSpec> = {
  max: spec({ args: ['numbers'], rest: 'numbers', returns: 'amount' }),
  pow: spec({ args: ['number', 'number'], returns: 'amount' }),
  year: spec({ args: ['date'], returns: 'integer' }),
  // A pure function: run at load when its arguments are literals.
  date: spec({
    args: ['integer', 'integer', 'integer'],
    returns: 'date',
    pure: true,
    impl: ([y, m, d], cx) => {
      const text = `${String(y)}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
      const problem = isoDateProblem(text)
      return problem ? cx.fail(problem) : text
    },
  }),
  item: spec({ args: ['list', 'integer'], returns: (t) => (typeof t[0] === 'object' && 'list' in t[0] ? t[0].list : 'any') }),
  filter: spec({
    args: ['list', { lambda: 1, paramTypes: (t) => [typeof t[0] === 'object' && 'list' in t[0] ? t[0].list : 'any'], body: 'boolean' }],
    returns: (t) => t[0]!,
  }),
}
const env: TypeEnv = {
  typeOf: (n) => (Object.hasOwn(names, n) ? names[n] : undefined),
  table: () => undefined,
  fn: (n) => (Object.hasOwn(functions, n) ? functions[n] : undefined),
}
const check = (text: string) => checkTypes(jsep(text), text, env)
const problems = (text: string) => check(text).problems.map((p) => `${p.index}: ${p.message}`)

test('arithmetic on amounts gives an amount; on whole numbers a whole number except division', () => {
  assert.is(check('amount * 2 + 1').type, 'amount')
  assert.is(check('years + 1').type, 'integer')
  assert.is(check('years / 2').type, 'amount')
  assert.equal(problems('amount * 2 + 1'), [])
})

test('text plus an amount is refused at the text operand', () => {
  assert.equal(problems('amount + state'), ['9: the right of + must be an amount, not text'])
  assert.equal(problems('state - 1'), ['0: the left of - must be an amount, not text'])
})

test('dates compare with dates, amounts with amounts, never across', () => {
  assert.equal(problems("born < '2026-01-01'"), [])
  assert.equal(problems('born < amount'), ['0: the left of < must be an amount (or both sides dates), not a date'])
  assert.equal(problems('state == amount'), ['9: cannot compare text with an amount'])
  assert.equal(problems('state == null'), [])
})

test('conditions must be true or false', () => {
  assert.equal(problems('amount ? 1 : 2'), ['0: the condition of ?: must be true or false, not an amount'])
  assert.equal(problems('married && amount'), ['11: the right of && must be true or false, not an amount'])
  assert.equal(problems('!state'), ['1: the operand of ! must be true or false, not text'])
})

test('a field is read from a record that has it; across a list it gives a list', () => {
  assert.is(check('person.born').type, 'date')
  assert.equal(check('heirs.share').type, { list: 'amount' })
  assert.equal(problems('person.age'), ["7: no field 'age' here; the fields are born, name"])
  assert.equal(problems('amount.value'), ["7: cannot read 'value' of an amount"])
  assert.is(check('called.anything').type, 'any')
})

test('a name of the prototype is no field and no name', () => {
  assert.equal(problems('person.constructor'), ["7: no field 'constructor' here; the fields are born, name"])
  assert.equal(problems('constructor + 1'), ["0: unknown name 'constructor'"])
  assert.equal(problems('toString(1)'), ["0: unknown function 'toString()'"])
})

test('function arguments are counted and typed at their place', () => {
  assert.equal(problems('pow(amount)'), ['0: pow() takes 2 argument(s), got 1'])
  assert.equal(problems('max(1, state)'), ['7: argument 2 of max() must be an amount or a list of amounts, not text'])
  assert.equal(problems('max(heirs.share, 1)'), [])
  assert.equal(problems('year(amount)'), ['5: argument 1 of year() must be a date, not an amount'])
  assert.is(check('year(born)').type, 'integer')
})

test('an impossible date literal is refused where it is written', () => {
  assert.equal(problems("born > '2026-02-30'"), ['7: 2026-02-30 is not a date: 2026-02 has 28 days'])
})

test('a pure call on literals is run at load, and what it refuses is a load error at the call', () => {
  assert.equal(problems('born < date(2026, 2, 30)'), ['7: date(): 2026-02-30 is not a date: 2026-02 has 28 days'])
  assert.equal(problems('born < date(2028, 2, 29)'), [])
  assert.equal(problems('born < date(years, 2, 30)'), [])
})

test('a lambda takes its parameter types from the list and its body is checked', () => {
  assert.equal(check('filter(heirs, h => h.share > 0)').type, names.heirs)
  assert.is(check('item(filter(heirs, h => h.share > 0), 0).relationship').type, 'text')
  assert.equal(problems('filter(heirs, h => h.share)'), ['19: the function given to filter() must give true or false, not an amount'])
  assert.equal(problems('filter(heirs, h => h.age > 0)'), ["21: no field 'age' here; the fields are share, relationship"])
  assert.equal(problems('filter(heirs, 1)'), ['14: argument 2 of filter() must be a function such as x => x.amount'])
})

test('accepts and join: amounts mix, null gives way, a date is text', () => {
  assert.ok(accepts('number', 'rate'))
  assert.ok(accepts('text', 'date'))
  assert.not.ok(accepts('date', 'amount'))
  assert.is(join('null', 'amount'), 'amount')
  assert.is(join('integer', 'rate'), 'amount')
  assert.is(join('text', 'amount'), 'any')
})

test.run()
