// Rounding at the edges, for every mode (Catala's rounding table, in our terms); rounding to decimal
// places in place gives the very decimal that dividing, rounding and multiplying back gives.
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { round, rounding, type RoundingMode } from '../../engine/values/round.js'

const test = suite('engine/round: round')
const cent = (mode: RoundingMode) => ({ step: new Dec('0.01'), mode })

const table: [string, RoundingMode, string][] = [
  ['0.005', 'half_up', '0.01'],
  ['-0.005', 'half_up', '-0.01'],
  ['0.015', 'half_even', '0.02'],
  ['0.025', 'half_even', '0.02'],
  ['0.019', 'down', '0.01'],
  ['-0.019', 'down', '-0.01'],
  ['0.011', 'up', '0.02'],
  ['1.5', 'half_up', '1.5'],
]

for (const [input, mode, expected] of table) {
  test(`${input} to the cent, ${mode}, is ${expected}`, () => {
    assert.is(round(new Dec(input), cent(mode)).toString(), expected)
    assert.is(round(new Dec(input), rounding('0.01', mode)).toString(), expected)
  })
}

test('a step of 1, 0.1, 0.01… rounds in place to the same decimal, sign of zero included', () => {
  const modes: RoundingMode[] = ['half_up', 'half_even', 'down', 'up']
  const value = fc
    .tuple(fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }), fc.integer({ min: -40, max: 10 }))
    .map(([digits, power]) => new Dec(`${digits}e${power}`))
  fc.assert(
    fc.property(value, fc.constantFrom('1', '0.1', '0.01', '0.0001', '0.000001'), fc.constantFrom(...modes), (x, step, mode) => {
      const fast = round(x, rounding(step, mode))
      const slow = round(x, { step: new Dec(step), mode })
      return fast.toString() === slow.toString() && Object.is(fast.toNumber(), slow.toNumber()) && JSON.stringify([fast.d, fast.e, fast.s]) === JSON.stringify([slow.d, slow.e, slow.s])
    }),
    { numRuns: 20000 },
  )
  assert.is(rounding('0.01', 'half_up').places, 2)
  assert.is(rounding('10000', 'half_up').places, undefined)
  assert.is(rounding('0.05', 'half_up').places, undefined)
})

test('a step of 10,000 rounds to the nearest 10,000', () => {
  assert.is(round(new Dec('15_004_999'.replace(/_/g, '')), { step: new Dec('10000'), mode: 'half_up' }).toString(), '15000000')
})

test.run()
