// Evaluation of lists: a carried balance, a stop condition, and a rule set called per grid point.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate, loadCatalog } from '../../service/index.js'
import { FIXTURES } from '../helpers.js'

const test = suite('engine/evaluate: lists')
const catalog = loadCatalog({ rulesDir: join(FIXTURES, 'lists', 'rules'), tablesDir: join(FIXTURES, 'lists', 'tables') })

test('a carried balance runs year by year and stops when it is spent', async () => {
  const { result } = await evaluate(catalog, 'demo.lists', { balance: 250, payment: 100, year: 2026 })
  assert.equal(result.schedule, [
    { year: 2026, paid: 100, remaining: 150 },
    { year: 2027, paid: 100, remaining: 50 },
    { year: 2028, paid: 50, remaining: 0 },
  ])
})

test('a rule set is called once per grid point, and minima finds each local minimum', async () => {
  const { result, citations } = await evaluate(catalog, 'demo.lists', { balance: 0, payment: 1, year: 2026 })
  // Flat tax 10% above 1,000: 0 0 0 50 100 150 200, less 70 at 2,000: two minima, one a plateau.
  assert.equal(
    (result.curve as { value: number }[]).map((p) => p.value),
    [0, 0, 0, 50, 30, 150, 200],
  )
  assert.equal(result.minima, [
    { from: 0, to: 1000, value: 0 },
    { from: 2000, to: 2000, value: 30 },
  ])
  assert.ok(citations.includes('Demo Act § 1'))
})

test('an optional list input left out maps to no items, and its for_each checks find nothing', async () => {
  const { result } = await evaluate(catalog, 'demo.optional', {})
  assert.equal(result, { sent: false, rooms: [], notes: [] })
  const sent = await evaluate(catalog, 'demo.optional', { rooms: [{ name: 'A', seats: 3 }] })
  assert.equal(sent.result, { sent: true, rooms: [{ name: 'A', doubled: 6 }], notes: [] })
  try {
    await evaluate(catalog, 'demo.optional', { rooms: [{ name: 'B', seats: 101 }] })
    assert.unreachable('a room over 100 seats is refused')
  } catch (e) {
    assert.match(String((e as Error).message), /seats/)
  }
})

test("a rule set's own function takes a list parameter, and passes one on to another", async () => {
  const { result } = await evaluate(catalog, 'demo.list_functions', { seats: [1, 3, 9, 4] })
  assert.is(result.wide, 6)
})

test.run()
