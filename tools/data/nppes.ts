/**
 * @module The NPPES importer: CMS's National Plan and Provider Enumeration System, the NPI registry
 * (https://npiregistry.cms.hhs.gov; bulk files https://download.cms.gov/nppes/NPI_Files.html), into the
 * data set tables/credentials/licences.yaml declares (nppes/providers.csv): one row for each taxonomy a
 * provider lists, with the licence number and licence state the provider reported for it.
 *
 * It reads both of CMS's formats:
 * - the NPI Registry API's JSON responses (`{ "result_count": n, "results": [ … ] }`, API version 2.1:
 *   `number`, `enumeration_type` NPI-1 or NPI-2, `basic`, `taxonomies`, `addresses`), one file or a
 *   folder of them (what the repository ships: real responses recorded in 2019);
 * - the monthly full replacement file `npidata_pfile_YYYYMMDD-YYYYMMDD.csv` (the "NPPES Data
 *   Dissemination" zip, about 9 GB unpacked; every field quoted; dates MM/DD/YYYY; taxonomy, licence
 *   number and licence state in the repeated columns `_1` … `_15`), read as a stream, optionally
 *   only the providers with a licence in the states given (`--states CT,NY`).
 *
 * Every field is carried over as CMS publishes it (dates written YYYY-MM-DD); nothing is inferred
 * beyond what the format says: a row's `state` is the licence state reported with the taxonomy, or,
 * where none was reported, the state of the practice location (`state_basis` says which). The
 * profession a taxonomy code belongs to is not decided here: it is a YAML lookup of the rule set.
 * A row the format does not allow stops the import with its file and line.
 *
 *     node dist/tools/data/nppes.js IN OUT.csv --source-url URL --retrieved YYYY-MM-DD [--captured YYYY-MM-DD] [--states CT,NY]
 *
 * IN is a JSON response, a folder of them (URL may hold `{file}`, replaced by each file's name), or
 * the full file's CSV. `--captured` is the day CMS answered (the API responses carry no date of their
 * own; for the full file its name's end date); it may be `{file}=DATE,…` per file.
 */
import { answerHelp } from '../help.js'
import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from 'csv-parse'
import { cell, ImportError, refused, type Provenance } from './importer.js'

export { ImportError, type Provenance }

/** The data set's columns, in order (tables/credentials/licences.yaml declares the same). */
export const COLUMNS = [
  'npi', 'enumeration_type', 'entity', 'name', 'name_short', 'credential', 'npi_status', 'enumeration_date', 'last_updated',
  'deactivation_date', 'reactivation_date', 'taxonomy_code', 'taxonomy_desc', 'primary_taxonomy', 'state', 'state_basis',
  'licence_state', 'licence_number', 'location_city', 'location_state', 'captured', 'source_url', 'retrieved',
] as const
export type Row = Record<(typeof COLUMNS)[number], string>

/** The full file's columns the importer reads (CMS, "NPPES Data Dissemination – Readme", file layout). */
export const FULL_FILE = {
  npi: 'NPI',
  entityType: 'Entity Type Code',
  organisation: 'Provider Organization Name (Legal Business Name)',
  last: 'Provider Last Name (Legal Name)',
  first: 'Provider First Name',
  middle: 'Provider Middle Name',
  credential: 'Provider Credential Text',
  city: 'Provider Business Practice Location Address City Name',
  state: 'Provider Business Practice Location Address State Name',
  enumerated: 'Provider Enumeration Date',
  updated: 'Last Update Date',
  deactivated: 'NPI Deactivation Date',
  reactivated: 'NPI Reactivation Date',
  taxonomy: (i: number) => `Healthcare Provider Taxonomy Code_${i}`,
  licence: (i: number) => `Provider License Number_${i}`,
  licenceState: (i: number) => `Provider License Number State Code_${i}`,
  primary: (i: number) => `Healthcare Provider Primary Taxonomy Switch_${i}`,
} as const
/** The full file repeats taxonomy, licence and licence state fifteen times. */
export const TAXONOMY_SLOTS = 15

const ISO = /^\d{4}-\d{2}-\d{2}$/
const NPI_FORM = /^[0-9]{10}$/
const TAXONOMY_FORM = /^[0-9A-Z]{9}X$/

function isoDay(iso: string, where: string): string {
  const d = new Date(`${iso}T00:00:00Z`)
  if (!ISO.test(iso) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== iso) throw new ImportError(`${where}: "${iso}" is not a day of the calendar`)
  return iso
}

