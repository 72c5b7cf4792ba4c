// The NPPES data set: the importer turns the shipped NPI Registry API responses (real, recorded in
// 2019 by ropensci/npi) into exactly the data set file the engine reads; every record carries its
// source file's address at its commit, the day CMS answered and the retrieval date, and stands
// field for field in a response; the full replacement file's layout imports to the same rows; a
// response or row outside CMS's format is refused where it stands.
import { createReadStream, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { citedHref } from '../helpers.js'
import { apiProvider, capturedFor, COLUMNS, ImportError, importApiResponses, importFullFile, nppesDate, toCsv } from '../../tools/data/nppes.js'

const test = suite('credentials/nppes: importer and provenance')
const DIR = join(ROOT, 'tables', 'credentials', 'nppes')
const EXTRACT = join(DIR, 'extract')
const SOURCE = 'https://github.com/ropensci/npi/blob/163fb1d79e80a79d197676df43cc8ea13f4090f5/tests/testthat/npiregistry.cms.hhs.gov/{file}'
const CAPTURED = 'api-1f9cef.json=2019-06-20,api-34c18d.json=2019-06-20,api-6b1573.json=2019-06-20,api-8bdc8b.json=2019-06-20,api-a769af.json=2019-06-20,api-b2f594.json=2019-06-20,api-f62abe.json=2019-06-20,api-f7d8ea.json=2019-06-14'
const read = (f: string) => readFileSync(f, 'utf8')
const files = () =>
  readdirSync(EXTRACT)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((name) => ({ name, text: read(join(EXTRACT, name)), captured: capturedFor(CAPTURED, name), sourceUrl: SOURCE.replace('{file}', name) }))
const rows = () => parse(read(join(DIR, 'providers.csv')), { columns: true }) as Record<string, string>[]

test('the importer run on the shipped responses writes the committed data set file, byte for byte', () => {
  const out = importApiResponses(files(), '2026-11-27')
  assert.is(toCsv(out.rows), read(join(DIR, 'providers.csv')))
  assert.is(out.providers, 40)
  assert.is(out.rows.length, 60)
})

test('the shipped responses are the eight of ropensci/npi that hold records', () => {
  assert.equal(readdirSync(EXTRACT).sort(), ['api-1f9cef.json', 'api-34c18d.json', 'api-6b1573.json', 'api-8bdc8b.json', 'api-a769af.json', 'api-b2f594.json', 'api-f62abe.json', 'api-f7d8ea.json'])
})

test('every record has its source file at its commit, a capture and retrieval date, and stands field for field in that response', () => {
  for (const r of rows()) {
    assert.equal(Object.keys(r), [...COLUMNS])
    const file = r.source_url!.split('/').pop()!
    assert.is(r.source_url, SOURCE.replace('{file}', file))
    assert.is(r.retrieved, '2026-11-27')
    assert.ok(['2019-06-14', '2019-06-20'].includes(r.captured!))
    const doc = JSON.parse(read(join(EXTRACT, file))) as { results: { number: number; enumeration_type: string; basic: Record<string, string>; taxonomies: { code: string; state: string; license: string; primary: boolean }[] }[] }
    const src = doc.results.find((x) => String(x.number) === r.npi)
    assert.ok(src, `NPI ${r.npi} not in ${file}`)
    assert.is(src!.enumeration_type, r.enumeration_type)
    const t = src!.taxonomies.find((x) => x.code === r.taxonomy_code && x.license === r.licence_number && x.state === r.licence_state)
    assert.ok(t, `taxonomy ${r.taxonomy_code} of ${r.npi}`)
    assert.is(String(t!.primary), r.primary_taxonomy)
    if (r.entity === 'person') assert.ok(r.name!.includes(src!.basic.first_name!) && r.name!.includes(src!.basic.last_name!))
    else assert.is(r.name, src!.basic.organization_name)
    assert.is(r.last_updated, src!.basic.last_updated)
  }
})

test('every NPI of the data set passes the check digit (Luhn over 80840 and the ten digits)', () => {
  const luhn = (npi: string) => {
    const d = [...`80840${npi}`].map(Number)
    const sum = d.reduce((s, x, i) => {
      const doubled = (d.length - 1 - i) % 2 === 1
      return s + (doubled ? (2 * x > 9 ? 2 * x - 9 : 2 * x) : x)
    }, 0)
    return sum % 10 === 0
  }
  const npis = new Set(rows().map((r) => r.npi!))
  assert.is(npis.size, 40)
  for (const n of npis) assert.ok(luhn(n), n)
})

test('the data set is declared with its source, licence and retrieval date, and the importer\'s columns', () => {
  const doc = parseYaml(read(join(ROOT, 'tables', 'credentials', 'records.yaml'))) as { tables: Record<string, Record<string, unknown>> }
  const t = doc.tables.nppes_providers!
  assert.is(t.kind, 'dataset')
  assert.is(citedHref(t.source), 'https://npiregistry.cms.hhs.gov/api-page')
  assert.match(String(t.licence), /Public domain/)
  assert.is(t.retrieved, '2026-11-27')
  assert.equal(Object.keys(t.columns as object), [...COLUMNS])
})

test('a provider in two responses is kept once (Kelsey Sprang, CSP Anesthesia)', () => {
  const r = rows()
  assert.is(r.filter((x) => x.npi === '1053975268').length, 1)
  assert.is(r.filter((x) => x.npi === '1568946812').length, 1)
})

test('the full replacement file\'s layout imports to the same rows as the API (taxonomy descriptions aside)', async () => {
  const fixture = join(ROOT, 'test', 'fixtures', 'credentials', 'npidata_pfile_layout.csv')
  const prov = { sourceUrl: 'https://download.cms.gov/nppes/NPI_Files.html', retrieved: '2026-11-27' }
  const full = await importFullFile(createReadStream(fixture), '2019-06-20', prov)
  assert.is(full.providers, 3)
  assert.is(full.skipped, 0)
  const fromFull = parse(full.csv, { columns: true }) as Record<string, string>[]
  const fromApi = rows().filter((r) => ['1720377294', '1003142399', '1568946812'].includes(r.npi!))
  const strip = (r: Record<string, string>) => ({ ...r, taxonomy_desc: '', source_url: '', captured: '' })
  const key = (r: Record<string, string>) => `${r.npi}|${r.taxonomy_code}|${r.licence_state}`
  assert.equal(fromFull.map(strip).sort((a, b) => key(a).localeCompare(key(b))), fromApi.map(strip).sort((a, b) => key(a).localeCompare(key(b))))
  const onlyNc = await importFullFile(createReadStream(fixture), '2019-06-20', prov, new Set(['NC']))
  assert.is(onlyNc.providers, 1, '--states NC keeps the provider licensed in North Carolina')
})

test('a response or row outside CMS\'s format stops the import where it stands', async () => {
  const f = (text: string) => [{ name: 'x.json', text, captured: '2019-06-20', sourceUrl: 'https://github.com/o/r/blob/0/x.json' }]
  assert.throws(() => importApiResponses(f('{"Errors":[{"field":"generic","number":"04","description":"No valid search criteria provided"}]}'), '2026-11-27'), (e: Error) => e instanceof ImportError && /an error response/.test(e.message))
  assert.throws(() => importApiResponses(f('{"result_count":1,"results":[{"number":123,"enumeration_type":"NPI-1","basic":{}}]}'), '2026-11-27'), (e: Error) => /is not a 10-digit NPI/.test(e.message))
  assert.throws(() => importApiResponses(f('not json'), '2026-11-27'), (e: Error) => /not JSON/.test(e.message))
  assert.throws(() => apiProvider({ number: 1720377294, enumeration_type: 'NPI-3', basic: {} }, 'r'), (e: Error) => /neither NPI-1 nor NPI-2/.test(e.message))
  assert.is(importApiResponses(f('{"result_count":0,"results":[]}'), '2026-11-27').providers, 0)
  const head = '"NPI","Entity Type Code"\n'
  await importFullFile(Readable.from([head + '"1720377294","1"\n']), '2019-06-20', { sourceUrl: 'https://x.gov/a', retrieved: '2026-11-27' }).then(
    () => assert.unreachable('a file without the full layout is refused'),
    (e: Error) => assert.match(e.message, /no column .*not the NPPES full file's header/),
  )
})

test('dates MM/DD/YYYY (full file) and YYYY-MM-DD (API), and no other', () => {
  assert.is(nppesDate('05/08/2018', 'x'), '2018-05-08')
  assert.is(nppesDate('2018-05-08', 'x'), '2018-05-08')
  assert.is(nppesDate('', 'x'), '')
  assert.throws(() => nppesDate('02/30/2018', 'x'), /not a day of the calendar/)
  assert.throws(() => nppesDate('5/8/2018', 'x'), /not a date/)
})

test.run()
