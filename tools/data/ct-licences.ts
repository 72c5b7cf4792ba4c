/**
 * @module The Connecticut licence importer: the State of Connecticut's "State Licenses and
 * Credentials" data set on the Connecticut Open Data Portal (https://data.ct.gov/d/ngch-56tr, the
 * eLicense credentials of the Department of Consumer Protection and the Department of Public Health,
 * one row per credential, refreshed daily) into the data set tables/credentials/licences.yaml
 * declares (ct_dph/licences.csv).
 *
 * It reads the portal's CSV export (columns CredentialId, Name, Type, BusinessName, DBA,
 * FullCredentialCode, CredentialType, CredentialNumber, CredentialSubCategory, Credential, Status,
 * StatusReason, Active, IssueDate, EffectiveDate, ExpirationDate, Address, City, State, Zip,
 * RecordRefreshedOn; the API's JSON field names are the same in lower case) and the extract the
 * repository ships (the same rows as the Department of Public Health's analyst selected them:
 * name, type, fullcredentialcode, credentialnumber, credential, status, issuedate, effectivedate,
 * expirationdate, full_address, recordrefreshedon). Column names are matched ignoring case, spaces
 * and underscores; dates may be YYYY-MM-DD, a Socrata timestamp (YYYY-MM-DDT00:00:00.000) or
 * MM/DD/YYYY (with a time of day, as the CSV export writes them). Every field is carried over as
 * published; the licensing state is CT, the data set's only one. A row the format does not allow
 * stops the import with its line.
 *
 * It also reads JSON: the portal's API rows (SODA JSON, the same field names in lower case: a JSON
 * array or one row a line) and the credential objects of the snapshot the repository ships for
 * contractors (savitz25/contractor-trust-hub's `core` list: number, class, holderType, businessName,
 * status, activeFlag, issueDate, expirationDate, city; the full credential code is the only number it
 * keeps, and an individual's name and city were withheld there, so those rows have no name).
 *
 *     node dist/tools/data/ct-licences.js EXPORT.csv|ROWS.json|ROWS.jsonl OUT.csv --source-url URL --retrieved YYYY-MM-DD [--credentials "Home Health Care,Hospice"]
 */
import { answerHelp } from '../help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parse } from 'csv-parse/sync'
import { cell, ImportError, runImporter, type Provenance } from './importer.js'

export { ImportError, type Provenance }

/** The data set's columns, in order (tables/credentials/licences.yaml declares the same). */
export const COLUMNS = [
  'licence_number', 'credential_code', 'name', 'entity_type', 'credential', 'status', 'status_reason', 'issue_date',
  'effective_date', 'expiration_date', 'address', 'state', 'record_refreshed', 'source_url', 'retrieved',
] as const

/** The columns a file must hold (by their compared form), and those it may. */
const REQUIRED = ['name', 'fullcredentialcode', 'credentialnumber', 'credential', 'status', 'issuedate', 'effectivedate', 'expirationdate', 'recordrefreshedon'] as const

const key = (h: string) => h.toLowerCase().replace(/[\s_]+/g, '')

/** A portal date as YYYY-MM-DD; empty stays empty. */
export function portalDate(text: string, where: string): string {
  const t = text.trim()
  if (t === '') return ''
  let iso: string | undefined
  const m1 = /^(\d{4}-\d{2}-\d{2})(T[0-9:.]+)?$/.exec(t)
  const m2 = /^(\d{2})\/(\d{2})\/(\d{4})( \d{1,2}:\d{2}(:\d{2})?( [AP]M)?)?$/.exec(t)
  if (m1) iso = m1[1]
  else if (m2) iso = `${m2[3]}-${m2[1]}-${m2[2]}`
  if (!iso) throw new ImportError(`${where}: "${text}" is not a date (YYYY-MM-DD, YYYY-MM-DDThh:mm:ss or MM/DD/YYYY)`)
  const d = new Date(`${iso}T00:00:00Z`)
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) throw new ImportError(`${where}: "${text}" is not a day of the calendar`)
  return iso
}

