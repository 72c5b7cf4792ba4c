// The math functions: exact where the law needs it, refused outside their domain, never NaN.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Dec } from '../../../engine/values/decimal.js'
import { formula } from './formula.js'

const test = suite('engine/functions/math')
const n = (t: string, places = 10) => (formula(t) as Dec).toDecimalPlaces(places).toString()

test('sqrt, ln and exp agree with each other to the engine precision', () => {
  assert.is(n('sqrt(2) * sqrt(2)'), '2')
  assert.is(n('exp(ln(5))'), '5')
  assert.is(n('ln(1)'), '0')
  assert.is(n('sqrt(0)'), '0')
})

test('trigonometry in radians: sin, cos, asin and atan2 at their landmarks', () => {
  assert.is(n('sin(0)'), '0')
  assert.is(n('cos(0)'), '1')
  assert.is(n('asin(1) * 2'), '3.1415926536')
  assert.is(n('atan2(1, 1) * 4'), '3.1415926536')
  assert.is(n('atan2(0, -1)'), '3.1415926536')
  assert.is(n('atan2(-1, 0) * 2'), '-3.1415926536')
})

test('outside a domain is an error, not NaN', () => {
  assert.throws(() => formula('ln(0)'), /ln\(\) of 0: defined only above 0/)
  assert.throws(() => formula('sqrt(-1)'), /sqrt\(\) of -1: not defined below 0/)
  assert.throws(() => formula('asin(2)'), /asin\(\) of 2: defined only from −1 to 1/)
  assert.throws(() => formula('pow(-1, 0.5)'), /no finite value/)
})

test('floor, ceil and abs on negative amounts', () => {
  assert.is(n('floor(-1.5)'), '-2')
  assert.is(n('ceil(-1.5)'), '-1')
  assert.is(n('abs(-0.25)'), '0.25')
  assert.is(n('pow(1.05, 2)'), '1.1025')
})

test('discounted_sum: each amount times the factor to the power of its place, the first undiscounted', () => {
  // 100 + 200 × 0.5 + 400 × 0.25, as sum(map(…, pow(f, i))) gives it.
  assert.is(n('discounted_sum([100, 200, 400], 0.5)'), '300')
  assert.is(n('discounted_sum([7], 0.9)'), '7')
  assert.is(n('discounted_sum([], 0.9)'), '0')
  assert.is(n('discounted_sum([1, 1, 1], 1)'), '3')
  // A monthly annuity-due of 12 payments at 5 % a year, against the pow() form to 30 places.
  assert.is(n('discounted_sum([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], pow(1.05, -1 / 12))', 30), n('sum(map(range(0, 11), m => pow(pow(1.05, -1 / 12), m)))', 30))
})

test.run()
