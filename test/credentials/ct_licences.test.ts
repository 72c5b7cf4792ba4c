// The Connecticut licence data set: the importer turns the shipped export of data.ct.gov ngch-56tr
// (real, the Department of Public Health analyst's export of January 2025) into exactly the data set
// file the engine reads; every record carries its source file's address at its commit and the
// retrieval date and stands field for field in the export; the portal's own column names are read
// too; a row outside the format is refused at its line.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { citedHref } from '../helpers.js'
import { COLUMNS, ImportError, importCtLicences, importCtLicencesJson, portalDate } from '../../tools/data/ct-licences.js'

const test = suite('credentials/ct_licences: importer and provenance')
const DIR = join(ROOT, 'tables', 'credentials', 'ct_dph')
const EXTRACT = join(DIR, 'extract', 'hospice_hhc_facility_list.csv')
const SOURCE = 'https://github.com/asenetcky/ct-hospice-and-home-healthcare/blob/a4c029db56307712cc212e228630b5692d855b1b/data/hospice_hhc_facility_list.csv'
const read = (f: string) => readFileSync(f, 'utf8')
const licences = () => parse(read(join(DIR, 'licences.csv')), { columns: true }) as Record<string, string>[]
const extract = () => parse(read(EXTRACT), { columns: true }) as Record<string, string>[]

test('the importer run on the shipped export writes the committed data set file, byte for byte', () => {
  const out = importCtLicences(read(EXTRACT), { sourceUrl: SOURCE, retrieved: '2026-11-27' })
  assert.is(out.licences, read(join(DIR, 'licences.csv')))
  assert.is(out.count, 93)
})

test('every record has its source and retrieval date and is a row of the export, field for field', () => {
  const raw = new Map(extract().map((r) => [r.fullcredentialcode!, r]))
  const rows = licences()
  assert.is(rows.length, 93)
  for (const r of rows) {
    assert.equal(Object.keys(r), [...COLUMNS])
    assert.is(r.source_url, SOURCE)
    assert.is(r.retrieved, '2026-11-27')
    assert.is(r.state, 'CT')
    const src = raw.get(r.credential_code!)
    assert.ok(src, r.credential_code)
    assert.equal(
      [src!.name, src!.type, src!.credentialnumber, src!.credential, src!.status, src!.issuedate, src!.effectivedate, src!.expirationdate, src!.full_address, src!.recordrefreshedon],
      [r.name, r.entity_type, r.licence_number, r.credential, r.status, r.issue_date, r.effective_date, r.expiration_date, r.address, r.record_refreshed],
    )
  }
})

test('the data set is declared with its source, licence and retrieval date, and the importer\'s columns', () => {
  const doc = parseYaml(read(join(ROOT, 'tables', 'credentials', 'records.yaml'))) as { tables: Record<string, Record<string, unknown>> }
  const t = doc.tables.ct_licences!
  assert.is(t.kind, 'dataset')
  assert.is(citedHref(t.source), 'https://data.ct.gov/Business/State-Licenses-and-Credentials/ngch-56tr')
  assert.match(String(t.licence), /data\.ct\.gov\/terms/)
  assert.is(t.retrieved, '2026-11-27')
  assert.equal(Object.keys(t.columns as object), [...COLUMNS])
})

test('the portal\'s own export (CredentialId … RecordRefreshedOn, MM/DD/YYYY dates with a time) imports to the same fields', () => {
  // One real row of the shipped export (Accentcare, HHC.9915725), rewritten in the portal's column
  // names and date style, with the address split as the portal publishes it.
  const head = 'CredentialId,Name,Type,BusinessName,DBA,FullCredentialCode,CredentialType,CredentialNumber,CredentialSubCategory,Credential,Status,StatusReason,Active,IssueDate,EffectiveDate,ExpirationDate,Address,City,State,Zip,RecordRefreshedOn'
  const row = ',Accentcare Hospice & Palliative Care Of Connecticut,Limited Liability Company,,,HHC.9915725,HHC,9915725,,Home Health Care,Active,,1,12/13/2012 12:00:00 AM,10/01/2024 12:00:00 AM,09/30/2027 12:00:00 AM,1579 STRAITS TPKE STE 1E,MIDDLEBURY,CT,06762,10/11/2024 12:00:00 AM'
  const out = parse(importCtLicences(`${head}\n${row}\n`, { sourceUrl: SOURCE, retrieved: '2026-11-27' }).licences, { columns: true }) as Record<string, string>[]
  const shipped = licences().find((r) => r.credential_code === 'HHC.9915725')!
  assert.equal(out[0], shipped)
})

