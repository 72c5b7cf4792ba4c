// A decimal as a JSON number and back, and two decimals compared: the fast paths answer exactly as
// decimal.js's own.
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { compare, Dec, fromNumber, toNumber } from '../../engine/values/decimal.js'

const test = suite('engine/decimal: toNumber')

const same = (text: string) => {
  const x = new Dec(text)
  assert.ok(Object.is(toNumber(x), x.toNumber()), `${text}: ${toNumber(x)} is not ${x.toNumber()}`)
}

test('money, rates and the corners of the fast path', () => {
  for (const text of ['0', '-0', '1', '-1', '0.1', '0.2', '0.3', '20100.1', '139899.9', '0.045', '1490800', '7717500.005', '0.3675', '1e22', '1e23', '9007199254740991', '9007199254740993', '12345678901234567890', '1e-22', '1e-23', '123.456e-20', '4.35e-7', '1e40', '-1e-40', '1.7976931348623157e308', '5e-324', '2/3']) {
    same(text === '2/3' ? new Dec(2).div(3).toString() : text)
  }
})

test('random decimals convert as decimal.js converts them', () => {
  const decimal = fc
    .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -45, max: 45 }))
    .map(([digits, power]) => new Dec(`${digits}e${power}`))
  const rounded = fc.tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 6 })).map(([n, places]) => new Dec(n).div(10 ** places))
  fc.assert(
    fc.property(fc.oneof(decimal, rounded), (x) => Object.is(toNumber(x), x.toNumber())),
    { numRuns: 20000 },
  )
})

test('compare answers as cmp does: signs, zeros, lengths, NaN and infinities', () => {
  const special = ['0', '-0', 'NaN', 'Infinity', '-Infinity', '1', '-1', '1.0000001', '1.00000010000001', '9999999', '10000000', '-10000000.5', '1e-7', '1e40', '-1e-40'].map((t) => new Dec(t))
  const value = fc.oneof(
    fc.constantFrom(...special),
    fc.tuple(fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }), fc.integer({ min: -30, max: 30 })).map(([digits, power]) => new Dec(`${digits}e${power}`)),
  )
  fc.assert(
    fc.property(value, value, (x, y) => Object.is(compare(x, y), x.cmp(y))),
    { numRuns: 20000 },
  )
  for (const x of special) for (const y of special) assert.ok(Object.is(compare(x, y), x.cmp(y)), `${x.toString()} vs ${y.toString()}`)
})

test('a JSON number becomes the decimal of its text, -0 and all', () => {
  const parts = (x: Dec) => JSON.stringify([x.d, x.e, x.s])
  const number = fc.oneof(
    fc.double(),
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.tuple(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 4 })).map(([n, places]) => n / 10 ** places),
    fc.constantFrom(0, -0, 9999999, 10000000, -9999999, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity),
  )
  fc.assert(
    fc.property(number, (n) => parts(fromNumber(n)) === parts(new Dec(String(n)))),
    { numRuns: 20000 },
  )
})

test.run()
