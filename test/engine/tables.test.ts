// Marginal-rate schedules and dated values.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { at, marginalTax } from '../../engine/data/tables.js'
import { catalog } from '../helpers.js'

const test = suite('engine/tables: marginalTax, at')

test('the § 2001(c) schedule gives $5,945,800 on $15,000,000', () => {
  const entry = catalog().tables.get('estate.federal.rate_schedule')!
  if (entry.kind !== 'marginal_rate_schedule') throw new Error('not a schedule')
  assert.is(marginalTax(at(entry.history, '2026-06-01')!.value, new Dec(15_000_000)).toString(), '5945800')
  assert.is(marginalTax(at(entry.history, '2026-06-01')!.value, new Dec(10_000)).toString(), '1800')
  assert.is(marginalTax(at(entry.history, '2026-06-01')!.value, new Dec(0)).toString(), '0')
})

test('a dated value is the last one in force on the date', () => {
  const entry = catalog().tables.get('estate.state.wa.applicable_exclusion_amount')!
  if (entry.kind !== 'parameter') throw new Error('not a parameter')
  assert.is(String(at(entry.history, '2026-06-30')!.value), '3076000')
  assert.is(String(at(entry.history, '2026-07-01')!.value), '3000000')
  assert.is(String(at(entry.history, '2025-06-30')!.value), '2193000')
  assert.is(at(entry.history, '2017-12-31'), undefined)
})

test('by halves, at() answers as a walk from the first date does, on every date of a long history', () => {
  // The contribution and benefit base has a value for nearly every year since 1937.
  const entry = catalog().tables.get('payroll.federal.contribution_and_benefit_base')!
  if (entry.kind !== 'parameter') throw new Error('not a parameter')
  const walk = (date: string) => {
    let found: (typeof entry.history)[number] | undefined
    for (const item of entry.history) if (item.from <= date) found = item
    return found
  }
  assert.ok(entry.history.length > 50)
  for (let year = 1930; year <= 2030; year++) {
    for (const day of ['01-01', '06-30', '12-31']) assert.is(at(entry.history, `${year}-${day}`), walk(`${year}-${day}`), `${year}-${day}`)
  }
  for (const item of entry.history) assert.is(at(entry.history, item.from), item, item.from)
  assert.is(at([], '2026-01-01'), undefined)
})

test.run()
