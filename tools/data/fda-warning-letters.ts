/**
 * @module The FDA warning-letter importer: the listing of FDA's warning letters
 * (https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/compliance-actions-and-activities/warning-letters)
 * exported as CSV with the columns url,posted_date,letter_date,company,issuing_office,subject (url the
 * letter's site-relative path, the link of the company name; dates MM/DD/YYYY, as the listing shows
 * them) into the data set tables/fda/warning_letters.yaml declares (letters.csv). Every row is carried
 * over field for field (dates written YYYY-MM-DD, the letter's full address https://www.fda.gov + url
 * added), with the address the file was retrieved from and the date; a row the format does not allow
 * stops the import with its line, so nothing is guessed.
 *
 *     node dist/tools/data/fda-warning-letters.js LISTING.csv OUT.csv --source-url URL --retrieved YYYY-MM-DD
 */
import { answerHelp } from '../help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parse } from 'csv-parse/sync'
import { cell, ImportError, runImporter, type Provenance } from './importer.js'

export { ImportError, type Provenance }

/** The header the listing export opens with. */
export const HEADER = ['url', 'posted_date', 'letter_date', 'company', 'issuing_office', 'subject'] as const
/** The data set's columns, in order (tables/fda/warning_letters.yaml declares the same). */
export const COLUMNS = ['letter_url', 'posted_date', 'letter_date', 'company', 'issuing_office', 'subject', 'source_url', 'retrieved'] as const
/** FDA's site, the prefix of every letter's site-relative path. */
export const FDA_SITE = 'https://www.fda.gov'


/** "03/05/2026" as 2026-03-05; anything else is an error naming the place. */
export function listingDate(text: string, where: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text)
  if (!m) throw new ImportError(`${where}: "${text}" is not a date of the form MM/DD/YYYY`)
  const iso = `${m[3]}-${m[1]}-${m[2]}`
  const check = new Date(`${iso}T00:00:00Z`)
  if (Number.isNaN(check.getTime()) || check.getUTCDate() !== Number(m[2])) throw new ImportError(`${where}: "${text}" is not a day of the calendar`)
  return iso
}


/** Convert the listing's CSV text; returns the data set's CSV text and its row count. */
export function importWarningLetters(text: string, p: Provenance): { letters: string; count: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  const records = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[]
  const header = records[0]?.record ?? []
  if (header.join(',') !== HEADER.join(',')) throw new ImportError(`line 1: the header is not the listing's (${HEADER.join(',')})`)
  const out: string[] = [COLUMNS.join(',')]
  const seen = new Set<string>()
  for (const { record, info } of records.slice(1)) {
    const w = `line ${info.lines}`
    if (record.length !== HEADER.length) throw new ImportError(`${w}: ${record.length} fields, the header has ${HEADER.length}`)
    const [url, posted, letter, company, office, subject] = record as [string, string, string, string, string, string]
    if (!/^\/[A-Za-z0-9/_.-]+$/.test(url)) throw new ImportError(`${w}: url "${url}" is not a path of FDA's site`)
    if (seen.has(url)) throw new ImportError(`${w}: url "${url}" is listed twice`)
    seen.add(url)
    if (company.trim() === '') throw new ImportError(`${w}: no company`)
    out.push([FDA_SITE + url, listingDate(posted, w), listingDate(letter, w), company, office, subject, p.sourceUrl, p.retrieved].map(cell).join(','))
  }
  return { letters: out.join('\n') + '\n', count: out.length - 1 }
}

function main(argv: string[]): number {
  return runImporter(argv, 'node dist/tools/data/fda-warning-letters.js LISTING.csv OUT.csv --source-url URL --retrieved YYYY-MM-DD', (input, output, p) => {
    const r = importWarningLetters(readFileSync(input, 'utf8'), p)
    writeFileSync(output, r.letters)
    return `${r.count} letters written to ${output}`
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