/** "05/08/2018" (the full file) or "2018-05-08" (the API) as 2018-05-08; empty stays empty. */
export function nppesDate(text: string, where: string): string {
  if (text === '') return ''
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text)
  if (us) return isoDay(`${us[3]}-${us[1]}-${us[2]}`, where)
  if (ISO.test(text)) return isoDay(text, where)
  throw new ImportError(`${where}: "${text}" is not a date of the form MM/DD/YYYY or YYYY-MM-DD`)
}

const joinName = (...parts: (string | undefined)[]) => parts.map((p) => (p ?? '').trim()).filter((p) => p !== '').join(' ')

interface Provider {
  npi: string
  enumerationType: 'NPI-1' | 'NPI-2'
  name: string
  nameShort: string
  credential: string
  status: string
  enumerated: string
  updated: string
  deactivated: string
  reactivated: string
  city: string
  state: string
  taxonomies: { code: string; desc: string; primary: boolean; state: string; licence: string }[]
}

function rowsOf(p: Provider, captured: string, prov: Provenance): Row[] {
  return p.taxonomies.map((t) => ({
    npi: p.npi,
    enumeration_type: p.enumerationType,
    entity: p.enumerationType === 'NPI-1' ? 'person' : 'organisation',
    name: p.name,
    name_short: p.nameShort,
    credential: p.credential,
    npi_status: p.status,
    enumeration_date: p.enumerated,
    last_updated: p.updated,
    deactivation_date: p.deactivated,
    reactivation_date: p.reactivated,
    taxonomy_code: t.code,
    taxonomy_desc: t.desc,
    primary_taxonomy: t.primary ? 'true' : 'false',
    state: t.state !== '' ? t.state : p.state,
    state_basis: t.state !== '' ? 'licence' : 'practice location',
    licence_state: t.state,
    licence_number: t.licence,
    location_city: p.city,
    location_state: p.state,
    captured,
    source_url: prov.sourceUrl,
    retrieved: prov.retrieved,
  }))
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
function str(o: Json, key: string, where: string, required = false): string {
  const v = o[key]
  if (v === undefined || v === null) {
    if (required) throw new ImportError(`${where}: no ${key}`)
    return ''
  }
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw new ImportError(`${where}: ${key} is not a value`)
  return String(v).trim()
}

/** One API result (API version 2.1) as a provider; anything else is an error naming the result. */
export function apiProvider(r: unknown, where: string): Provider {
  if (!isObject(r)) throw new ImportError(`${where}: a result is not an object`)
  const npi = str(r, 'number', where, true)
  if (!NPI_FORM.test(npi)) throw new ImportError(`${where}: number "${npi}" is not a 10-digit NPI`)
  const w = `${where} (NPI ${npi})`
  const type = str(r, 'enumeration_type', w, true)
  if (type !== 'NPI-1' && type !== 'NPI-2') throw new ImportError(`${w}: enumeration_type "${type}" is neither NPI-1 nor NPI-2`)
  const basic = r.basic
  if (!isObject(basic)) throw new ImportError(`${w}: no basic`)
  const person = type === 'NPI-1'
  const name = person ? joinName(str(basic, 'first_name', w, true), str(basic, 'middle_name', w), str(basic, 'last_name', w, true)) : str(basic, 'organization_name', w, true)
  const nameShort = person ? joinName(str(basic, 'first_name', w), str(basic, 'last_name', w)) : name
  const addresses = Array.isArray(r.addresses) ? r.addresses : []
  const location = addresses.find((a) => isObject(a) && a.address_purpose === 'LOCATION') as Json | undefined
  const taxonomies = Array.isArray(r.taxonomies) ? r.taxonomies : []
  if (taxonomies.length === 0) throw new ImportError(`${w}: no taxonomy`)
  return {
    npi,
    enumerationType: type,
    name,
    nameShort,
    credential: person ? str(basic, 'credential', w) : '',
    status: str(basic, 'status', w, true),
    enumerated: nppesDate(str(basic, 'enumeration_date', w), w),
    updated: nppesDate(str(basic, 'last_updated', w), w),
    deactivated: nppesDate(str(basic, 'deactivation_date', w), w),
    reactivated: nppesDate(str(basic, 'reactivation_date', w), w),
    city: location ? str(location, 'city', w) : '',
    state: location ? str(location, 'state', w) : '',
    taxonomies: taxonomies.map((t, i) => {
      if (!isObject(t)) throw new ImportError(`${w}: taxonomy ${i + 1} is not an object`)
      const code = str(t, 'code', w, true)
      if (!TAXONOMY_FORM.test(code)) throw new ImportError(`${w}: taxonomy code "${code}" is not of NUCC's form`)
      return { code, desc: str(t, 'desc', w), primary: t.primary === true, state: str(t, 'state', w), licence: str(t, 'license', w) }
    }),
  }
}

/**
 * The providers of the API's JSON responses, in the order given, each NPI once: a provider in
 * several responses is taken from the one it was last updated in (the first of equals). An error
 * response (`Errors`) is not data and stops the import.
 */
export function importApiResponses(files: { name: string; text: string; captured: string; sourceUrl: string }[], retrieved: string): { rows: Row[]; providers: number } {
  if (!ISO.test(retrieved)) throw new ImportError(`--retrieved "${retrieved}" is not YYYY-MM-DD`)
  const kept = new Map<string, { p: Provider; captured: string; sourceUrl: string }>()
  for (const f of files) {
    isoDay(f.captured, `${f.name}: captured`)
    if (!/^https:\/\//.test(f.sourceUrl)) throw new ImportError(`${f.name}: source URL "${f.sourceUrl}" is not an https address`)
    let doc: unknown
    try {
      doc = JSON.parse(f.text)
    } catch (e) {
      throw new ImportError(`${f.name}: not JSON (${(e as Error).message})`)
    }
    if (!isObject(doc)) throw new ImportError(`${f.name}: not an API response`)
    if (doc.Errors !== undefined) throw new ImportError(`${f.name}: an error response of the API, not records`)
    if (!Array.isArray(doc.results)) throw new ImportError(`${f.name}: no results array`)
    doc.results.forEach((r, i) => {
      const p = apiProvider(r, `${f.name}: result ${i + 1}`)
      const before = kept.get(p.npi)
      if (!before || p.updated > before.p.updated) kept.set(p.npi, { p, captured: f.captured, sourceUrl: f.sourceUrl })
    })
  }
  const rows = [...kept.values()].flatMap(({ p, captured, sourceUrl }) => rowsOf(p, captured, { sourceUrl, retrieved }))
  return { rows, providers: kept.size }
}

/** One record of the full file (by its header) as a provider; null for a deactivated NPI CMS publishes without a name. */
export function fullFileProvider(rec: Record<string, string>, where: string): Provider | null {
  const get = (col: string) => {
    const v = rec[col]
    if (v === undefined) throw new ImportError(`${where}: no column "${col}" (not the NPPES full file's header)`)
    return v.trim()
  }
  const npi = get(FULL_FILE.npi)
  if (!NPI_FORM.test(npi)) throw new ImportError(`${where}: NPI "${npi}" is not 10 digits`)
  const code = get(FULL_FILE.entityType)
  const deactivated = nppesDate(get(FULL_FILE.deactivated), where)
  const reactivated = nppesDate(get(FULL_FILE.reactivated), where)
  if (code === '') {
    if (deactivated === '') throw new ImportError(`${where}: NPI ${npi} has no entity type and no deactivation date`)
    return null
  }
  if (code !== '1' && code !== '2') throw new ImportError(`${where}: entity type "${code}" is neither 1 nor 2`)
  const person = code === '1'
  const taxonomies: Provider['taxonomies'] = []
  for (let i = 1; i <= TAXONOMY_SLOTS; i++) {
    const t = get(FULL_FILE.taxonomy(i))
    if (t === '') continue
    if (!TAXONOMY_FORM.test(t)) throw new ImportError(`${where}: taxonomy code "${t}" is not of NUCC's form`)
    taxonomies.push({ code: t, desc: '', primary: get(FULL_FILE.primary(i)) === 'Y', state: get(FULL_FILE.licenceState(i)), licence: get(FULL_FILE.licence(i)) })
  }
  if (taxonomies.length === 0) throw new ImportError(`${where}: NPI ${npi} lists no taxonomy`)
  const name = person ? joinName(get(FULL_FILE.first), get(FULL_FILE.middle), get(FULL_FILE.last)) : get(FULL_FILE.organisation)
  if (name === '') throw new ImportError(`${where}: NPI ${npi} has no name`)
  return {
    npi,
    enumerationType: person ? 'NPI-1' : 'NPI-2',
    name,
    nameShort: person ? joinName(get(FULL_FILE.first), get(FULL_FILE.last)) : name,
    credential: person ? get(FULL_FILE.credential) : '',
    // The full file has no status column: an NPI is deactivated when it has a deactivation date and no reactivation after it.
    status: deactivated !== '' && !(reactivated !== '' && reactivated >= deactivated) ? 'D' : 'A',
    enumerated: nppesDate(get(FULL_FILE.enumerated), where),
    updated: nppesDate(get(FULL_FILE.updated), where),
    deactivated,
    reactivated,
    city: get(FULL_FILE.city),
    state: get(FULL_FILE.state),
    taxonomies,
  }
}

/** Stream the full file; returns the data set's CSV text and its counts. */
export async function importFullFile(
  input: NodeJS.ReadableStream,
  captured: string,
  prov: Provenance,
  states?: Set<string>,
): Promise<{ csv: string; rows: number; providers: number; skipped: number }> {
  if (!ISO.test(prov.retrieved)) throw new ImportError(`--retrieved "${prov.retrieved}" is not YYYY-MM-DD`)
  isoDay(captured, '--captured')
  const out: string[] = [COLUMNS.join(',')]
  let providers = 0
  let skipped = 0
  let line = 1
  const parser = input.pipe(parse({ columns: true, bom: true, relax_column_count: false }))
  for await (const rec of parser as AsyncIterable<Record<string, string>>) {
    line++
    const p = fullFileProvider(rec, `line ${line}`)
    if (!p) {
      skipped++
      continue
    }
    if (states && !p.taxonomies.some((t) => states.has(t.state)) && !states.has(p.state)) continue
    providers++
    for (const r of rowsOf(p, captured, prov)) out.push(COLUMNS.map((c) => cell(r[c])).join(','))
  }
  return { csv: out.join('\n') + '\n', rows: out.length - 1, providers, skipped }
}

export const toCsv = (rows: Row[]): string => [COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => cell(r[c])).join(','))].join('\n') + '\n'

