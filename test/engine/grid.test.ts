// The couple's claiming-age grid (test/fixtures/grid, made-up figures): the bench's search, checked
// against the same model computed directly here, and the call memo and work limit it relies on.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { DeadlineError, evaluate, loadCatalog, WorkLimitError } from '../../service/index.js'
import { FIXTURES } from '../helpers.js'

const test = suite('engine/evaluate: a grid search with calls inside')
const dir = join(FIXTURES, 'grid')
const catalog = loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') })

/** The fixture's model, written out: the present value of one person's stream at a claiming age. */
function presentValue(benefit: Dec, claim: number): Dec {
  const full = 804
  const adjustment = claim < full ? new Dec(1).plus(new Dec(claim - full).div(180)) : new Dec(1).plus(new Dec(claim - full).div(150))
  const monthly = benefit.times(adjustment)
  const yearly = new Dec(1).div(new Dec('1.03'))
  let factor = new Dec(1)
  let total = new Dec(0)
  for (let age = 62; age <= 101; age++) {
    const paid = Math.min(12, Math.max(0, (age + 1) * 12 - claim))
    total = total.plus(monthly.times(paid).times(factor))
    factor = factor.times(yearly)
  }
  return total
}

test('the best pair and its value are those of a direct search over the 97 × 97 pairs', async () => {
  const input = { first_benefit: 2000, second_benefit: 1200, earliest_months: 744, latest_months: 840 }
  const { result } = await evaluate(catalog, 'couple.grid', input)
  const first = new Map<number, Dec>()
  const second = new Map<number, Dec>()
  for (let a = 744; a <= 840; a++) {
    first.set(a, presentValue(new Dec(2000), a))
    second.set(a, presentValue(new Dec(1200), a))
  }
  let best = { a: 0, b: 0, value: new Dec(-1) }
  for (let a = 744; a <= 840; a++) for (let b = 744; b <= 840; b++) {
    const v = first.get(a)!.plus(second.get(b)!)
    if (v.gt(best.value)) best = { a, b, value: v }
  }
  assert.is(result.pairs, 97 * 97)
  assert.is(result.best_first_age, best.a)
  assert.is(result.best_second_age, best.b)
  assert.is(result.best_value, best.value.toDecimalPlaces(2).toNumber())
})

test('a call with the same inputs is answered once: two people with one benefit cost some 97 streams of 40 years fewer steps', async () => {
  // Each person's 97 streams are called once per age; where the second person's benefit is the
  // first's, the second's 97 calls have the same inputs as the first's and are answered from the
  // request's memo, without their 40-year loops (73,432 steps against 41,713 when written).
  const differ = await evaluate(catalog, 'couple.grid', { first_benefit: 2000, second_benefit: 1200 })
  const same = await evaluate(catalog, 'couple.grid', { first_benefit: 2000, second_benefit: 2000 })
  assert.is(same.result.pairs, 9409)
  assert.ok(differ.steps - same.steps > 97 * 40, `${differ.steps} against ${same.steps} steps`)
})

test('a request over the step limit is refused with work_limit_exceeded, naming the limit', async () => {
  const limited = { ...catalog, service: { ...catalog.service, limits: { steps: 5_000, milliseconds: 60_000 } } }
  try {
    await evaluate(limited, 'couple.grid', { first_benefit: 2000, second_benefit: 1200 })
    assert.unreachable('the grid should exceed 5,000 steps')
  } catch (error) {
    assert.instance(error, WorkLimitError)
    assert.is((error as WorkLimitError).code, 'work_limit_exceeded')
    assert.match((error as Error).message, /more than 5000 evaluation steps/)
  }
})

test('a request over the time limit (a far backstop) is a DeadlineError, not the 400 of the step budget', async () => {
  const limited = { ...catalog, service: { ...catalog.service, limits: { steps: 10_000_000, milliseconds: 1 } } }
  try {
    await evaluate(limited, 'couple.grid', { first_benefit: 2000, second_benefit: 1200 })
    assert.unreachable('the grid should take more than 1 ms')
  } catch (error) {
    assert.instance(error, DeadlineError)
    assert.match((error as Error).message, /ran past 1 ms/)
  }
})

test.run()
