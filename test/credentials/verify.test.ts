// Professional licence verification through the service: every real NPI of the extract passes the
// YAML check digit and finds its own records; the staleness threshold and the professions are YAML
// an analyst changes without code; coverage counts every record of the data sets.
import { parse } from 'csv-parse/sync'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { catalogWithEdits, post, startService, type Service } from '../helpers.js'

const test = suite('credentials/verify: the endpoints over the real extracts')
const nppes = parse(readFileSync(join(ROOT, 'tables', 'credentials', 'nppes', 'providers.csv'), 'utf8'), { columns: true }) as Record<string, string>[]
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

test('every NPI of the extract passes the check digit and finds exactly its own taxonomy rows, the NPI deciding', async () => {
  const byNpi = new Map<string, number>()
  for (const r of nppes) byNpi.set(r.npi!, (byNpi.get(r.npi!) ?? 0) + 1)
  assert.is(byNpi.size, 40)
  for (const [npi, rows] of byNpi) {
    const res = await post(service, '/credentials/verify', { npi, as_of: '2026-11-27' })
    assert.is(res.status, 200, `${npi}: ${res.text}`)
    const matches = res.json.result.matches as { npi: string; identifier: string; confidence: number }[]
    assert.is(matches.length, rows, npi)
    assert.ok(matches.every((m) => m.npi === npi && m.identifier === 'matched' && m.confidence === 1), npi)
  }
})

test('one digit changed in each real NPI fails the check digit: a 400 naming npi', async () => {
  for (const npi of [...new Set(nppes.map((r) => r.npi!))].slice(0, 10)) {
    const last = Number(npi.slice(-1))
    const wrong = npi.slice(0, -1) + String((last + 1) % 10)
    const res = await post(service, '/credentials/verify', { npi: wrong, as_of: '2026-11-27' })
    assert.is(res.status, 400, wrong)
    assert.is(res.json.error.details[0].field, 'npi')
  }
})

test('the staleness threshold is the YAML parameter: raised past the extracts\' age, nothing is stale', async () => {
  const edited = catalogWithEdits({
    'tables/credentials/records.yaml': (t) => t.replace('"2000-01-01": { value: "30" }', '"2000-01-01": { value: "10000" }'),
  })
  const other = await startService(edited)
  try {
    const res = await post(other, '/credentials/verify', { name: 'Elise Hiza', state: 'NC', as_of: '2026-11-27' })
    assert.is(res.status, 200)
    assert.is(res.json.result.stale, false)
    assert.is(res.json.result.matches[0].stale, false)
    const before = await post(service, '/credentials/verify', { name: 'Elise Hiza', state: 'NC', as_of: '2026-11-27' })
    assert.is(before.json.result.stale, true)
  } finally {
    await other.close()
  }
})

test('a profession row added in YAML is known at once (a new profession needs no code)', async () => {
  const edited = catalogWithEdits({
    'tables/credentials/records.yaml': (t) =>
      t.replace(
        '          - { profession: attorney,',
        '          - { profession: dentist, label: "Dentist", loaded: false, official_lookup: "https://npiregistry.cms.hhs.gov", lookup_title: "CMS NPI Registry", not_covered: "No dentist records are loaded." }\n          - { profession: attorney,',
      ),
  })
  const other = await startService(edited)
  try {
    const res = await post(other, '/credentials/verify', { name: 'Jane Doe', profession: 'dentist', as_of: '2026-11-27' })
    assert.is(res.status, 200)
    assert.is(res.json.result.verifiable, false)
    const refused = await post(service, '/credentials/verify', { name: 'Jane Doe', profession: 'dentist', as_of: '2026-11-27' })
    assert.is(refused.status, 400)
  } finally {
    await other.close()
  }
})

test('coverage counts every record: its combinations sum to the data sets\' rows', async () => {
  const res = await post(service, '/credentials/coverage', {})
  assert.is(res.status, 200)
  const covered = res.json.result.covered as { records: number; source: string }[]
  const sum = (src: string) => covered.filter((c) => c.source === src).reduce((s, c) => s + c.records, 0)
  assert.is(sum('nppes'), nppes.length)
  assert.is(sum('ct_elicense'), 93)
  assert.is(sum('ct_dcp_decisions'), 38, 'one record per credential the 66 decisions name')
  assert.is(sum('ct_contractors'), 69)
  assert.is(res.json.result.coverage.records, nppes.length + 93 + 69 + 66)
  assert.equal((res.json.result.not_covered.professions as { profession: string }[]).map((p) => p.profession), ['attorney', 'cpa', 'physician_assistant'])
})

test.run()
