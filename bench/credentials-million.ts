/**
 * @module /credentials/verify and /credentials/coverage at the size of the full NPPES file (issue
 * 29): a copy of the catalog whose NPPES data set (tables/credentials/nppes/providers.csv) is a
 * SYNTHETIC file of a million rows of its columns, built as bench/million.ts builds its names
 * (generated syllables drawn with Zipf frequencies, never real records), is loaded with the
 * service's operator limits, and the rule sets are evaluated in process: a verification by name
 * (with and without a state), by NPI and by licence number, and coverage, the first call (which
 * counts the rows once per store) and the later ones. Prints the import time, the store's size and
 * each query's p50 / p99 / max. The copy and its store go under the temporary folder and are removed.
 *
 *   npm run build --silent && node dist/bench/credentials-million.js [ROWS=1000000] [QUERIES=200]
 */
import { cpSync, createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { performance } from 'node:perf_hooks'
import { evaluate } from '../engine/index.js'
import { loadCatalog } from '../service/index.js'
import { withOperatorLimits } from '../service/project/catalog.js'
import { ROOT } from '../service/project/paths.js'
import { given, ORGANISATION, pick, random, STATES, surname, word } from './synthetic-names.js'

const ROWS = Number(process.argv[2] ?? 1_000_000)
const QUERIES = Number(process.argv[3] ?? 200)

const TAXONOMIES = [['207R00000X', 'Internal Medicine'], ['208D00000X', 'General Practice'], ['363L00000X', 'Nurse Practitioner'], ['1223G0001X', 'Dentist General Practice'], ['225100000X', 'Physical Therapist'], ['261QD0000X', 'Clinic/Center Dental'], ['333600000X', 'Pharmacy'], ['163W00000X', 'Registered Nurse']] as const
const COLUMNS = ['npi', 'enumeration_type', 'entity', 'name', 'name_short', 'credential', 'npi_status', 'enumeration_date', 'last_updated', 'deactivation_date', 'reactivation_date', 'taxonomy_code', 'taxonomy_desc', 'primary_taxonomy', 'state', 'state_basis', 'licence_state', 'licence_number', 'location_city', 'location_state', 'captured', 'source_url', 'retrieved']

/** An NPI with a valid check digit (Luhn over 80840 and the first nine digits), so verify accepts it. */
function npiOf(nine: number): string {
  const body = `80840${nine}`
  let sum = 0
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i])
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return `${nine}${(10 - (sum % 10)) % 10}`
}

interface Queries { names: { name: string; state: string }[]; npis: string[]; licences: string[] }

async function writeProviders(path: string): Promise<Queries> {
  const out = createWriteStream(path)
  out.write(`${COLUMNS.join(',')}\n`)
  const q: Queries = { names: [], npis: [], licences: [] }
  for (let i = 0; i < ROWS; i++) {
    const organisation = random() < 0.25
    const npi = npiOf(100_000_000 + i * 7 + Math.floor(random() * 7))
    const first = given()
    const last = surname()
    const name = organisation ? `${last} ${pick(ORGANISATION)} ${pick(ORGANISATION)}` : `${first} ${random() < 0.4 ? `${given().slice(0, 1)} ` : ''}${last}`
    const short = organisation ? name : `${first} ${last}`
    const [code, desc] = pick(TAXONOMIES)
    const state = pick(STATES)
    const licence = organisation ? '' : `${state}${100000 + Math.floor(random() * 900000)}`
    const row = [npi, organisation ? 'NPI-2' : 'NPI-1', organisation ? 'organisation' : 'person', name, short, organisation ? '' : 'MD', 'A', '2010-01-01', '2020-01-01', '', '', code, desc, 'true', state, 'licence', organisation ? '' : state, licence, word(300_000 + Math.floor(random() * 3000)), state, '2026-11-01', 'https://download.cms.gov/nppes/NPI_Files.html', '2026-11-27']
    if (!out.write(`${row.join(',')}\n`)) await once(out, 'drain')
    if (i % 997 === 0) {
      q.names.push({ name: short, state })
      q.npis.push(npi)
      if (licence) q.licences.push(licence)
    }
  }
  out.end()
  await once(out, 'finish')
  return q
}

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'credentials-million-'))
  try {
    for (const part of ['rules', 'tables', 'endpoints']) cpSync(join(ROOT, part), join(dir, part), { recursive: true })
    const q = await writeProviders(join(dir, 'tables', 'credentials', 'nppes', 'providers.csv'))
    const cache = join(dir, 'cache')
    const load0 = loadavg()[0]!
    const started = performance.now()
    const catalog = withOperatorLimits(loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables'), dataCacheDir: cache }))
    const loadMs = performance.now() - started
    const storeBytes = readdirSync(cache).reduce((n, f) => n + statSync(join(cache, f)).size, 0)
    console.log(`rows ${ROWS}; catalog load with the store's import ${(loadMs / 1000).toFixed(1)} s; store ${(storeBytes / 1e6).toFixed(0)} MB; load average ${load0.toFixed(2)}`)
    const time = async (what: string, inputs: Record<string, unknown>[], check: (r: Record<string, unknown>) => boolean) => {
      const t: number[] = []
      let ok = 0
      for (const input of inputs) {
        const s = performance.now()
        const r = await evaluate(catalog, what === 'coverage' ? 'credentials.coverage' : 'credentials.verify', input)
        t.push(performance.now() - s)
        if (check(r.result as Record<string, unknown>)) ok++
      }
      const first = t[0]!
      const rest = t.slice(1).sort((a, b) => a - b)
      console.log(`${what.padEnd(28)} first ${first.toFixed(1)} ms; then p50 ${quantile(rest, 0.5)?.toFixed(1)} ms, p99 ${quantile(rest, 0.99)?.toFixed(1)} ms, max ${rest.at(-1)?.toFixed(1)} ms over ${rest.length}; ${ok}/${t.length} as expected`)
    }
    const asOf = '2026-11-27'
    const found = (r: Record<string, unknown>) => r.found === true
    await time('verify by name and state', q.names.slice(0, QUERIES).map((n) => ({ name: n.name, state: n.state, as_of: asOf })), found)
    await time('verify by name alone', q.names.slice(0, QUERIES).map((n) => ({ name: n.name, as_of: asOf })), found)
    await time('verify by NPI', q.npis.slice(0, QUERIES).map((npi) => ({ npi, as_of: asOf })), found)
    await time('verify by licence number', q.licences.slice(0, QUERIES).map((l) => ({ licence_number: l, as_of: asOf })), found)
    await time('verify, profession not in state', Array.from({ length: 20 }, () => ({ name: 'Jane Doe', profession: 'psychologist', state: 'TX', as_of: asOf })), (r) => r.not_covered !== null)
    await time('coverage', [{}, { state: 'CT' }, { profession: 'nurse' }, ...Array.from({ length: 17 }, () => ({ as_of: asOf }))], (r) => Array.isArray(r.covered))
    console.log(`load average at the end ${loadavg()[0]!.toFixed(2)}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main()
