/**
 * @module The Connecticut disciplinary-decision importer: the Department of Consumer Protection's
 * "DCP Legal/Administrative Decisions" on the Connecticut Open Data Portal
 * (https://data.ct.gov/d/2twc-xaxs: case number, decision date, respondent, the credential concerned,
 * the board or category, the decision document on eLicense) into the data set
 * tables/credentials/records.yaml declares (ct_dcp/decisions.csv): one row per decision, keyed by the
 * credential it concerns, which is how a licence record's discipline is found.
 *
 * It reads the portal's API rows (SODA JSON: shortname, case_number, decision_date,
 * respondent, credential_number, decision_links { url, description }) as a JSON array or one row a
 * line, and the decision objects of the snapshot the repository ships (the same rows as
 * savitz25/contractor-trust-hub stored them: category, caseNumber, decisionDate, respondent,
 * credentialNumber, decisionUrl, matchedClass, matchedHolderType, the last two joined from ngch-56tr
 * by the credential number), one a line or as the `decisions` array of the whole snapshot. Every
 * field is carried over as published (dates written YYYY-MM-DD); the credential class and holder type
 * are empty where the input has none. A row outside the format stops the import with its place.
 *
 *     node dist/tools/data/ct-decisions.js IN OUT.csv --source-url URL --retrieved YYYY-MM-DD
 */
import { answerHelp } from '../help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { cell, ImportError, runImporter, type Provenance } from './importer.js'

export { ImportError, type Provenance }

/** The data set's columns, in order (tables/credentials/records.yaml declares the same). */
export const COLUMNS = [
  'credential_number', 'case_number', 'decision_date', 'respondent', 'category', 'credential_class', 'holder_type', 'decision_url', 'source_url', 'retrieved',
] as const

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string).trim() : '')

/** A decision date: YYYY-MM-DD or a Socrata timestamp YYYY-MM-DDThh:mm:ss.sss. */
export function decisionDate(value: string, where: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(T[0-9:.]+)?$/.exec(value)
  const d = m ? new Date(`${m[1]}T00:00:00Z`) : undefined
  if (!m || !d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== m[1]) throw new ImportError(`${where}: decision date "${value}" is not a day (YYYY-MM-DD)`)
  return m[1]!
}

/** The rows of the input: a JSON array, a snapshot object with `decisions`, or one object a line. */
function objects(input: string): { o: unknown; where: string }[] {
  const t = input.replace(/^\uFEFF/, '').trim()
  if (t.startsWith('[') || (t.startsWith('{') && !t.includes('\n'))) {
    let doc: unknown
    try {
      doc = JSON.parse(t)
    } catch (e) {
      throw new ImportError(`not JSON (${(e as Error).message})`)
    }
    const list = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.decisions) ? doc.decisions : [doc]
    return list.map((o, i) => ({ o, where: `row ${i + 1}` }))
  }
  return t.split('\n').map((line, i) => {
    try {
      return { o: JSON.parse(line) as unknown, where: `line ${i + 1}` }
    } catch (e) {
      throw new ImportError(`line ${i + 1}: not JSON (${(e as Error).message})`)
    }
  })
}

/** Convert the input's text; returns the data set's CSV text and its row count. */
export function importCtDecisions(input: string, p: Provenance): { decisions: string; count: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  const out: string[] = [COLUMNS.join(',')]
  const seen = new Set<string>()
  for (const { o, where } of objects(input)) {
    if (!isObject(o)) throw new ImportError(`${where}: not an object`)
    const portal = 'case_number' in o
    const links = isObject(o.decision_links) ? o.decision_links : {}
    const row = portal
      ? { credential: text(o, 'credential_number'), caseNumber: text(o, 'case_number'), date: text(o, 'decision_date'), respondent: text(o, 'respondent'), category: text(o, 'shortname'), cls: '', holder: '', url: text(links, 'url') }
      : { credential: text(o, 'credentialNumber'), caseNumber: text(o, 'caseNumber'), date: text(o, 'decisionDate'), respondent: text(o, 'respondent'), category: text(o, 'category'), cls: text(o, 'matchedClass'), holder: text(o, 'matchedHolderType'), url: text(o, 'decisionUrl') }
    if (row.caseNumber === '') throw new ImportError(`${where}: no case number`)
    if (row.respondent === '') throw new ImportError(`${where}: case ${row.caseNumber} has no respondent`)
    if (row.credential === '') throw new ImportError(`${where}: case ${row.caseNumber} names no credential`)
    if (row.url !== '' && !/^https:\/\//.test(row.url)) throw new ImportError(`${where}: decision address "${row.url}" is not https`)
    const date = decisionDate(row.date, where)
    const key = `${row.credential}|${row.caseNumber}|${date}`
    if (seen.has(key)) throw new ImportError(`${where}: case ${row.caseNumber} of ${date} on ${row.credential} is listed twice`)
    seen.add(key)
    out.push([row.credential, row.caseNumber, date, row.respondent, row.category, row.cls, row.holder, row.url, p.sourceUrl, p.retrieved].map(cell).join(','))
  }
  return { decisions: out.join('\n') + '\n', count: out.length - 1 }
}

function main(argv: string[]): number {
  return runImporter(argv, 'node dist/tools/data/ct-decisions.js IN OUT.csv --source-url URL --retrieved YYYY-MM-DD', (input, output, p) => {
    const r = importCtDecisions(readFileSync(input, 'utf8'), p)
    writeFileSync(output, r.decisions)
    return `${r.count} decisions written to ${output}`
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
