// Employment law (issue 13): both endpoints answer from the same files. A future value added to the
// federal file in a copy of the tables shows in the lookup (on and after its date, and as the next
// change before it) and in the upcoming changes, with the value it replaces; a jurisdiction whose
// file holds only the required tables is answered from the federal floor.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService, type Service } from '../helpers.js'

const test = suite('server: employment law from one set of files')
let service: Service

// A hypothetical future federal rate (a fixture, not law) and a jurisdiction 'zz' with only the
// required tables: a state rate below the federal one, and the federal exempt threshold.
const FUTURE = `      "2009-07-24": { value: "7.25" }\n      "2027-07-24": { value: "9.10", reference: { title: "Fixture act raising the rate" } }`
const ZZ = `formula_version: "2026.1"
title: "Fixture state: employment law"
as_of: "2026-11-25"
tables:
  minimum_wage_basis:
    kind: parameter
    section: minimum_wage
    label: Minimum wage basis
    unit: text
    reference: { title: "Fixture Code § 1" }
    values:
      "2010-01-01": { value: state_rate }
  minimum_wage:
    kind: parameter
    section: minimum_wage
    label: State minimum wage
    unit: currency-USD per hour
    reference: { title: "Fixture Code § 2" }
    values:
      "2010-01-01": { value: "5.15" }
  exempt_salary_basis:
    kind: parameter
    section: overtime
    label: Exempt salary basis
    unit: text
    reference: { title: "Fixture Code § 3" }
    values:
      "2010-01-01": { value: federal }
`

test.before(async () => {
  const edited = catalogWithEdits({
    'tables/employment/law/us.yaml': (text) => {
      if (!text.includes('      "2009-07-24": { value: "7.25" }')) throw new Error('us.yaml has no 2009-07-24 line to add after')
      return text.replace('      "2009-07-24": { value: "7.25" }', FUTURE)
    },
    'tables/employment/law/zz.yaml': () => ZZ,
  })
  service = await startService(edited)
})
test.after(async () => {
  await service.close()
})

type Rule = { name: string; value: unknown; effective: string; next_change: { effective: string; value: unknown } | null }
type Lookup = { minimum_wage: { hourly: number; effective: string; state_rate: number | null; basis: string }; exempt_salary: { weekly: number; effective: string; basis: string }; topics: { topic: string; rules: Rule[] }[]; notes: string[] }

test('the lookup sees the future value from its date, and as the next change before it', async () => {
  const before = await post(service, '/employment-law/lookup', { jurisdiction: 'US', date: '2026-11-25' })
  assert.is(before.status, 200, before.text)
  const b = (before.json as { result: Lookup }).result
  assert.is(b.minimum_wage.hourly, 7.25)
  const rule = b.topics.find((t) => t.topic === 'minimum_wage')!.rules.find((r) => r.name === 'minimum_wage')!
  assert.equal([rule.next_change?.effective, rule.next_change?.value], ['2027-07-24', 9.1])

  const after = await post(service, '/employment-law/lookup', { jurisdiction: 'us', date: '2027-07-24' })
  assert.is(after.status, 200, after.text)
  const a = after.json as { result: Lookup; citations: string[] }
  assert.equal([a.result.minimum_wage.hourly, a.result.minimum_wage.effective], [9.1, '2027-07-24'])
  assert.ok(a.citations.includes('Fixture act raising the rate'))
})

test('the upcoming changes list it with the rate it replaces', async () => {
  const r = await post(service, '/employment-law/upcoming-changes', { as_of: '2026-11-25', jurisdictions: ['US'] })
  assert.is(r.status, 200, r.text)
  const changes = (r.json as { result: { through: string; changes: { effective: string; jurisdiction: string; name: string; old_value: unknown; new_value: unknown }[] } }).result
  assert.is(changes.through, '2027-11-25')
  assert.equal(
    changes.changes.map((c) => [c.effective, c.jurisdiction, c.name, c.old_value, c.new_value]),
    [['2027-07-24', 'US', 'minimum_wage', 7.25, 9.1]],
  )
})

test('a jurisdiction whose file holds only the required tables: the federal rate binds over a lower state rate', async () => {
  const r = await post(service, '/employment-law/lookup', { jurisdiction: 'ZZ', date: '2026-01-15' })
  assert.is(r.status, 200, r.text)
  const z = (r.json as { result: Lookup }).result
  assert.equal(z.minimum_wage, { hourly: 7.25, state_rate: 5.15, effective: '2009-07-24', basis: 'state_rate', federal_rate: 7.25 })
  assert.equal(z.exempt_salary, { weekly: 684, annual: 35568, effective: '2020-01-01', basis: 'federal', locality: false })
  assert.ok(z.notes.some((n) => n.includes('city and county minimum wages above the state')))
  assert.ok(z.notes.some((n) => n.includes('below the federal rate')))
  // Its range starts with its own required tables.
  const early = await post(service, '/employment-law/lookup', { jurisdiction: 'ZZ', date: '2009-12-31' })
  assert.is(early.status, 400)
  assert.match(early.text, /2010-01-01 to 2027-12-31/)
})

test('the coverage report lists every jurisdiction loaded, with what each file holds', async () => {
  const r = await post(service, '/employment-law/upcoming-changes', { as_of: '2026-11-25' })
  assert.is(r.status, 200, r.text)
  const coverage = (r.json as { result: { coverage: { jurisdiction: string; topics: { topic: string; loaded: boolean; since: string | null }[] }[] } }).result.coverage
  const zz = coverage.find((c) => c.jurisdiction === 'ZZ')!
  assert.equal(zz.topics.filter((t) => t.loaded).map((t) => [t.topic, t.since]), [['minimum_wage', '2010-01-01'], ['overtime', '2010-01-01']])
  assert.ok(coverage.some((c) => c.jurisdiction === 'US'))
})

test.run()
