// The list functions: aggregates, bounded loops, choosing by a key, and reading a curve.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../../engine/values/decimal.js'
import type { Value } from '../../../engine/model/types.js'
import { formula, show } from './formula.js'

const test = suite('engine/functions/lists')
const years: Value = [
  { year: new Dec(2024), earnings: new Dec('50000'), on: '2024-12-31' },
  { year: new Dec(2025), earnings: new Dec('70000'), on: '2025-06-30' },
  { year: new Dec(2026), earnings: new Dec('70000'), on: '2026-01-31' },
  { year: new Dec(2023), earnings: new Dec('10000'), on: '2023-03-01' },
]
const f = (t: string) => show(formula(t, { years }))

test('min, max and sum take amounts and lists of them; min and max refuse nothing to choose from', () => {
  assert.is(f('max(1, [5, 2], 3)'), '"5"')
  assert.is(f('min(years.earnings)'), '"10000"')
  assert.is(f('sum(years.earnings, 1)'), '"200001"')
  assert.is(f('sum([])'), '"0"')
  assert.throws(() => formula('max([])'), /empty list/)
})

test('sort_by is stable and ascending by amounts, dates or text', () => {
  assert.is(f('map(sort_by(years, y => y.earnings), y => y.year)'), '["2023","2024","2025","2026"]')
  assert.is(f('map(sort_by(years, y => y.on), y => y.year)'), '["2023","2024","2025","2026"]')
  assert.is(f("sort_by(['b', 'a', 'c'], t => t)"), '["a","b","c"]')
  assert.throws(() => formula('sort_by([1, true], x => x)'), /sorts by amounts, dates or text/)
})

test('take and drop: the top 35 years of earnings is sort, take and sum', () => {
  assert.is(f('sum(map(take(sort_by(years, y => 0 - y.earnings), 2), y => y.earnings))'), '"140000"')
  assert.is(f('count(take(years, 10))'), '"4"')
  assert.is(f('count(drop(years, 3))'), '"1"')
  assert.is(f('count(take(years, 0))'), '"0"')
  assert.throws(() => formula('take([1], -1)'), /negative count/)
})

test('filter keeps the items for which the condition holds, in order', () => {
  assert.is(f('map(filter(years, y => y.earnings >= 50000), y => y.year)'), '["2024","2025","2026"]')
  assert.is(f('count(filter(years, y => y.earnings > 1000000))'), '"0"')
})

test('argmax and argmin give the first of equal keys, and refuse an empty list', () => {
  assert.is(f('argmax(years, y => y.earnings).year'), '"2025"')
  assert.is(f('argmin(years, y => y.earnings).year'), '"2023"')
  assert.is(f('argmax(years, y => y.on).year'), '"2026"')
  assert.throws(() => formula('argmax([], x => x)'), /empty list/)
})

test('percentile interpolates between the closest ranks; 0 and 1 are the ends', () => {
  assert.is(f('percentile([1, 2, 3, 4], 0)'), '"1"')
  assert.is(f('percentile([4, 1, 3, 2], 1)'), '"4"')
  assert.is(f('percentile([1, 2, 3, 4], 0.5)'), '"2.5"')
  assert.is(f('percentile([10], 0.9)'), '"10"')
  assert.throws(() => formula('percentile([1], 1.5)'), /from 0 to 1/)
})

test('range and grid are bounded; a grid always ends at its end point', () => {
  assert.is(f('range(2025, 2027)'), '["2025","2026","2027"]')
  assert.is(f('range(3, 2)'), '[]')
  assert.is(f('grid(0, 1, 0.3)'), '["0","0.3","0.6","0.9","1"]')
  assert.throws(() => formula('range(0, 100000)'), /more than 10000/)
})

test('contains compares amounts by value; item reads from either end', () => {
  assert.is(f('contains([1.0, 2], 1)'), 'true')
  assert.is(f('item(years, -1).year'), '"2023"')
  assert.throws(() => formula("contains([1], 'a')"), /cannot compare/)
})

test('any, all and given', () => {
  assert.is(f('any(map(years, y => y.earnings > 60000))'), 'true')
  assert.is(f('all(map(years, y => y.earnings > 60000))'), 'false')
  assert.is(f('all([])'), 'true')
  assert.is(f('given(null)'), 'false')
})

test.run()
