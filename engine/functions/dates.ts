/**
 * @module Functions on dates, each written YYYY-MM-DD (the proleptic Gregorian calendar, no time of
 * day, no time zone). Where date arithmetic can be ambiguous it declares its rule: a day past the
 * end of the target month becomes that month's last day (31 January + 1 month is 28 or 29
 * February; 29 February + 1 year is 28 February), as most statutes and the regulations that count
 * months and years read.
 */
import { Dec } from '../values/decimal.js'
import { daysInMonth, isoDateProblem } from '../values/calendar.js'
import { InputError } from '../errors.js'
import type { Value } from '../model/types.js'
import type { CallContext, FunctionLibrary, Lambda } from './spec.js'
import { chargeItems, date, integer, list } from './values.js'

const DAY_MS = 86_400_000

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

function iso(y: number, m: number, d: number): string {
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`
}

function parts(text: string): [number, number, number] {
  return [Number(text.slice(0, 4)), Number(text.slice(5, 7)), Number(text.slice(8, 10))]
}

/** Days since 1970-01-01 (negative before). */
function dayNumber(text: string): number {
  const [y, m, d] = parts(text)
  return Math.round(Date.UTC(y, m - 1, d) / DAY_MS)
}

function fromDayNumber(n: number): string {
  const t = new Date(n * DAY_MS)
  return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate())
}

/** The date n months later, a day past the month's end becoming its last day. */
function addMonths(text: string, n: number): string {
  const [y0, m0, d0] = parts(text)
  const months = y0 * 12 + m0 - 1 + n
  const y = Math.floor(months / 12)
  const m = months - y * 12 + 1
  return iso(y, m, Math.min(d0, daysInMonth(y, m)))
}

/** A date within the years a four-digit date can write. */
function checked(cx: CallContext, text: string): string {
  // Past the years a date can be written in (0001 to 9999) only from a request's own far dates (a
  // death in 9999): the request's to change, so a 400, not a defect of the rules.
  if (!/^\d{4}-/.test(text)) {
    throw new InputError('unsupported_parameter', `a date computed from this request (${text}) is outside the years 0001 to 9999`, [
      { field: 'body', message: 'holds a date too far from the years the rules cover' },
    ])
  }
  const problem = isoDateProblem(text)
  return problem ? cx.fail(problem) : text
}

/** Whole years from birth to `on`, a year counting from the day `offset` days before each anniversary. */
function age(cx: CallContext, born: Value | Lambda, on: Value | Lambda, offsetDays: number): Dec {
  const birth = date(cx, born, 'the date of birth')
  const day = date(cx, on, 'the date')
  const [by, bm, bd] = parts(birth)
  const [y, m, d] = parts(fromDayNumber(dayNumber(day) + offsetDays))
  // A birthday on 29 February falls on 1 March in a common year (the day after 28 February).
  const beforeBirthday = m < bm || (m === bm && d < bd)
  return new Dec(y - by - (beforeBirthday ? 1 : 0))
}

/** The dates of the arguments, a list counting as its items (latest, earliest). */
function datesOf(cx: CallContext, args: (Value | Lambda)[], name: string): string[] {
  const out: string[] = []
  for (const v of args) for (const item of Array.isArray(v) ? v : [v]) out.push(date(cx, item, `a date of ${name}()`))
  chargeItems(cx, out.length)
  return out.length > 0 ? out : cx.fail(`${name}() of no dates`)
}

export const dates: FunctionLibrary = {
  date: {
    doc: 'The date of a year, month and day; a day that does not exist (30 February, month 13) is an error.',
    args: ['integer', 'integer', 'integer'],
    returns: 'date',
    pure: true,
    impl: ([y, m, d], cx) => {
      const year = integer(cx, y!, 'the year')
      const month = integer(cx, m!, 'the month')
      const day = integer(cx, d!, 'the day')
      // A day that exists is checked on the numbers (every calculation date is built here); anything
      // else goes through the text check, which says what is wrong with it.
      if (year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return iso(year, month, day)
      return checked(cx, iso(year, month, day))
    },
  },
  year: {
    doc: 'The year of a date.',
    args: ['date'],
    returns: 'integer',
    pure: true,
    impl: ([d], cx) => {
      const v = d!
      return typeof v === 'string' && /^\d{4}-/.test(v) ? new Dec(v.slice(0, 4)) : cx.fail(`year() takes a date, got ${String(v)}`)
    },
  },
  month: {
    doc: 'The month of a date, 1 to 12.',
    args: ['date'],
    returns: 'integer',
    pure: true,
    impl: ([d], cx) => new Dec(date(cx, d!, 'the date').slice(5, 7)),
  },
  year_month: {
    doc: '"YYYY-MM" of a date: the key of a table by month (the § 7520 rates).',
    args: ['date'],
    returns: 'text',
    pure: true,
    impl: ([d], cx) => date(cx, d!, 'the date').slice(0, 7),
  },
  add_days: {
    doc: 'The date n days later (earlier when n < 0).',
    args: ['date', 'integer'],
    returns: 'date',
    pure: true,
    impl: ([d, n], cx) => checked(cx, fromDayNumber(dayNumber(date(cx, d!, 'the date')) + integer(cx, n!, 'the days'))),
  },
  add_months: {
    doc: 'The date n months later (earlier when n < 0); a day past the end of the target month becomes its last day (31 January + 1 month = 28 or 29 February).',
    args: ['date', 'integer'],
    returns: 'date',
    pure: true,
    impl: ([d, n], cx) => checked(cx, addMonths(date(cx, d!, 'the date'), integer(cx, n!, 'the months'))),
  },
  add_years: {
    doc: 'The date n years later (earlier when n < 0); 29 February becomes 28 February in a common year.',
    args: ['date', 'integer'],
    returns: 'date',
    pure: true,
    impl: ([d, n], cx) => checked(cx, addMonths(date(cx, d!, 'the date'), 12 * integer(cx, n!, 'the years'))),
  },
  days_between: {
    doc: 'The days from a to b: b − a, negative when b is before a.',
    args: ['date', 'date'],
    returns: 'integer',
    pure: true,
    impl: ([a, b], cx) => new Dec(dayNumber(date(cx, b!, 'the second date')) - dayNumber(date(cx, a!, 'the first date'))),
  },
  weekday: {
    doc: 'The day of the week of a date, ISO 8601: 1 is Monday, 7 is Sunday.',
    args: ['date'],
    returns: 'integer',
    pure: true,
    impl: ([d], cx) => new Dec(((new Date(dayNumber(date(cx, d!, 'the date')) * DAY_MS).getUTCDay() + 6) % 7) + 1),
  },
  next_business_day: {
    doc: 'The first day on or after a date that is neither a Saturday, a Sunday nor one of the holidays given (a list of dates from a table or the request: the calendar of holidays is law, not code).',
    args: ['date', { list: 'date' }],
    returns: 'date',
    impl: ([d, h], cx) => {
      const holidays = new Set(list(cx, h!, 'the holidays').map((x) => date(cx, x, 'a holiday')))
      let n = dayNumber(date(cx, d!, 'the date'))
      // Every run of closed days ends within a year: a longer one means the holiday list is wrong.
      for (let i = 0; i < 366; i++, n++) {
        const weekday = (new Date(n * DAY_MS).getUTCDay() + 6) % 7
        const text = fromDayNumber(n)
        if (weekday < 5 && !holidays.has(text)) return text
      }
      return cx.fail('next_business_day() found no business day within a year')
    },
  },
  age_on: {
    doc: 'Age in whole years on a date, counting each year from the anniversary of birth (a person born on 29 February turns a year older on 1 March in a common year).',
    args: ['date', 'date'],
    returns: 'integer',
    pure: true,
    impl: ([born, on], cx) => age(cx, born!, on!, 0),
  },
  age_attained: {
    doc: 'Age in whole years on a date where a person attains an age on the day before the anniversary of birth, as Social Security counts it (20 CFR 404.2(c)(4)): someone born on 2 January attains 62 on 1 January.',
    args: ['date', 'date'],
    returns: 'integer',
    pure: true,
    // Attaining the age the day before the anniversary is being, on `on`, as old as on the day after.
    impl: ([born, on], cx) => age(cx, born!, on!, 1),
  },
  latest: {
    doc: 'The latest of dates (a list counts as its items).',
    args: ['any'],
    rest: 'any',
    returns: 'date',
    pure: true,
    impl: (args, cx) => datesOf(cx, args, 'latest').reduce((a, b) => (b > a ? b : a)),
  },
  earliest: {
    doc: 'The earliest of dates (a list counts as its items).',
    args: ['any'],
    rest: 'any',
    returns: 'date',
    pure: true,
    impl: (args, cx) => datesOf(cx, args, 'earliest').reduce((a, b) => (b < a ? b : a)),
  },
}

