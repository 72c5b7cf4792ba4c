// ?explain=true: inside iterations the first and last item in full, one summary step between; each
// step's formula and file:line; the whole bounded.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { answer } from '../../service/index.js'
import type { Step } from '../../engine/run/evaluate.js'
import { catalog } from '../helpers.js'

const test = suite('engine/evaluate: explanations of lists and searches')
const endpoint = (id: string) => catalog().endpoints.find((e) => e.operation_id === id)!
const explain = async (id: string, body: Record<string, unknown>) =>
  (await answer(catalog(), endpoint(id), body, { explain: true })).result.explanation as Step[]

test('the QTIP search explains in a few hundred steps, with its grid summarised', async () => {
  const steps = await explain('optimize_qtip_election', { state_of_domicile: 'NY', gross_estate: 20_000_000 })
  assert.ok(steps.length < 500, `${steps.length} steps`)
  const summaries = steps.filter((s) => /not shown one by one/.test(s.label ?? ''))
  assert.ok(summaries.length > 0)
  const curve = summaries.find((s) => s.step === 'curve')
  assert.ok(curve, 'the curve over the grid is summarised')
  const value = curve!.value as { items: number; summarised: number }
  assert.is(value.summarised, value.items - 2)
})

test('the summary leaves the answer as it is', async () => {
  const body = { state_of_domicile: 'NY', gross_estate: 20_000_000 }
  const plain = await answer(catalog(), endpoint('optimize_qtip_election'), body)
  const explained = await answer(catalog(), endpoint('optimize_qtip_election'), body, { explain: true })
  const { explanation: _, ...result } = explained.result
  assert.equal(result, plain.result)
  assert.equal(explained.citations, plain.citations)
})

test('a rule set without a list explains every step, with no summary', async () => {
  const steps = await explain('state_estate_tax', { state: 'NY', tax_year: 2026, gross_estate: 7_500_000 })
  assert.ok(steps.length > 5)
  assert.not.ok(steps.some((s) => /not shown one by one/.test(s.label ?? '')))
})

test('every step of a formula says the formula as written and its rule file and line', async () => {
  const steps = await explain('state_estate_tax', { state: 'NY', tax_year: 2026, gross_estate: 7_500_000 })
  const credit = steps.find((s) => s.step === 'applicable_credit')!
  assert.match(credit.formula!, /credit_region == 'within_exclusion'/)
  const [file, line] = credit.where!.split(':')
  assert.is(file, 'rules/estate/state/ny.yaml')
  // The line is where the node is written: its formula follows within a few lines.
  const lines = readFileSync(file!, 'utf8').split('\n').slice(Number(line) - 1, Number(line) + 5).join('\n')
  assert.match(lines, /applicable_credit|credit_region == 'within_exclusion'/)
})

test('an explanation is bounded: 256 KB and 50 times its answer at most, the steps left out counted', async () => {
  // The FDA search scores every letter of the data set: its explanation was 3 MB for a 3 KB answer.
  const body = endpoint('search_fda_enforcement').example
  const explained = await answer(catalog(), endpoint('search_fda_enforcement'), body, { explain: true })
  const { explanation, ...result } = explained.result
  const size = JSON.stringify(explanation).length
  assert.ok(size <= 256 * 1024, `${size} bytes`)
  assert.ok(size <= 50 * JSON.stringify(result).length + 4096, `${size} bytes for an answer of ${JSON.stringify(result).length}`)
  for (const step of explanation as Step[]) assert.ok(JSON.stringify(step.value).length <= 4096, `${step.step}: its value is summarised`)
  // A search over more letters than the example still answers within the bound, saying what it left out.
  for (const e of catalog().endpoints) {
    if (!e.example) continue
    const a = await answer(catalog(), e, e.example, { explain: true })
    const { explanation: steps, ...rest } = a.result
    const bytes = JSON.stringify(steps).length
    assert.ok(bytes <= Math.min(256 * 1024, 50 * JSON.stringify(rest).length) + 1024, `${e.operation_id}: ${bytes} bytes`)
    const last = (steps as Step[]).at(-1)!
    if (last.step === 'left_out') assert.match(last.label!, /further step\(s\) left out/)
    // Every step says what it computes and where it is written: formulas, lists (and their summaries), decisions.
    for (const step of steps as Step[]) {
      if (step.step === 'left_out') continue
      assert.ok(step.formula && /^rules\/.+\.yaml:\d+$/.test(step.where ?? ''), `${e.operation_id}: ${step.rule_set}.${step.step}`)
    }
  }
})

test.run()
