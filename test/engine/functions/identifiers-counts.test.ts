// rows_with, count_rows and sum_by (issue 29), through a made-up data set written into a scratch copy
// of the data fixture: an identifier is found however it is written, a grouped count equals the
// rows it counts and is answered again from the store's memory, and sum_by adds a list up by key.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../../service/index.js'
import { copyFixture, load } from '../data/fixture.js'

const test = suite('engine/functions: rows_with, count_rows, sum_by')
const dir = copyFixture()
mkdirSync(join(dir, 'tables', 'demo'), { recursive: true })
writeFileSync(
  join(dir, 'tables', 'demo', 'permits.yaml'),
  `# FIXTURE, not data: made-up permits for the engine's tests.
formula_version: "2026.1"
title: Demo permits (fixture)
as_of: "2026-01-15"
tables:
  permits:
    kind: dataset
    label: Permits (fixture)
    file: permits.csv
    format: csv
    columns: { permit_number: text, holder: text, state: text, kind: text }
    key: [state]
    identifiers: [permit_number]
    source: { title: "Fixture: made up for the engine's tests" }
    licence: "Fixture, no licence needed"
    retrieved: "2026-03-01"
`,
)
writeFileSync(
  join(dir, 'tables', 'demo', 'permits.csv'),
  'permit_number,holder,state,kind\nHIC.0001,Alder Co,CT,contractor\nHIC.0002,Birch Co,CT,contractor\nPLM-7/A,Cedar Co,NY,plumber\n,Dogwood Co,NY,contractor\nHIC.0001,Alder Co,CT,plumber\n',
)
writeFileSync(
  join(dir, 'rules', 'demo', 'permits.yaml'),
  `# FIXTURE: a rule set reading the made-up permits by identifier and by grouped counts.
formula_version: "2026.1"
kind: rule_set
title: Demo permits (fixture)
reference: { title: "Fixture: no law" }
inputs:
  permit: { type: text }
  column: { type: text }
date: { default: "date(2026, 1, 1)" }
outputs:
  holders: "map(rows_with(permits, 'permit_number', permit), r => concat(r.holder, ' ', r.kind))"
  by_state_kind: "map(count_rows(permits, 'state', 'kind'), g => concat(g.state, ' ', g.kind, ' ', g.rows))"
  groups: { when: "given(column)", then: "count(count_rows(permits, column))" }
  by_state: "map(sum_by(count_rows(permits, 'state', 'kind'), g => g.state, g => g.rows), t => concat(t.key, ' ', t.total))"
`,
)
const catalog = load(dir)
const run = async (permit: string) => (await evaluate(catalog, 'demo.permits', { permit })).result

test('rows_with finds an identifier however it is written (case, spaces, dots, dashes, slashes), in file order', async () => {
  assert.equal((await run('HIC.0001')).holders, ['Alder Co contractor', 'Alder Co plumber'])
  assert.equal((await run('hic 0001')).holders, ['Alder Co contractor', 'Alder Co plumber'])
  assert.equal((await run('plm7a')).holders, ['Cedar Co plumber'])
  assert.equal((await run('HIC.0003')).holders, [])
})

test('count_rows counts every row by the columns, sorted by them; sum_by adds the groups up by key', async () => {
  const r = await run('x')
  assert.equal(r.by_state_kind, ['CT contractor 2', 'CT plumber 1', 'NY contractor 1', 'NY plumber 1'])
  assert.equal(r.by_state, ['CT 3', 'NY 2'])
  // The store keeps the counts: a second request answers the same.
  assert.equal((await run('y')).by_state_kind, r.by_state_kind)
})

test('count_rows by a column the data set lacks is an error naming its columns, not a guess', async () => {
  assert.is((await evaluate(catalog, 'demo.permits', { permit: 'x', column: 'kind' })).result.groups, 2)
  try {
    await evaluate(catalog, 'demo.permits', { permit: 'x', column: 'colour' })
    assert.unreachable('colour is not a column')
  } catch (error) {
    assert.match((error as Error).message, /count_rows counts by columns of .*permits \(permit_number, holder, state, kind\), not/)
  }
})

test.run()
