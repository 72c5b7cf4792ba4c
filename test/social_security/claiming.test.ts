// The claiming-age rule set (rules/social_security/claiming.yaml) on SSA's published percentages and
// POMS's worked widow(er) example; each expected figure is worked out by hand in the comment beside it.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../service/index.js'
import { InputError } from '../../engine/errors.js'
import { catalog } from '../helpers.js'

const test = suite('social_security.claiming')
const rules = catalog()
const run = async (input: Record<string, unknown>) => (await evaluate(rules, 'social_security.claiming', input)).result as Record<string, unknown>

test('born mid-1960, full retirement age 67: 62 pays 70% of the PIA (SSA: "reduced by about 30 percent")', async () => {
  // 60 months early: 36 × 5/9% + 24 × 5/12% = 20% + 10% = 30%; 1,000 × 0.70 = 700.
  const r = await run({ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 744 })
  assert.is(r.full_retirement_age_months, 804)
  assert.is(r.months_early, 60)
  assert.is(r.retirement_benefit, 700)
})

test('born on 1 January 1960, the previous year\'s full retirement age (66 and 10 months) applies (20 CFR 404.102)', async () => {
  // 58 months early: 20% + 22 × 5/12% = 29.1666…%; 1,000 × 0.708333… = 708.33 → 708.30 (dime) → $708.
  const r = await run({ date_of_birth: '1960-01-01', pia: 1000, claim_age_months: 744 })
  assert.is(r.full_retirement_age_months, 802)
  assert.is(r.retirement_benefit_dime, 708.3)
  // `_unrounded` is the product before the dime (issue 27 rule 6): 708.333…
  assert.ok(Math.abs((r.retirement_benefit_unrounded as number) - 708.3333) < 0.0001)
  assert.is(r.retirement_benefit, 708)
})

test('delayed retirement credits of 8% a year up to 70, by cohort (§ 402(w)(6))', async () => {
  // Born 1960: 36 months × 2/3% = 24% → 1,240. Born 1954 (FRA 66): 48 months → 32% → 1,320.
  // Born 1942 (FRA 65 and 10 months, 7.5% a year): 50 months × 0.625% = 31.25% → 1,312.50 → $1,312.
  assert.is((await run({ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 840 })).retirement_benefit, 1240)
  assert.is((await run({ date_of_birth: '1954-06-15', pia: 1000, claim_age_months: 840 })).retirement_benefit, 1320)
  const r = await run({ date_of_birth: '1942-06-15', pia: 1000, claim_age_months: 840 })
  assert.is(r.months_delayed, 50)
  assert.is(r.retirement_benefit, 1312)
})

test('delayed credits of the year of entitlement are added the January after, or in the month of 70 (20 CFR 404.313)', async () => {
  // Born 15 June 1960 (FRA 67, June 2027): a claim at 68 and 3 months starts September 2028 with 15 credits, 8 of
  // them earned January–August 2028: 1,000 × (1 + 7 × 2/3%) = 1,046.66 → 1,046.60 until December 2028, then
  // 1,000 × 1.10 = 1,100 from January 2029.
  const r = await run({ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 819 })
  assert.is(r.entitlement_month, '2028-09')
  assert.is(r.credits_in_year_of_entitlement, 8)
  assert.is(r.credits_added_from, '2029-01')
  assert.is(r.retirement_benefit_before_credits_added_dime, 1046.6)
  assert.is(r.retirement_benefit, 1100)
  // A claim at 69 and 9 months (March 2030) in the year 70 is attained (June 2030): the two credits of 2030 are
  // added in June 2030; a claim at 70 has all its credits at once.
  const y70 = await run({ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 837 })
  assert.is(y70.credits_in_year_of_entitlement, 2)
  assert.is(y70.credits_added_from, '2030-06')
  const at70 = await run({ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 840 })
  assert.is(at70.credits_in_year_of_entitlement, 0)
  assert.is(at70.credits_added_from, null)
  assert.is(at70.retirement_benefit_before_credits_added, 1240)
})

