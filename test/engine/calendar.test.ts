// The calendar check: a YYYY-MM-DD date must be a day that exists.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { daysInMonth, isoDateProblem } from '../../engine/values/calendar.js'

const test = suite('engine/calendar: isoDateProblem')

test('real dates pass, leap days only in leap years', () => {
  for (const d of ['2026-01-01', '2026-12-31', '2028-02-29', '2000-02-29', '0001-01-01']) assert.is(isoDateProblem(d), undefined, d)
})

test('impossible dates are named with the reason', () => {
  assert.is(isoDateProblem('2026-02-30'), '2026-02-30 is not a date: 2026-02 has 28 days')
  assert.is(isoDateProblem('2026-02-29'), '2026-02-29 is not a date: 2026-02 has 28 days')
  assert.is(isoDateProblem('1900-02-29'), '1900-02-29 is not a date: 1900-02 has 28 days')
  assert.is(isoDateProblem('2026-13-01'), '2026-13-01 is not a date: there is no month 13')
  assert.is(isoDateProblem('2026-04-31'), '2026-04-31 is not a date: 2026-04 has 30 days')
  assert.is(isoDateProblem('2026-01-00'), '2026-01-00 is not a date: 2026-01 has 31 days')
  assert.is(isoDateProblem('26-1-1'), '"26-1-1" is not a date written YYYY-MM-DD')
})

test('days in a month follow the Gregorian leap rule', () => {
  assert.equal([2024, 2025, 2100, 2000].map((y) => daysInMonth(y, 2)), [29, 28, 28, 29])
})

test.run()
