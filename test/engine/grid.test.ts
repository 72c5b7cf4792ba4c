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

test('a call with the same inputs is answered once: the grid fits a step limit that 97 × 97 × 2 streams would not', async () => {
  // Without the memo, 18,818 streams of 40 years are ~750,000 steps; with it, 194 streams and the
  // pairs are ~50,000, and flattening the pairs twice and argmax's 9,409 key calls ~50,000 more.
  const limited = { ...catalog, service: { ...catalog.service, limits: { steps: 150_000, milliseconds: 60_000 } } }
  const { result } = await evaluate(limited, 'couple.grid', { first_benefit: 2000, second_benefit: 1200 })
  assert.is(result.pairs, 9409)
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
