// The periods a supported year covers: the dates the load check requires figures on.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { periodStarts } from '../../engine/values/period.js'

const test = suite('engine/period: periodStarts')

test('a calendar year is one period from 1 January', () => {
  assert.equal(periodStarts(2026), ['2026-01-01'])
})

test('an income year named by its end starts the July before', () => {
  assert.equal(periodStarts(2026, { starts: '07-01', named_by: 'end', months: 12 }), ['2025-07-01'])
  assert.equal(periodStarts(2026, { starts: '07-01', named_by: 'start', months: 12 }), ['2026-07-01'])
})

test('a year of quarters has four starts, crossing into the next calendar year where it must', () => {
  assert.equal(periodStarts(2026, { starts: '01-01', named_by: 'start', months: 3 }), ['2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01'])
  assert.equal(periodStarts(2026, { starts: '07-01', named_by: 'end', months: 3 }), ['2025-07-01', '2025-10-01', '2026-01-01', '2026-04-01'])
})

test('a year named by its end that starts on 1 January is that calendar year', () => {
  assert.equal(periodStarts(2026, { starts: '01-01', named_by: 'end', months: 12 }), ['2026-01-01'])
})

test.run()
