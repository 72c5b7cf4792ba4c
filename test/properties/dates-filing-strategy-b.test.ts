// The date property (dates-at-table-edges.ts) on the filing-strategy optimizer: the person's, children's and
// deceased spouse's dates (the calculation date and the spouse's and former spouse's in dates-filing-strategy-a.test.ts).
import { datesAtTableEdges, FILING_STRATEGY_EVERY as EVERY } from './dates-at-table-edges.js'

datesAtTableEdges('properties: dates at the edges of the tables, filing strategy (b)', {
  endpoints: (id) => id === 'optimize_ss_filing_strategy',
  paths: (path) => !(path === 'calculation_date' || path.startsWith('spouse.') || path.startsWith('former_spouse.')),
  boundsExpected: false,
  every: EVERY,
})
