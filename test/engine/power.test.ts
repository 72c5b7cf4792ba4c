// A fractional power through a kept logarithm equals decimal.js's own pow digit for digit.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { power, wideLogarithm } from '../../engine/values/power.js'

const test = suite('engine/values/power')

/** A fixed sequence (a linear congruential generator), so a failure names the same case every run. */
function* numbers(seed: number): Generator<number> {
  let s = seed
  for (;;) {
    s = (s * 1103515245 + 12345) % 2147483648
    yield s / 2147483648
  }
}

test('equals x.pow(y) on 600 bases and exponents: growth rates, discount factors, roots, long digits', () => {
  const r = numbers(20261128)
  const next = () => r.next().value as number
  let checked = 0
  for (let i = 0; i < 600; i++) {
    const kind = i % 4
    // 1 + a rate with a few digits; a factor below one; a bisection's midpoint (many digits); a large base.
    const x =
      kind === 0 ? new Dec(1).plus(new Dec(Math.round(next() * 20000) - 9000).div(10000))
      : kind === 1 ? new Dec(1).div(new Dec(1).plus(new Dec(Math.round(next() * 1000)).div(10000)))
      : kind === 2 ? new Dec(-0.9).plus(new Dec(5.9).times(Math.round(next() * 2 ** 20)).div(2 ** 20)).plus(1)
      : new Dec(Math.round(next() * 1e9)).div(1000)
    if (!x.isPositive() || x.isZero()) continue
    const y = i % 3 === 0 ? new Dec(Math.round(next() * 20000)).div(365) : new Dec(Math.round(next() * 2000) - 1000).div(12)
    if (y.isInteger()) continue
    const expected = x.pow(y)
    const got = power(x, y, wideLogarithm(x))
    assert.ok(got.eq(expected), `${x.toString()} ^ ${y.toString()}: ${got.toString()} against pow's ${expected.toString()}`)
    assert.is(got.precision(), expected.precision(), `${x.toString()} ^ ${y.toString()} keeps pow's digits`)
    checked++
  }
  assert.ok(checked > 500)
})

test('the fixed-point logarithm equals decimal.js ln at the wide precision on 800 bases', () => {
  // The wide precision is the engine's and ten guard digits (power.ts): 50.
  const Wide = Dec.clone({ precision: Dec.precision + 10 })
  const r = numbers(7)
  const next = () => r.next().value as number
  for (let i = 0; i < 800; i++) {
    const x =
      i % 3 === 0 ? new Dec(1).plus(new Dec(Math.round(next() * 2e6) - 9e5).div(1e6))
      : i % 3 === 1 ? new Dec(Math.round(next() * 1e12) + 1).div(1e6)
      : new Dec(1).div(new Dec(Math.round(next() * 1e9) + 2))
    const got = wideLogarithm(x)
    const expected = new Wide(x).ln()
    assert.ok(got.eq(expected), `ln ${x.toString()}: ${got.toString()} against ${expected.toString()}`)
    assert.is(got.precision(), expected.precision(), `ln ${x.toString()} keeps ln's digits`)
  }
})

test('at the edges of the fixed point (next to 1, e^±40 and beyond) decimal.js answers, and the results are equal', () => {
  const Wide = Dec.clone({ precision: Dec.precision + 10 })
  for (const text of ['1.0000000000001', '0.9999999999999', '1.000000000001', '1e17', '1e-17', '2.35e17', '4.2e-18', '1e30', '1e-30']) {
    const x = new Dec(text)
    assert.ok(wideLogarithm(x).eq(new Wide(x).ln()), `ln ${text}`)
    for (const y of ['0.5', '-0.5', '2.0027397260273972602739726027397260274', '-40.5']) {
      const e = new Dec(y)
      assert.ok(power(x, e, wideLogarithm(x)).eq(x.pow(e)), `${text} ^ ${y}`)
    }
  }
})

test('a very large exponent is left to pow (its own guard digits), and still equal', () => {
  const x = new Dec('1.0000001')
  const y = new Dec('123456789.5')
  assert.ok(power(x, y, wideLogarithm(x)).eq(x.pow(y)))
})

test.run()
