// A decimal as a JSON number: the fast conversion gives exactly the float decimal.js's own gives.
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec, toNumber } from '../../engine/decimal.js'

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

test.run()
