// The data set queries, through the fixture rule set (test/fixtures/data, made-up records): rows of
// a key, bands at their edges, a history and the row in force, each cited and dated.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../../service/index.js'
import { copyFixture, load } from '../data/fixture.js'

const test = suite('engine/functions/data')
const catalog = load(copyFixture())
const report = async (input: Record<string, unknown>) => evaluate(catalog, 'demo.sites', { site: 'north', spaces: 10, region: 'east', on: '2026-03-01', ...input })

test('rows() gives every row of a key, in file order; a key with none gives an empty list', async () => {
  const north = await report({})
  assert.is(north.result.inspections, 3)
  assert.is(north.result.fines, 250)
  assert.is(north.result.last_finding, 'clear')
  const none = await report({ site: 'east' })
  assert.is(none.result.inspections, 0)
  assert.is(none.result.fines, 0)
  assert.is(none.result.last_finding, undefined)
})

test('band() takes the lower bound in and the upper out; the last band is open-ended', async () => {
  const at = async (spaces: number) => (await report({ spaces })).result.accessible_spaces
  assert.equal([await at(1), await at(25), await at(26), await at(50), await at(51), await at(100), await at(101), await at(100_000)], [1, 1, 2, 2, 3, 4, 5, 5])
})

test('a value below the first band is an error, not a guess', async () => {
  try {
    await report({ spaces: 0 })
    assert.unreachable('0 spaces is below every band')
  } catch (error) {
    assert.match((error as Error).message, /has no band holding 0/)
  }
})

test('key_values() lists the distinct values of a one-column key, sorted, each once', async () => {
  // inspections.csv holds north three times and south once, north first.
  assert.equal((await report({})).result.sites_inspected, ['north', 'south'])
})

test('history() is sorted by effective date; the row in force is the latest on or before the date', async () => {
  const on = async (date: string) => (await report({ on: date })).result.hourly_minimum
  assert.equal((await report({})).result.hourly_minimum_changes, ['2025-01-01', '2026-01-01', '2026-07-01'])
  assert.equal([await on('2025-01-01'), await on('2025-12-31'), await on('2026-01-01'), await on('2026-06-30'), await on('2026-07-01')], [15, 15, 15.5, 15.5, 16])
  try {
    await report({ on: '2024-12-31' })
    assert.unreachable('no row is in force before the first')
  } catch (error) {
    assert.match((error as Error).message, /no row for string "east" in force on 2024-12-31/)
  }
})

test('an answer cites the data sets it read and is dated by the latest retrieval among them', async () => {
  const r = await report({})
  assert.ok(r.citations.includes("Fixture: made up for the engine's tests"))
  assert.is(r.data_as_of, '2026-04-01')
})

test.run()
