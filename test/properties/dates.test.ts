// Property: a date anywhere in a request, at the edges of every table it may reach, is answered 200 or
// 400 naming a field, never a 500 (dates-at-table-edges.ts). Every endpoint but the filing-strategy
// optimizer here; its requests are shared between dates-filing-strategy-a and -b.test.ts, which the
// runner starts beside this one (they were three quarters of this file's time).
import { datesAtTableEdges } from './dates-at-table-edges.js'

datesAtTableEdges('properties: dates at the edges of the tables', { endpoints: (id) => id !== 'optimize_ss_filing_strategy', boundsExpected: true })
