// Rounding at the edges, for every mode (Catala's rounding table, in our terms).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/decimal.js'
import { round, type RoundingMode } from '../../engine/round.js'

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
  })
}

test('a step of 10,000 rounds to the nearest 10,000', () => {
  assert.is(round(new Dec('15_004_999'.replace(/_/g, '')), { step: new Dec('10000'), mode: 'half_up' }).toString(), '15000000')
})

test.run()
