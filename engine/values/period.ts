/**
 * @module The periods a supported year covers, as an endpoint declares them: a calendar year by
 * default; a fiscal year that starts on another day (Australia's income year starts on 1 July and
 * is named by the year it ends in); or a year of quarters (a benefit indexed each quarter). The load
 * check requires every table an endpoint reads to have a value in force on the first day of each.
 */

/** How an endpoint's years are cut into periods (endpoints/*.yaml `years.period`). */
export interface Period {
  /** The month and day a year starts: "01-01", "07-01". */
  starts: string
  /** Whether year N is the one that starts in N (`start`) or ends in N (`end`, Australia's). */
  named_by: 'start' | 'end'
  /** The length of each period inside the year, in months: 12 (the year), 3 (quarters), 1. */
  months: 1 | 3 | 6 | 12
}

export const CALENDAR_YEAR: Period = { starts: '01-01', named_by: 'start', months: 12 }

/** The first day of each period of year `year`, in order. @api public */
export function periodStarts(year: number, period: Period = CALENDAR_YEAR): string[] {
  const [month, day] = period.starts.split('-').map(Number) as [number, number]
  // A year named by its end starts in the year before, unless it starts on 1 January.
  const startYear = period.named_by === 'end' && !(month === 1 && day === 1) ? year - 1 : year
  const out: string[] = []
  for (let k = 0; k < 12; k += period.months) {
    const m = month - 1 + k
    const y = startYear + Math.floor(m / 12)
    out.push(`${String(y).padStart(4, '0')}-${String((m % 12) + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`)
  }
  return out
}