/** Convert an export's CSV text; returns the data set's CSV text and its row count. */
export function importCtLicences(text: string, p: Provenance, credentials?: Set<string>): { licences: string; count: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  const records = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[]
  const header = (records[0]?.record ?? []).map(key)
  const col = new Map(header.map((h, i) => [h, i]))
  const missing = REQUIRED.filter((c) => !col.has(c))
  if (missing.length > 0) throw new ImportError(`line 1: the header lacks ${missing.join(', ')} (not an export of data.ct.gov ngch-56tr)`)
  const hasFull = col.has('fulladdress')
  if (!hasFull && !col.has('address')) throw new ImportError('line 1: the header has neither address nor full_address')
  const out: string[] = [COLUMNS.join(',')]
  const seen = new Set<string>()
  for (const { record, info } of records.slice(1)) {
    const w = `line ${info.lines}`
    if (record.length !== header.length) throw new ImportError(`${w}: ${record.length} fields, the header has ${header.length}`)
    const get = (c: string) => (col.has(c) ? (record[col.get(c)!] ?? '').trim() : '')
    const credential = get('credential')
    if (credentials && !credentials.has(credential)) continue
    const code = get('fullcredentialcode')
    if (code === '') throw new ImportError(`${w}: no credential code`)
    if (seen.has(code)) throw new ImportError(`${w}: credential ${code} is listed twice`)
    seen.add(code)
    const name = get('name') !== '' ? get('name') : get('businessname')
    if (name === '') throw new ImportError(`${w}: no name`)
    if (get('status') === '') throw new ImportError(`${w}: no status`)
    const address = hasFull
      ? get('fulladdress')
      : [get('address'), get('city'), [get('state'), get('zip')].filter((x) => x !== '').join(' ')].filter((x) => x !== '').join(', ')
    out.push(
      [
        get('credentialnumber'), code, name, get('type'), credential, get('status'), get('statusreason'),
        portalDate(get('issuedate'), w), portalDate(get('effectivedate'), w), portalDate(get('expirationdate'), w),
        address, 'CT', portalDate(get('recordrefreshedon'), w), p.sourceUrl, p.retrieved,
      ].map(cell).join(','),
    )
  }
  return { licences: out.join('\n') + '\n', count: out.length - 1 }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const field = (o: Json, k: string): string => (typeof o[k] === 'string' ? (o[k] as string).trim() : typeof o[k] === 'number' ? String(o[k]) : '')

/** Convert JSON rows (the portal's API rows or the snapshot's credential objects); the same CSV as importCtLicences. */
export function importCtLicencesJson(text: string, p: Provenance, credentials?: Set<string>): { licences: string; count: number } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  const t = text.replace(/^\uFEFF/, '').trim()
  let items: { o: unknown; where: string }[]
  if (t.startsWith('[')) {
    let doc: unknown
    try {
      doc = JSON.parse(t)
    } catch (e) {
      throw new ImportError(`not JSON (${(e as Error).message})`)
    }
    items = (doc as unknown[]).map((o, i) => ({ o, where: `row ${i + 1}` }))
  } else {
    items = t.split('\n').map((line, i) => {
      try {
        return { o: JSON.parse(line) as unknown, where: `line ${i + 1}` }
      } catch (e) {
        throw new ImportError(`line ${i + 1}: not JSON (${(e as Error).message})`)
      }
    })
  }
  const out: string[] = [COLUMNS.join(',')]
  const seen = new Set<string>()
  for (const { o, where } of items) {
    if (!isObject(o)) throw new ImportError(`${where}: not an object`)
    const snapshot = 'number' in o
    const code = snapshot ? field(o, 'number') : field(o, 'fullcredentialcode')
    if (code === '') throw new ImportError(`${where}: no credential code`)
    if (seen.has(code)) throw new ImportError(`${where}: credential ${code} is listed twice`)
    seen.add(code)
    const credential = snapshot ? field(o, 'class') : field(o, 'credential')
    if (credentials && !credentials.has(credential)) continue
    const holder = snapshot ? field(o, 'holderType') : field(o, 'type')
    const name = snapshot ? field(o, 'businessName') : field(o, 'name') || field(o, 'businessname')
    if (name === '' && !(snapshot && holder === 'INDIVIDUAL')) throw new ImportError(`${where}: credential ${code} has no name`)
    const status = field(o, 'status')
    if (status === '') throw new ImportError(`${where}: no status`)
    const address = snapshot
      ? field(o, 'city')
      : [field(o, 'address'), field(o, 'city'), [field(o, 'state'), field(o, 'zip')].filter((x) => x !== '').join(' ')].filter((x) => x !== '').join(', ')
    out.push(
      [
        snapshot ? code : field(o, 'credentialnumber'), code, name, holder, credential, status, snapshot ? '' : field(o, 'statusreason'),
        portalDate(snapshot ? field(o, 'issueDate') : field(o, 'issuedate'), where), portalDate(snapshot ? '' : field(o, 'effectivedate'), where),
        portalDate(snapshot ? field(o, 'expirationDate') : field(o, 'expirationdate'), where), address, 'CT',
        portalDate(snapshot ? '' : field(o, 'recordrefreshedon'), where), p.sourceUrl, p.retrieved,
      ].map(cell).join(','),
    )
  }
  return { licences: out.join('\n') + '\n', count: out.length - 1 }
}

function main(argv: string[]): number {
  const i = argv.indexOf('--credentials')
  const credentials = i >= 0 && argv[i + 1] ? new Set(argv[i + 1]!.split(',').map((s) => s.trim())) : undefined
  const rest = i >= 0 ? [...argv.slice(0, i), ...argv.slice(i + 2)] : argv
  return runImporter(rest, 'node dist/tools/data/ct-licences.js EXPORT.csv|ROWS.json|ROWS.jsonl OUT.csv --source-url URL --retrieved YYYY-MM-DD [--credentials "Home Health Care,Hospice"]', (input, output, p) => {
    const text = readFileSync(input, 'utf8')
    const r = /\.jsonl?$/.test(input) ? importCtLicencesJson(text, p, credentials) : importCtLicences(text, p, credentials)
    writeFileSync(output, r.licences)
    return `${r.count} credentials written to ${output}`
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