/** `--captured` as one date or `file=date,…` per file. */
export function capturedFor(spec: string, file: string): string {
  if (ISO.test(spec)) return spec
  for (const part of spec.split(',')) {
    const [f, d] = part.split('=')
    if (f === file && d) return d
  }
  throw new ImportError(`--captured names no date for ${file}`)
}

async function main(argv: string[]): Promise<number> {
  const usage = 'node dist/tools/data/nppes.js IN OUT.csv --source-url URL --retrieved YYYY-MM-DD [--captured YYYY-MM-DD | FILE=DATE,…] [--states CT,NY]'
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { 'source-url': { type: 'string' }, retrieved: { type: 'string' }, captured: { type: 'string' }, states: { type: 'string' } },
  })
  const [input, output] = positionals
  const sourceUrl = values['source-url']
  const retrieved = values.retrieved
  const captured = typeof values.captured === 'string' ? values.captured : typeof retrieved === 'string' ? retrieved : ''
  if (!input || !output || typeof sourceUrl !== 'string' || typeof retrieved !== 'string') {
    process.stderr.write(`usage: ${usage}\n`)
    return 2
  }
  try {
    if (input.endsWith('.csv')) {
      const states = typeof values.states === 'string' ? new Set(values.states.split(',').map((s) => s.trim().toUpperCase())) : undefined
      const r = await importFullFile(createReadStream(input), capturedFor(captured, basename(input)), { sourceUrl, retrieved }, states)
      writeFileSync(output, r.csv)
      process.stdout.write(`${r.rows} rows (${r.providers} providers; ${r.skipped} deactivated NPIs without a name skipped) written to ${output}\n`)
      return 0
    }
    const names = statSync(input).isDirectory() ? readdirSync(input).filter((n) => n.endsWith('.json')).sort() : [basename(input)]
    const dir = statSync(input).isDirectory() ? input : join(input, '..')
    const files = names.map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8'), captured: capturedFor(captured, name), sourceUrl: sourceUrl.replaceAll('{file}', name) }))
    const r = importApiResponses(files, retrieved)
    writeFileSync(output, toCsv(r.rows))
    process.stdout.write(`${r.rows.length} rows (${r.providers} providers) written to ${output}\n`)
    return 0
  } catch (e) {
    return refused(e)
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code))
}
