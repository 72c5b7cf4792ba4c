/**
 * @module The calendar's one rule the engine checks everywhere: a date written YYYY-MM-DD must be a
 * day that exists (2026-02-30 does not; 2028-02-29 does). Used by the load check on formula
 * literals and table dates, and by the date functions at run time.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Days in a month of the proleptic Gregorian calendar. @api public */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** Why `text` is not a real ISO date, or undefined when it is one. @api public */
export function isoDateProblem(text: string): string | undefined {
  const m = ISO_DATE.exec(text)
  if (!m) return `${JSON.stringify(text)} is not a date written YYYY-MM-DD`
  const year = Number(m[1])
  const month = Number(m[2])
  const day = Number(m[3])
  if (month < 1 || month > 12) return `${text} is not a date: there is no month ${month}`
  const last = daysInMonth(year, month)
  if (day < 1 || day > last) return `${text} is not a date: ${year}-${m[2]} has ${last} days`
  return undefined
}
