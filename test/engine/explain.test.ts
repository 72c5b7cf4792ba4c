// ?explain=true inside iterations: the first and last item in full, one summary step between.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
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

test.run()
