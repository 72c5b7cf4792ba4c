// The Connecticut DCP decisions data set: the importer turns the shipped decision objects (real, the
// tail of savitz25/contractor-trust-hub's snapshot of data.ct.gov 2twc-xaxs, 2026-09-28) into exactly
// the data set file the engine reads; every record carries its source and retrieval date and stands
// field for field in the extract; the portal's own API rows are read too; a row outside the format is
// refused where it stands.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { COLUMNS, decisionDate, ImportError, importCtDecisions } from '../../tools/data/ct-decisions.js'

const test = suite('credentials/ct_decisions: importer and provenance')
const DIR = join(ROOT, 'tables', 'credentials', 'ct_dcp')
const EXTRACT = join(DIR, 'extract', 'decisions.jsonl')
const SOURCE = 'https://github.com/savitz25/contractor-trust-hub/blob/bca0d22fd233041aaaf99e7e930e2c59492c017d/lib/connecticut-intelligence/snapshot.json'
const read = (f: string) => readFileSync(f, 'utf8')
const rows = () => parse(read(join(DIR, 'decisions.csv')), { columns: true }) as Record<string, string>[]
const objects = () => read(EXTRACT).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)

test('the importer run on the shipped extract writes the committed data set file, byte for byte', () => {
  const out = importCtDecisions(read(EXTRACT), { sourceUrl: SOURCE, retrieved: '2026-11-27' })
  assert.is(out.decisions, read(join(DIR, 'decisions.csv')))
  assert.is(out.count, 66)
})

test('the extract is the snapshot\'s tail as serialised there: 30,684 characters with the closing limits object', () => {
  // The snapshot (6,974,989 characters) ends with the decisions array and a limits object; the
  // extract's objects joined by commas, then that closing, are its last 30,684 characters, which begin
  // at offset 6,944,305 right after the previous object's "COMPANY\"}," (read at that offset).
  const joined = read(EXTRACT).trim().split('\n').join(',')
  const closing = '],"limits":{"graphWrites":0,"newCanonicalCompanies":0,"nameOnlyAdverseJoins":0,"claimEligibilityBroadened":false,"providerComplaintRows":null,"guarantyProviderRows":null,"decisionCorpusIsCensus":false}}'
  assert.is(joined.length + closing.length, 30684)
  assert.is(6974989 - 30684, 6944305)
})

test('every record has its source and retrieval date and is an object of the extract, field for field', () => {
  const raw = objects()
  const r = rows()
  assert.is(r.length, raw.length)
  r.forEach((row, i) => {
    const o = raw[i]!
    assert.equal(Object.keys(row), [...COLUMNS])
    assert.is(row.source_url, SOURCE)
    assert.is(row.retrieved, '2026-11-27')
    assert.equal(
      [row.credential_number, row.case_number, row.decision_date, row.respondent, row.category, row.credential_class, row.holder_type, row.decision_url],
      [o.credentialNumber, o.caseNumber, o.decisionDate, o.respondent, o.category, o.matchedClass, o.matchedHolderType, o.decisionUrl],
    )
    assert.match(row.decision_url!, /^https:\/\/elicense\.ct\.gov\/Lookup\/ViewPublicLookupDocument\.aspx\?DocumentIdnt=\d+&GUID=[0-9A-F-]{36}$/)
  })
  assert.is(new Set(r.map((x) => x.credential_number)).size, 38)
})

test('the data set is declared with its source, licence and retrieval date, and the importer\'s columns', () => {
  const doc = parseYaml(read(join(ROOT, 'tables', 'credentials', 'records.yaml'))) as { tables: Record<string, Record<string, unknown>> }
  const t = doc.tables.ct_dcp_decisions!
  assert.is(t.kind, 'dataset')
  assert.is((t.source as { href: string }).href, 'https://data.ct.gov/Government/DCP-Legal-Administrative-Decisions/2twc-xaxs')
  assert.match(String(t.licence), /data\.ct\.gov\/terms/)
  assert.is(t.retrieved, '2026-11-27')
  assert.equal(Object.keys(t.columns as object), [...COLUMNS])
})

test('the portal\'s API rows (shortname, case_number, decision_date, credential_number, decision_links) import to the same fields', () => {
  // One real decision of the extract (case 2022-684, Cityside Paint Co LLC) written as the portal's API
  // returns it (field names as the snapshot's script reads them; a Socrata timestamp).
  const o = objects().find((x) => x.caseNumber === '2022-684')!
  const api = JSON.stringify([{ shortname: o.category, case_number: o.caseNumber, decision_date: `${String(o.decisionDate)}T00:00:00.000`, respondent: o.respondent, credential_number: o.credentialNumber, decision_links: { url: o.decisionUrl, description: 'Decision' } }])
  const out = parse(importCtDecisions(api, { sourceUrl: SOURCE, retrieved: '2026-11-27' }).decisions, { columns: true }) as Record<string, string>[]
  const shipped = rows().find((x) => x.case_number === '2022-684')!
  assert.equal(out[0], { ...shipped, credential_class: '', holder_type: '' }, 'the class and holder type are the snapshot\'s join, absent from the portal\'s rows')
})

test('a row outside the format stops the import where it stands', () => {
  const p = { sourceUrl: 'https://github.com/o/r/blob/0/x.json', retrieved: '2026-11-27' }
  const one = { category: 'OCCUPATIONAL', caseNumber: '1', decisionDate: '2024-01-01', respondent: 'A', credentialNumber: 'ELC.1', decisionUrl: 'https://elicense.ct.gov/x' }
  assert.is(importCtDecisions(JSON.stringify(one), p).count, 1)
  assert.throws(() => importCtDecisions([JSON.stringify(one), JSON.stringify(one)].join('\n'), p), (e: Error) => e instanceof ImportError && /line 2: case 1 of 2024-01-01 on ELC.1 is listed twice/.test(e.message))
  assert.throws(() => importCtDecisions(JSON.stringify({ ...one, respondent: '' }), p), (e: Error) => /has no respondent/.test(e.message))
  assert.throws(() => importCtDecisions(JSON.stringify({ ...one, decisionUrl: 'http://x' }), p), (e: Error) => /is not https/.test(e.message))
  assert.throws(() => importCtDecisions('{"x":\n', p), (e: Error) => /not JSON/.test(e.message))
  assert.is(decisionDate('2025-01-27T00:00:00.000', 'x'), '2025-01-27')
  assert.throws(() => decisionDate('01/27/2025', 'x'), /is not a day/)
})

test.run()