test('a row outside the format stops the import at its line', () => {
  const head = 'name,type,fullcredentialcode,credentialnumber,credential,status,issuedate,effectivedate,expirationdate,full_address,recordrefreshedon'
  const ok = 'A,Corporation,HHC.1,1,Home Health Care,Active,2020-01-01,2020-01-01,2025-01-01,"1 Main St, Hartford, CT",2024-01-01'
  const p = { sourceUrl: 'https://github.com/o/r/blob/0/x.csv', retrieved: '2026-11-27' }
  assert.is(importCtLicences([head, ok].join('\n'), p).count, 1)
  assert.throws(() => importCtLicences([head, ok, ok].join('\n'), p), (e: Error) => e instanceof ImportError && /line 3: credential HHC.1 is listed twice/.test(e.message))
  assert.throws(() => importCtLicences([head, ok.replace('2020-01-01,2020', '2020-13-01,2020')].join('\n'), p), (e: Error) => /not a day of the calendar/.test(e.message))
  assert.throws(() => importCtLicences([head, ok.replace(',Active,', ',,')].join('\n'), p), (e: Error) => e.message === 'line 2: no status')
  assert.throws(() => importCtLicences('name,status\n', p), (e: Error) => /the header lacks/.test(e.message))
  assert.is(importCtLicences([head, ok].join('\n'), p, new Set(['Hospice'])).count, 0, '--credentials keeps only the credentials named')
})

const CONTRACTORS = join(ROOT, 'tables', 'credentials', 'ct_dcp')
const SNAPSHOT = 'https://github.com/savitz25/contractor-trust-hub/blob/bca0d22fd233041aaaf99e7e930e2c59492c017d/lib/connecticut-intelligence/snapshot.json'

test('the contractor extract (the snapshot\'s core objects) imports to the committed data set file, byte for byte', () => {
  const out = importCtLicencesJson(read(join(CONTRACTORS, 'extract', 'contractors.jsonl')), { sourceUrl: SNAPSHOT, retrieved: '2026-11-27' })
  assert.is(out.licences, read(join(CONTRACTORS, 'contractors.csv')))
  assert.is(out.count, 69)
})

test('the contractor extract is the snapshot\'s characters 40,028 to 55,978, and every row stands in it field for field', () => {
  // Read at offset 40,000 the snapshot shows '3-31","city":"East Granby"},' (28 characters) and then the
  // first object; read at 55,960 it shows '"city":"HARTFORD"},' (18 characters) and then the next object.
  const lines = read(join(CONTRACTORS, 'extract', 'contractors.jsonl')).trim().split('\n')
  assert.is(40028 + lines.join(',').length, 55978)
  const objects = lines.map((l) => JSON.parse(l) as Record<string, string | null>)
  const rows = parse(read(join(CONTRACTORS, 'contractors.csv')), { columns: true }) as Record<string, string>[]
  rows.forEach((r, i) => {
    const o = objects[i]!
    assert.equal(Object.keys(r), [...COLUMNS])
    assert.is(r.source_url, SNAPSHOT)
    assert.equal([r.credential_code, r.licence_number, r.credential, r.entity_type, r.name, r.status, r.issue_date, r.expiration_date, r.address], [o.number, o.number, o.class, o.holderType, o.businessName ?? '', o.status, o.issueDate ?? '', o.expirationDate ?? '', o.city ?? ''])
  })
  assert.is(rows.filter((r) => r.name === '').length, 21, 'the individuals, whose names the snapshot withheld')
})

test('the portal\'s API rows (lower-case field names) import like its CSV export', () => {
  const api = JSON.stringify([{ credentialid: '1', name: 'Accentcare Hospice & Palliative Care Of Connecticut', type: 'Limited Liability Company', fullcredentialcode: 'HHC.9915725', credentialtype: 'HHC', credentialnumber: '9915725', credential: 'Home Health Care', status: 'Active', issuedate: '2012-12-13T00:00:00.000', effectivedate: '2024-10-01T00:00:00.000', expirationdate: '2027-09-30T00:00:00.000', address: '1579 STRAITS TPKE STE 1E', city: 'MIDDLEBURY', state: 'CT', zip: '06762', recordrefreshedon: '2024-10-11T00:00:00.000' }])
  const out = parse(importCtLicencesJson(api, { sourceUrl: SOURCE, retrieved: '2026-11-27' }).licences, { columns: true }) as Record<string, string>[]
  assert.equal(out[0], licences().find((r) => r.credential_code === 'HHC.9915725'))
  assert.throws(() => importCtLicencesJson('[{"fullcredentialcode":"X.1","status":"ACTIVE"}]', { sourceUrl: SOURCE, retrieved: '2026-11-27' }), (e: Error) => /has no name/.test(e.message))
})

test('portal dates: ISO, Socrata timestamps and MM/DD/YYYY', () => {
  assert.is(portalDate('2025-06-30', 'x'), '2025-06-30')
  assert.is(portalDate('2025-06-30T00:00:00.000', 'x'), '2025-06-30')
  assert.is(portalDate('06/30/2025 12:00:00 AM', 'x'), '2025-06-30')
  assert.is(portalDate('', 'x'), '')
  assert.throws(() => portalDate('30.06.2025', 'x'), /not a date/)
})

test.run()
