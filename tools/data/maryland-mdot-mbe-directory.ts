/**
 * @module The Maryland MBE/DBE directory importer: the Maryland Department of Transportation's statewide
 * directory of certified firms (Minority Business Enterprise, Disadvantaged Business Enterprise, Small
 * Business Enterprise and Airport Concession DBE; MDOT is Maryland's Unified Certification Program under
 * 49 CFR 26.81), as data.maryland.gov publishes it (data set viap-eh6m, "Minority Business Enterprise:
 * Statewide Directory"), exported through the portal's JSON API (https://data.maryland.gov/resource/viap-eh6m.json,
 * an array of records; the SODA 2.0 shape with phone {phone_number}, website {url}, geocoded_location
 * {human_address}, and the 2.1 shape with those as plain text and geocoded_location_* columns, are both
 * read). Writes the data set tables/supplier_diversity/certifications.yaml declares (firms.csv): one row
 * per firm, the programs it is certified for read from its NAICS codes ("541511-MBE/DBE/SBE",
 * "541430-DBE/SBE-ONLY"), the certification date as YYYY-MM-DD, an end date left empty (the directory
 * publishes none; a directory that does would fill it), its address as published, and the
 * address the file was retrieved from with the date. The contact person, phone, fax and e-mail are not
 * carried over (this feature does not need them). A record outside the format stops the import naming it.
 *
 *     node dist/tools/data/maryland-mdot-mbe-directory.js viap-eh6m.json firms.csv --source-url URL --retrieved YYYY-MM-DD
 */
import { answerHelp } from '../help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { cell, ImportError, runImporter, type Provenance } from './importer.js'

export { ImportError, type Provenance }

/** The data set's columns, in order (tables/supplier_diversity/certifications.yaml declares the same). */
export const COLUMNS = [
  'certifier_state', 'certification_number', 'firm_name', 'address', 'city', 'state', 'zip', 'county',
  'certification_date', 'end_date', 'programs', 'mbe', 'dbe', 'sbe', 'acdbe', 'naics_codes', 'ownership', 'source_url', 'retrieved',
] as const
/** The programs the directory's NAICS suffixes name, in the order the directory writes them. */
export const PROGRAMS = ['MBE', 'DBE', 'SBE', 'ACDBE'] as const
export type Program = (typeof PROGRAMS)[number]
/** The certifier: MDOT certifies for Maryland. */
export const CERTIFIER_STATE = 'MD'

type Json = string | number | boolean | null | Json[] | { [k: string]: Json }

/** A text field of a record: a string, or (SODA 2.0) an object holding it under `inner`. */
function textField(r: Record<string, Json>, name: string, inner: string, where: string): string {
  const v = r[name]
  if (v === undefined || v === null) return ''
  if (typeof v === 'string') return v.trim()
  if (typeof v === 'object' && !Array.isArray(v) && typeof v[inner] === 'string') return (v[inner] as string).trim()
  throw new ImportError(`${where}: ${name} is neither text nor {${inner}: text}`)
}

/** "2016-07-07T00:00:00" or "2016-03-21T00:00:00.000" as 2016-07-07; anything else is an error. */
export function portalDate(text: string, where: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(T00:00:00(\.000)?)?$/.exec(text)
  if (!m) throw new ImportError(`${where}: certification_date "${text}" is not a date of the form YYYY-MM-DDT00:00:00`)
  const iso = `${m[1]}-${m[2]}-${m[3]}`
  const check = new Date(`${iso}T00:00:00Z`)
  if (Number.isNaN(check.getTime()) || check.getUTCDate() !== Number(m[3])) throw new ImportError(`${where}: "${text}" is not a day of the calendar`)
  return iso
}

/** The programs of a naics_code field: "541511-MBE/DBE/SBE, 541512-MBE-ONLY" holds MBE, DBE and SBE; "." or nothing holds none. */
export function programsOf(naics: string, where: string): Set<Program> {
  const found = new Set<Program>()
  // The directory writes "." for a firm whose work codes are not yet listed (two records of the 2017 export).
  if (naics === '' || naics === '.') return found
  for (const part of naics.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const m = /^(\d{2,6})-([A-Z/]+?)(-ONLY)?$/.exec(part)
    if (!m) throw new ImportError(`${where}: naics_code "${part}" is not NAICS-PROGRAMS (e.g. 541511-MBE/DBE/SBE)`)
    for (const p of m[2]!.split('/')) {
      if (!(PROGRAMS as readonly string[]).includes(p)) throw new ImportError(`${where}: naics_code "${part}" names an unknown program "${p}" (known: ${PROGRAMS.join(', ')})`)
      found.add(p as Program)
    }
  }
  return found
}

/** Convert the portal's JSON export; returns the data set's CSV text and its row count. */
export function importDirectory(text: string, p: Provenance): { firms: string; count: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  let doc: Json
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, '')) as Json
  } catch (e) {
    throw new ImportError(`the file is not JSON: ${(e as Error).message}`)
  }
  if (!Array.isArray(doc)) throw new ImportError('the file is not a JSON array of records (the portal\'s /resource/viap-eh6m.json export)')
  const out: string[] = [COLUMNS.join(',')]
  const seen = new Set<string>()
  doc.forEach((rec, i) => {
    const where = `record ${i + 1}`
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) throw new ImportError(`${where}: not an object`)
    const r = rec as Record<string, Json>
    const name = textField(r, 'name', 'name', where)
    if (name === '') throw new ImportError(`${where}: no name`)
    const number = textField(r, 'certification_number', 'certification_number', where)
    if (number !== '' && !/^\d{2}-\d{3,4}$/.test(number)) throw new ImportError(`${where}: certification_number "${number}" is not of the form YY-NNN`)
    if (number !== '' && seen.has(number)) throw new ImportError(`${where}: certification_number ${number} is listed twice`)
    if (number !== '') seen.add(number)
    const date = portalDate(textField(r, 'certification_date', 'certification_date', where), where)
    const naics = textField(r, 'naics_code', 'naics_code', where)
    const programs = programsOf(naics, where)
    const has = (x: Program) => (programs.has(x) ? 'true' : 'false')
    const row = [
      CERTIFIER_STATE, number, name,
      textField(r, 'address', 'address', where), textField(r, 'city', 'city', where), textField(r, 'state', 'state', where),
      textField(r, 'zip', 'zip', where), textField(r, 'county', 'county', where),
      date, '', PROGRAMS.filter((x) => programs.has(x)).join('/'), has('MBE'), has('DBE'), has('SBE'), has('ACDBE'),
      naics, textField(r, 'minority_group', 'minority_group', where), p.sourceUrl, p.retrieved,
    ]
    out.push(row.map(cell).join(','))
  })
  return { firms: out.join('\n') + '\n', count: out.length - 1 }
}

function main(argv: string[]): number {
  return runImporter(argv, 'node dist/tools/data/maryland-mdot-mbe-directory.js viap-eh6m.json OUT.csv --source-url URL --retrieved YYYY-MM-DD', (input, output, p) => {
    const r = importDirectory(readFileSync(input, 'utf8'), p)
    writeFileSync(output, r.firms)
    return `${r.count} firms written to ${output}`
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