test('a spouse\'s benefit at 62 with full retirement age 67 is 32.5% of the worker\'s PIA (SSA\'s published figure)', async () => {
  // 60 months early: 36 × 25/36% + 24 × 5/12% = 25% + 10% = 35%; 1,000 × 0.65 = 650 = 32.5% of 2,000.
  const r = await run({ date_of_birth: '1960-06-15', pia: 0, claim_age_months: 744, spouse_pia: 2000 })
  assert.is(r.spousal_benefit, 650)
})

test('the spouse\'s benefit is paid over the person\'s own PIA (§ 402(k)(3)(A)), half the PIA rounded down to the dime', async () => {
  // Half of 2,000.10 is 1,000.05 → 1,000.00; less own PIA 600 = 400 at full retirement age.
  const r = await run({ date_of_birth: '1960-06-15', pia: 600, claim_age_months: 804, spouse_pia: 2000.1 })
  assert.is(r.spousal_benefit, 400)
  // Own benefit raised by credits to 744 (600 × 1.24) is taken off instead: 1,000 − 744 = 256.
  assert.is((await run({ date_of_birth: '1960-06-15', pia: 600, claim_age_months: 840, spouse_pia: 2000 })).spousal_benefit, 256)
})

test('POMS RS 00615.301 example: widow born 1940-06-15, entitled at 62 and 1 month, $987.60 → $819.60', async () => {
  // FRA 65+2 (782 months); 37 months early of 62 possible: 987.60 × 37 × 0.285 / 62 = 167.97 → 168.00.
  const r = await run({ date_of_birth: '1940-06-15', claim_age_months: 782, deceased_pia: 987.6, survivor_start_age_months: 745 })
  assert.is(r.survivor_full_retirement_age_months, 782)
  assert.is(r.survivor_benefit_dime, 819.6)
  // Before the dime: 987.60 − 167.9716… = 819.6284…
  assert.ok(Math.abs((r.survivor_benefit_unrounded as number) - 819.6284) < 0.0001)
  assert.is(r.survivor_benefit, 819)
})

test('RIB-LIM: the deceased took 70% at 62, so the widow(er) gets at most 82.5% of the PIA (POMS RS 00615.320)', async () => {
  // PIA 2,000, deceased's benefit 1,400: limit max(1,400, 1,650) = 1,650. At survivor FRA: min(2,000, 1,650).
  const r = await run({ date_of_birth: '1962-06-15', claim_age_months: 804, deceased_pia: 2000, deceased_benefit: 1400 })
  assert.is(r.rib_lim, 1650)
  assert.is(r.survivor_benefit, 1650)
  // At 60: 2,000 × 71.5% = 1,430, under the limit.
  assert.is((await run({ date_of_birth: '1962-06-15', claim_age_months: 804, deceased_pia: 2000, deceased_benefit: 1400, survivor_start_age_months: 720 })).survivor_benefit, 1430)
  // Credits raise the widow(er)'s benefit: deceased claimed at 70 with 2,480 → 2,480 at survivor FRA.
  assert.is((await run({ date_of_birth: '1962-06-15', claim_age_months: 804, deceased_pia: 2000, deceased_benefit: 2480 })).survivor_benefit, 2480)
})

test('a claiming age outside 62 to 70 and a widow(er)\'s age before 60 are refused, naming the field', async () => {
  for (const [input, field] of [
    [{ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 743 }, 'claim_age_months'],
    [{ date_of_birth: '1960-06-15', pia: 1000, claim_age_months: 841 }, 'claim_age_months'],
    [{ date_of_birth: '1960-06-15', claim_age_months: 804, deceased_pia: 1000, survivor_start_age_months: 719 }, 'survivor_start_age_months'],
  ] as const) {
    const error = await run(input).then(() => null, (e: unknown) => e)
    assert.instance(error, InputError, `${field} should be refused`)
    assert.equal((error as InputError).details.map((d) => d.field), [field])
  }
})

test.run()
