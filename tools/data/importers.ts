/**
 * @module The importers `npm run data -- update` can run, by the name a data set's `update.importer`
 * gives: each turns the publisher's file (its text) into the data set's CSV, every row stamped with
 * its provenance, and refuses (ImportError) a file outside the publisher's format.
 */
import { importWarningLetters } from './fda-warning-letters.js'
import { importDirectory } from './maryland-mdot-mbe-directory.js'
import { importCtLicences, importCtLicencesJson } from './ct-licences.js'
import { importCtDecisions } from './ct-decisions.js'
import type { Provenance } from './importer.js'

export interface Importer {
  /** What file the importer reads, as a user would find it. */
  reads: string
  run(text: string, p: Provenance, options: Record<string, string>): { csv: string; count: number }
}

/** A filter the shipped extract was made with, as a set (`"Home Health Care,Hospice"`). */
const listOption = (value: string | undefined): Set<string> | undefined => (value ? new Set(value.split(',').map((s) => s.trim())) : undefined)

export const IMPORTERS: Record<string, Importer> = {
  'fda-warning-letters': {
    reads: "FDA's warning-letter listing exported as CSV (url,posted_date,letter_date,company,issuing_office,subject)",
    run: (text, p) => {
      const r = importWarningLetters(text, p)
      return { csv: r.letters, count: r.count }
    },
  },
  'maryland-mdot-mbe-directory': {
    reads: 'the rows of data.maryland.gov data set viap-eh6m as JSON (the portal API)',
    run: (text, p) => {
      const r = importDirectory(text, p)
      return { csv: r.firms, count: r.count }
    },
  },
  'ct-licences': {
    reads: 'data.ct.gov data set ngch-56tr exported as CSV, or its rows as JSON / JSON Lines',
    run: (text, p, options) => {
      const credentials = listOption(options.credentials)
      const r = /^\s*[[{]/.test(text) ? importCtLicencesJson(text, p, credentials) : importCtLicences(text, p, credentials)
      return { csv: r.licences, count: r.count }
    },
  },
  'ct-decisions': {
    reads: "Connecticut Department of Consumer Protection's published decisions, as tools/data/ct-decisions.ts documents",
    run: (text, p) => {
      const r = importCtDecisions(text, p)
      return { csv: r.decisions, count: r.count }
    },
  },
}
