// The workers' compensation / public disability benefit offset (rules/social_security/disability_offset.yaml) on
// POMS's own worked figures: each example gives the PIA, the family's benefits and 80 % of average current earnings
// directly, so the rule set is called on its own; the expected figures are POMS's, worked again in the comments.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../service/index.js'
import { catalog } from '../helpers.js'

const test = suite('social_security.disability_offset')
const rules = catalog()
const run = async (input: Record<string, unknown>) =>
  (await evaluate(rules, 'social_security.disability_offset', { month: '2026-01-01', ...input })).result as Record<string, unknown>

test('POMS DI 52150.015 example 1: the worker alone, 80 % ACE $625 above the PIA $550 is the limit', async () => {
  // 80 % of ACE 781.25 = 625.00 > TFB 550.00. Without workers' compensation nothing is reduced.
  const r = await run({ worker_benefit: 550, average_current_earnings: 781.25 })
  assert.is(r.total_family_benefit, 550)
  assert.is(r.applicable_limit, 625)
  assert.is(r.limit_is, 'average_current_earnings')
  assert.is(r.reduction, 0)
})

test('POMS DI 52150.015 example 2: worker and two children, the total family benefit $675.20 beats 80 % ACE $650.40', async () => {
  // Children: (675.30 − 550.00) / 2 = 62.65 → 62.60 each (the estimate endpoint's rounding); TFB 550 + 2 × 62.60 = 675.20.
  // 80 % of ACE 813.00 = 650.40 < 675.20: the TFB is the limit.
  const r = await run({ worker_benefit: 550, auxiliaries: 2, auxiliary_benefit: 62.6, average_current_earnings: 813 })
  assert.is(r.total_family_benefit, 675.2)
  assert.is(r.share_of_average_current_earnings, 650.4)
  assert.is(r.applicable_limit, 675.2)
  assert.is(r.limit_is, 'total_family_benefit')
})

test('POMS DI 52150.070: 80 % ACE $880 less WC $593.30 leaves $286.70 for the worker and nothing for three auxiliaries', async () => {
  // PIA 655.40, MAX 794.30, three auxiliaries 46.30 each (TFB 794.30), 80 % ACE 880.00 (ACE 1,100), WC 593.30:
  // 880.00 − 593.30 = 286.70 payable to the worker; the auxiliaries are in total offset.
  const r = await run({ worker_benefit: 655.4, auxiliaries: 3, auxiliary_benefit: 46.3, average_current_earnings: 1100, offsetting_benefit: 593.3 })
  assert.is(r.total_family_benefit, 794.3)
  assert.is(r.applicable_limit, 880)
  assert.is(r.worker_benefit_after_offset, 286.7)
  assert.is(r.auxiliary_benefit_after_offset, 0)
  assert.is(r.reduction, 507.6)
})

test('POMS DI 52170.025: what is left after the worker is shared by the auxiliaries, rounded down to the dime (June 1982 on)', async () => {
  // 80 % ACE 675.00 (ACE 843.75), WC 250.00: 425.00 payable; the worker's 351.90 first; (425.00 − 351.90) / 3 = 24.366…
  // POMS rounds it up to 24.40 for a month before June 1982 and says to round down from June 1982: 24.30 today.
  const r = await run({ worker_benefit: 351.9, auxiliaries: 3, auxiliary_benefit: 58.7, average_current_earnings: 843.75, offsetting_benefit: 250 })
  assert.is(r.total_family_benefit, 528)
  assert.is(r.applicable_limit, 675)
  assert.is(r.worker_benefit_after_offset, 351.9)
  assert.is(r.auxiliary_benefit_after_offset, 24.3)
})

test('no offsetting benefit, no reduction, whatever the limit', async () => {
  const r = await run({ worker_benefit: 2000, auxiliaries: 1, auxiliary_benefit: 500, average_current_earnings: 100 })
  assert.is(r.applies, false)
  assert.is(r.reduction, 0)
  assert.is(r.worker_benefit_after_offset, 2000)
  assert.is(r.auxiliary_benefit_after_offset, 500)
})

test.run()
