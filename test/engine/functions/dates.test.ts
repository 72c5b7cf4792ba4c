// The date functions at their edges: month ends, leap days, negative counts, ages by both rules.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { formula, show } from './formula.js'

const test = suite('engine/functions/dates')
const f = (t: string) => formula(t)

test('date() builds a real date and refuses one that does not exist', () => {
  assert.is(f('date(2028, 2, 29)'), '2028-02-29')
  assert.throws(() => f('date(2026, 2, 30)'), /2026-02-30 is not a date: 2026-02 has 28 days/)
  assert.throws(() => f('date(2026, 13, 1)'), /there is no month 13/)
})

test('add_months and add_years clamp a day past the month end to its last day', () => {
  assert.is(f("add_months('2026-01-31', 1)"), '2026-02-28')
  assert.is(f("add_months('2028-01-31', 1)"), '2028-02-29')
  assert.is(f("add_months('2026-03-31', -1)"), '2026-02-28')
  assert.is(f("add_months('2026-01-15', -13)"), '2024-12-15')
  assert.is(f("add_years('2028-02-29', 1)"), '2029-02-28')
  assert.is(f("add_years('2028-02-29', 4)"), '2032-02-29')
  assert.is(f("add_years('2026-06-30', -10)"), '2016-06-30')
})

test('add_days and days_between cross months, years and leap days, either way', () => {
  assert.is(f("add_days('2028-02-28', 1)"), '2028-02-29')
  assert.is(f("add_days('2026-02-28', 1)"), '2026-03-01')
  assert.is(f("add_days('2026-01-01', -1)"), '2025-12-31')
  assert.is(show(f("days_between('2026-01-01', '2027-01-01')")), '"365"')
  assert.is(show(f("days_between('2028-01-01', '2029-01-01')")), '"366"')
  assert.is(show(f("days_between('2026-03-01', '2026-02-01')")), '"-28"')
})

test('weekday is ISO: Monday 1 to Sunday 7', () => {
  // 2026-11-23 is a Monday; 2026-11-29 a Sunday.
  assert.is(show(f("weekday('2026-11-23')")), '"1"')
  assert.is(show(f("weekday('2026-11-29')")), '"7"')
  assert.is(show(f("weekday('2000-02-29')")), '"2"')
})

test('next_business_day skips weekends and the holidays given, and keeps a business day as it is', () => {
  assert.is(f("next_business_day('2026-11-24', [])"), '2026-11-24')
  assert.is(f("next_business_day('2026-11-28', [])"), '2026-11-30')
  // Thanksgiving 2026 is 26 November; the Friday after given as a holiday too.
  assert.is(f("next_business_day('2026-11-26', ['2026-11-26', '2026-11-27'])"), '2026-11-30')
  assert.is(f("next_business_day('2026-12-25', ['2026-12-25'])"), '2026-12-28')
})

test('age_on counts from the anniversary; age_attained from the day before it (20 CFR 404.2(c)(4))', () => {
  assert.is(show(f("age_on('1964-01-02', '2026-01-01')")), '"61"')
  assert.is(show(f("age_attained('1964-01-02', '2026-01-01')")), '"62"')
  assert.is(show(f("age_on('1964-01-02', '2026-01-02')")), '"62"')
  assert.is(show(f("age_attained('1964-01-01', '2025-12-31')")), '"62"')
  // Born on 29 February: a year older on 1 March of a common year; attained on 28 February.
  assert.is(show(f("age_on('2000-02-29', '2026-02-28')")), '"25"')
  assert.is(show(f("age_on('2000-02-29', '2026-03-01')")), '"26"')
  assert.is(show(f("age_attained('2000-02-29', '2026-02-28')")), '"26"')
})

test('latest and earliest take dates or lists of them, and refuse none', () => {
  assert.is(f("latest('2026-01-01', ['2027-03-01', '2025-12-31'])"), '2027-03-01')
  assert.is(f("earliest(['2026-01-01', '2025-12-31'])"), '2025-12-31')
  assert.throws(() => f('latest([])'), /no dates/)
})

test('year, month and year_month read a date', () => {
  assert.is(show(f("year('2026-04-09')")), '"2026"')
  assert.is(show(f("month('2026-04-09')")), '"4"')
  assert.is(f("year_month('2026-04-09')"), '2026-04')
})

test.run()
