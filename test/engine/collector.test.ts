// The request's work limits (engine/run/collector.ts): the step budget is the rule that refuses a
// request, so the answer never depends on how busy the machine is; the clock is only a far backstop,
// a DeadlineError (503) that the caller may retry.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Collector } from '../../engine/run/collector.js'
import { DeadlineError, evaluate, loadCatalog, WorkLimitError, type Catalog } from '../../service/index.js'
import { FIXTURES } from '../helpers.js'

const test = suite('engine/collector: Collector.tick')
const USD = { code: 'USD', name: 'US dollars', symbol: '$', minor_units: 2 }
const dir = join(FIXTURES, 'grid')
const base = loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') })
const limited = (steps: number, milliseconds: number): Catalog => ({ ...base, service: { ...base.service, limits: { steps, milliseconds } } })
const input = { first_benefit: 2000, second_benefit: 1200 }

/** Run `f` with a clock that moves `perRead` ms each time it is read: a machine that busy. */
async function withSlowClock<T>(perRead: number, f: () => Promise<T>): Promise<T> {
  const real = Date.now
  let now = real()
  Date.now = () => (now += perRead)
  try {
    return await f()
  } finally {
    Date.now = real
  }
}

async function refusal(f: () => Promise<unknown>): Promise<Error> {
  try {
    await f()
  } catch (error) {
    return error as Error
  }
  throw new Error('the request was answered')
}

test('tick(units) counts many steps at once, and refuses past the budget with work_limit_exceeded', () => {
  const c = new Collector(false, USD, { steps: 1000, milliseconds: 60_000 })
  c.tick(999)
  c.tick()
  assert.is(c.used, 1000)
  assert.throws(() => c.tick(), (e: Error) => e instanceof WorkLimitError && /more than 1000 evaluation steps/.test(e.message))
})

test('the clock is read between steps, however many steps one tick counts: past it is a DeadlineError, not a 400', () => {
  const c = new Collector(false, USD, { steps: 10_000_000, milliseconds: 1 })
  const real = Date.now
  const start = real()
  Date.now = () => start + 5
  try {
    // One charge of 5,000 steps (a long search) passes the clock's next reading at once.
    const error = (() => {
      try {
        c.tick(5000)
      } catch (e) {
        return e
      }
      return undefined
    })()
    assert.instance(error, DeadlineError)
    assert.not.instance(error, WorkLimitError)
    assert.is((error as DeadlineError).code, 'deadline_exceeded')
    assert.is((error as DeadlineError).retryAfter, 1)
  } finally {
    Date.now = real
  }
})

test('a slow clock does not turn an answer into an error below the backstop: the same bytes', async () => {
  // The grid reads the clock every 1,024 steps; at 200 ms a reading it "runs" for many seconds,
  // past the old 5-second limit, yet within the 30-second backstop: still answered, identically.
  const limits = limited(5_000_000, 30_000)
  const quick = await evaluate(limits, 'couple.grid', input)
  const slow = await withSlowClock(200, () => evaluate(limits, 'couple.grid', input))
  assert.equal(JSON.stringify(slow.result), JSON.stringify(quick.result))
})

test('a request over the step budget is refused the same way whatever the clock', async () => {
  const limits = limited(5_000, 30_000)
  const quick = await refusal(() => evaluate(limits, 'couple.grid', input))
  const slow = await refusal(() => withSlowClock(20, () => evaluate(limits, 'couple.grid', input)))
  assert.instance(quick, WorkLimitError)
  assert.instance(slow, WorkLimitError)
  assert.is(slow.message, quick.message)
})

test('past the backstop the request is a DeadlineError (503 at the server), never work_limit_exceeded', async () => {
  const error = await refusal(() => withSlowClock(1000, () => evaluate(limited(5_000_000, 30_000), 'couple.grid', input)))
  assert.instance(error, DeadlineError)
  assert.match(error.message, /ran past 30000 ms/)
})

test.run()
