// The Maryland MBE/DBE directory data set: the importer turns the shipped export of data.maryland.gov's
// viap-eh6m (MDOT's directory) into exactly the data set file the engine reads; every record carries
// its source address and retrieval date and stands in the extract; the portal's other JSON shape (SODA
// 2.1, a real excerpt of the same directory in test/fixtures) is read alike; a record outside the format
// is refused naming it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { citedHref } from '../helpers.js'
import { COLUMNS, ImportError, importDirectory, portalDate, programsOf } from '../../tools/data/maryland-mdot-mbe-directory.js'

const test = suite('supplier_diversity/md_directory: importer and provenance')
const DIR = join(ROOT, 'tables', 'supplier_diversity', 'md_mdot_directory')
const EXTRACT = join(DIR, 'extract', 'viap-eh6m.json')
const SOURCE = 'https://github.com/d2rd/326-WebAPIs/blob/3d2ad84b3dae1601d84c35fea23556cab12199d9/DivBiz/data/mbeMain-validated.json'
const read = (f: string) => readFileSync(f, 'utf8')
const firms = () => parse(read(join(DIR, 'firms.csv')), { columns: true }) as Record<string, string>[]
type Rec = Record<string, unknown>
const extract = () => JSON.parse(read(EXTRACT)) as Rec[]

test('the importer run on the shipped extract writes the committed data set file, byte for byte', () => {
  const out = importDirectory(read(EXTRACT), { sourceUrl: SOURCE, retrieved: '2026-11-27' })
  assert.is(out.firms, read(join(DIR, 'firms.csv')))
  assert.is(out.count, 1000)
})

test('every record has its source address and retrieval date, and is a record of the extract', () => {
  const raw = extract()
  const rows = firms()
  assert.is(rows.length, raw.length)
  rows.forEach((r, i) => {
    const src = raw[i]!
    assert.equal(Object.keys(r), [...COLUMNS])
    assert.is(r.source_url, SOURCE)
    assert.is(r.retrieved, '2026-11-27')
    assert.is(r.firm_name, src.name)
    assert.is(r.certification_number, (src.certification_number as string | undefined) ?? '')
    assert.is(r.certification_date, String(src.certification_date).slice(0, 10))
    assert.is(r.end_date, '')
    assert.is(r.naics_codes, (src.naics_code as string | undefined) ?? '')
  })
})

test('the extract carries no contact person, phone, fax or e-mail', () => {
  for (const r of extract()) for (const k of ['contact', 'contact_email_address', 'phone', 'fax']) assert.not.ok(k in r, k)
})

test('the data set is declared with its source, licence, retrieval date and columns', () => {
  const doc = parseYaml(read(join(ROOT, 'tables', 'supplier_diversity', 'certifications.yaml'))) as { tables: Record<string, Record<string, unknown>> }
  const t = doc.tables.md_mdot_certified_firms!
  assert.is(t.kind, 'dataset')
  assert.is(citedHref(t.source), 'https://data.maryland.gov/d/viap-eh6m')
  assert.is(t.retrieved, '2026-11-27')
  assert.equal(Object.keys(t.columns as object), [...COLUMNS])
})

test('the golden cases\' firms are real records: Adams Legacy, Alliance Concrete, 212/Harakawa, Air Ventures', () => {
  const byNumber = new Map(firms().map((r) => [r.certification_number!, r]))
  assert.equal([byNumber.get('16-645')?.firm_name, byNumber.get('16-645')?.certification_date, byNumber.get('16-645')?.programs], ['ADAMS LEGACY, LLC', '2016-12-07', 'MBE/DBE/SBE'])
  assert.equal([byNumber.get('02-232')?.firm_name, byNumber.get('02-232')?.certification_date], ['ALLIANCE CONCRETE CORPORATION', '2002-05-28'])
  assert.equal([byNumber.get('15-074')?.firm_name, byNumber.get('15-074')?.programs], ['212/HARAKAWA, INC.', 'DBE/SBE'])
  assert.equal([byNumber.get('12-427')?.firm_name, byNumber.get('12-427')?.programs], ['AIR VENTURES, LLC', 'ACDBE'])
})

test('the portal\'s SODA 2.1 shape (a real excerpt of the same directory, test/fixtures) is read alike', () => {
  const text = read(join(ROOT, 'test', 'fixtures', 'supplier_diversity', 'viap-eh6m-soda21-excerpt.json'))
  const out = parse(importDirectory(text, { sourceUrl: 'https://data.maryland.gov/resource/viap-eh6m.json', retrieved: '2026-11-27' }).firms, { columns: true }) as Record<string, string>[]
  assert.is(out.length, 4)
  assert.equal([out[0]!.firm_name, out[0]!.certification_number, out[0]!.certification_date, out[0]!.programs, out[0]!.zip], ['1ST NEEDS MEDICAL, LLC', '16-119', '2016-03-21', 'MBE/DBE/SBE', '20769'])
})

test('a record outside the format stops the import naming it', () => {
  const p = { sourceUrl: 'https://data.maryland.gov/resource/viap-eh6m.json', retrieved: '2026-11-27' }
  const ok = { name: 'X', certification_number: '16-001', certification_date: '2016-01-04T00:00:00', naics_code: '541511-MBE/DBE/SBE' }
  assert.is(importDirectory(JSON.stringify([ok]), p).count, 1)
  assert.throws(() => importDirectory(JSON.stringify([ok, ok]), p), (e: Error) => e instanceof ImportError && /record 2: certification_number 16-001 is listed twice/.test(e.message))
  assert.throws(() => importDirectory(JSON.stringify([{ ...ok, name: '' }]), p), (e: Error) => e.message === 'record 1: no name')
  assert.throws(() => importDirectory(JSON.stringify([{ ...ok, naics_code: '541511-XBE' }]), p), (e: Error) => /unknown program "XBE"/.test(e.message))
  assert.throws(() => importDirectory(JSON.stringify([{ ...ok, certification_date: '01/04/2016' }]), p), (e: Error) => /is not a date of the form/.test(e.message))
  assert.throws(() => importDirectory('{"name": "X"}', p), (e: Error) => /not a JSON array/.test(e.message))
  assert.throws(() => importDirectory('[', p), (e: Error) => /not JSON/.test(e.message))
})

test('programs from the NAICS suffixes; dates of the portal\'s two forms', () => {
  assert.equal([...programsOf('541511-MBE/DBE/SBE, 541430-DBE/SBE-ONLY, 722513-MBE/DBE/SBE/ACDBE', 'x')].sort(), ['ACDBE', 'DBE', 'MBE', 'SBE'])
  assert.equal([...programsOf('.', 'x')], [])
  assert.is(portalDate('2016-03-21T00:00:00.000', 'x'), '2016-03-21')
  assert.is(portalDate('2016-07-07T00:00:00', 'x'), '2016-07-07')
  assert.throws(() => portalDate('2016-02-30T00:00:00', 'x'), /not a day of the calendar/)
})

test.run()
