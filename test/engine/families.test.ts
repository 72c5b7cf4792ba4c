// Table families: the tables files of one folder read by member (file stem) and parameter name,
// cited like any table read, typed at load.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate, loadCatalog } from '../../service/index.js'
import { RuleLoadError } from '../../engine/errors.js'
import { FIXTURES } from '../helpers.js'

const test = suite('engine/families: table families')
const dir = join(FIXTURES, 'families')
const catalog = loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') })

test('the members are the file stems of the folder, sorted', async () => {
  assert.equal([...catalog.families!.get('demo.wages')!.members.keys()], ['aa', 'bb'])
  const { result } = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2026-03-01' })
  assert.equal(result.codes, ['aa', 'bb'])
})

test('a parameter read by name on a date is the value in force then, with its effective date, and cited', async () => {
  const { result, citations, notes } = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2026-03-01', until: '2026-03-01' })
  assert.is(result.has_rate, true)
  assert.is(result.rate, 11)
  assert.is(result.doubled, 22)
  assert.is(result.effective, '2026-01-01')
  assert.ok(citations.includes('Fixture A Act § 1'))
  assert.ok(citations.includes('Fixture A announcement 2025'))
  // The 2027 value is outside the window listed and was never read: neither cited nor noted.
  assert.not.ok(citations.includes('Fixture A announcement 2026'))
  assert.equal(notes, [])
})

test('a member without the parameter has not loaded it: has_parameter false, the value and its date null', async () => {
  const { result } = await evaluate(catalog, 'demo.family', { member: 'bb', on: '2026-03-01' })
  assert.is(result.has_rate, false)
  assert.is(result.rate, null)
  assert.is(result.effective, null)
  // Before the first value the read is null too.
  const before = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2024-03-01' })
  assert.is(before.result.rate, null)
})

test('the parameters of a member list the values of a window with their references, citing them and noting the unverified', async () => {
  const { result, citations, notes } = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2026-03-01', until: '2027-12-31' })
  const listed = result.listed as { name: string; section: string; first_effective: string; history: { effective: string; value: unknown; references: { title: string }[]; unverified: string | null }[] }[]
  assert.equal(listed.map((p) => p.name), ['rate', 'basis'])
  const rate = listed[0]!
  assert.is(rate.section, 'pay')
  assert.is(rate.first_effective, '2025-01-01')
  assert.equal(rate.history.map((h) => [h.effective, h.value]), [['2026-01-01', 11], ['2027-01-01', 12]])
  assert.equal(rate.history[1]!.references, [{ title: 'Fixture A announcement 2026', href: null }])
  assert.is(rate.history[1]!.unverified, 'not checked')
  assert.ok(citations.includes('Fixture A announcement 2026'))
  assert.ok(notes.includes('Fixture A hourly rate: not checked'))
  // A list of sections keeps only theirs.
  assert.equal(result.other_section, [])
})

test('the coverage of a member gives each parameter its section and first and last dates, citing nothing', async () => {
  const { result } = await evaluate(catalog, 'demo.family', { member: 'bb', on: '2026-03-01', until: '2026-03-01' })
  assert.equal(result.coverage, { as_of: '2026-06-01', parameters: [{ name: 'basis', section: 'pay', first_effective: '2024-07-01', last_effective: '2024-07-01' }] })
})

test('the rows of a member\'s lookup are those in force on the date, in file order, and cited; none where it has no such lookup', async () => {
  const { result, citations } = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2026-03-01' })
  assert.equal(result.grades, [
    { grade: 'senior', factor: 1.5, note: 'second' },
    { grade: 'junior', factor: 1, note: 'first' },
  ])
  assert.equal(result.grade_factors, [3, 2])
  assert.ok(citations.includes('Fixture A Act § 3'))
  assert.ok(citations.includes('Fixture A grades 2026'))
  const earlier = await evaluate(catalog, 'demo.family', { member: 'aa', on: '2025-03-01' })
  assert.equal(earlier.result.grades, [{ grade: 'junior', factor: 1, note: 'first' }])
  assert.equal((await evaluate(catalog, 'demo.family', { member: 'aa', on: '2024-03-01' })).result.grades, [])
  assert.equal((await evaluate(catalog, 'demo.family', { member: 'bb', on: '2026-03-01' })).result.grades, [])
})

test('an unknown member is an evaluation error naming the members', async () => {
  try {
    await evaluate(catalog, 'demo.family', { member: 'zz', on: '2026-03-01' })
    assert.unreachable('no member zz')
  } catch (error) {
    assert.match((error as Error).message, /demo\.wages has no member 'zz'; its members are aa, bb/)
  }
})

/** The fixture with its rule set's formulas replaced, and the load problems. */
function problemsWith(formula: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'families-'))
  cpSync(dir, copy, { recursive: true })
  writeFileSync(
    join(copy, 'rules', 'demo', 'family.yaml'),
    `formula_version: "2026.1"\nkind: rule_set\ntitle: t\ninputs:\n  on: { type: date }\ndate: { input: on, default: \"date(2026, 1, 1)\" }\nformulas:\n  x: { formula: "${formula}" }\noutputs:\n  x: x\n`,
  )
  try {
    loadCatalog({ rulesDir: join(copy, 'rules'), tablesDir: join(copy, 'tables') })
    return ''
  } catch (error) {
    if (!(error instanceof RuleLoadError)) throw error
    return error.problems.map((p) => p.message).join('\n')
  }
}

test('the family is checked at load, and a parameter named as text has its type across the members', () => {
  assert.match(problemsWith("members('demo.nothing')"), /no table family 'demo.nothing'; the families are .*demo.wages/)
  // rate is an amount in every member that has it: adding text to it is a load error.
  assert.match(problemsWith("member_value('demo.wages', 'aa', 'rate', on) && true"), /must be true or false, not an amount/)
  // basis is text: comparing it with a number is a load error.
  assert.match(problemsWith("member_value('demo.wages', 'aa', 'basis', on) > 1"), /must be an amount/)
  assert.is(problemsWith("member_value('demo.wages', 'aa', 'rate', on) * 2"), '')
})

test.run()
