// The fuzzing review's reproducers for /tos/analyze-text (review-fuzz-2026-11-27, #1 and #4): each is
// answered 200 or 400 through answer(), within a bounded time, never 500. Before the step budget
// reached inside match_all, a 3.8 KB text held the evaluation thread for seconds, 256 KiB of "a\n"
// for 7.6 s, 512 KiB for 408 s, and a text matching a pattern over 10,000 times was a 500.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, InputError } from '../../service/index.js'
import { catalog } from '../helpers.js'

const test = suite('tos/analyze-text: the reproducers of unbounded work')

/** CPU seconds one reproducer may take here: far below what they took, far above what they take. */
const CPU_SECONDS = 5

async function analyse(text: string): Promise<{ status: number; code?: string; cpu: number }> {
  const c = catalog()
  const endpoint = c.endpoints.find((e) => e.operation_id === 'analyze_tos_text')!
  const before = process.cpuUsage()
  let outcome: { status: number; code?: string }
  try {
    await answer(c, endpoint, { text })
    outcome = { status: 200 }
  } catch (error) {
    // Anything but the caller's 400 (an EvaluationError, a TypeError) would be a 500: let it fail the test.
    if (!(error instanceof InputError)) throw error
    outcome = { status: 400, code: error.code }
  }
  const used = process.cpuUsage(before)
  return { ...outcome, cpu: (used.user + used.system) / 1e6 }
}

test('3.8 KB of one clause with 140 exceptions inside discretionary cues: answered 200, quickly', async () => {
  // Each exception cue used to search the clause again for the discretionary cues: quadratic.
  const r = await analyse('you may not scrape ' + 'unless without our consent '.repeat(140) + '.\n')
  assert.is(r.status, 200)
  assert.ok(r.cpu < CPU_SECONDS, `${r.cpu} s of CPU`)
})

for (const [name, text] of [
  ['256 KiB of "a\\n" (131,072 one-character lines, a search each)', 'a\n'.repeat(131_072)],
  ['512 KiB of "a\\n"', 'a\n'.repeat(262_144)],
] as const) {
  test(`${name}: refused by the step budget, 400 work_limit_exceeded, within seconds`, async () => {
    const r = await analyse(text)
    assert.is(r.status, 400)
    assert.is(r.code, 'work_limit_exceeded')
    assert.ok(r.cpu < CPU_SECONDS, `${r.cpu} s of CPU`)
  })
}

for (const [name, text] of [
  // Capitalised: a period followed by a lower-case word no longer ends a sentence ("e.g. to copy"), so
  // "scrape. scrape. …" is one clause now; "Scrape. " keeps 10,001 sentences, each matching.
  ['"Scrape. " × 10,001 (80 KB)', 'Scrape. '.repeat(10_001)],
  ['"no scraping; " × 10,001 (a pattern matching every semicolon)', 'no scraping; '.repeat(10_001)],
] as const) {
  test(`${name}: a text matching too often is the caller's 400, not a 500`, async () => {
    const r = await analyse(text)
    assert.is(r.status, 400)
    assert.is(r.code, 'work_limit_exceeded')
    assert.ok(r.cpu < CPU_SECONDS, `${r.cpu} s of CPU`)
  })
}

test.run()
