// Properties of the GRAT, CLAT and SLAT calculator on valid random transfers: a zeroed-out GRAT
// leaves no taxable gift and no gift tax; the remainder factor lies in [0, 1] and Table K is at
// least 1; the taxable gift lies between 0 and the value transferred and, with the retained or
// charitable interest, adds up to it; the gift tax is never negative nor above the top rate on the
// gift; payments are never negative and grow by the increase rate; the same bytes twice and on both
// paths.
import * as fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { catalog, post, startService, type Service } from '../helpers.js'
import { cents, sameMoney, table, topRate, withinRate } from './law.js'
import { params } from './runs.js'

const test = suite('properties: GRAT, CLAT and SLAT')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const endpoint = catalog().endpoints.find((e) => e.operation_id === 'calculate_grat')!
const [PATH, OTHER] = endpoint.paths as [string, string]
const schema = (endpoint.request as any).properties
const TOP = topRate('estate.federal_gift')
const rates = table('estate_planning.split_interest_trusts.section_7520_rates')
const exclusion = table('estate.federal.basic_exclusion_amount')
// Months with a § 7520 rate loaded, from the year the gift tax figures start.
const giftFiguresFrom = exclusion.kind === 'parameter' ? exclusion.history[0]!.from : ''
const MONTHS = rates.kind === 'series' ? [...rates.points.keys()].filter((m) => `${m}-31` >= giftFiguresFrom) : []

const money = (max: number) => fc.integer({ min: 1, max: Math.round(max * 100) }).map((c) => c / 100)

const gratCase = fc
  .record({
    trust_type: fc.constantFrom(...(schema.trust_type.enum as string[])),
    month: fc.constantFrom(...MONTHS),
    day: fc.integer({ min: 1, max: 28 }),
    own_rate: fc.option(fc.double({ min: 0.002, max: 0.15, noNaN: true }), { nil: undefined, freq: 4 }),
    initial_value: fc.oneof(money(50e6), fc.double({ min: 0.01, max: 1e9, noNaN: true })),
    term_years: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 100 })),
    payment_frequency: fc.option(fc.constantFrom(...(schema.payment_frequency.enum as string[])), { nil: undefined }),
    annuity_increase_rate: fc.option(fc.oneof(fc.constant(0.2), fc.double({ min: 0, max: 0.2, noNaN: true })), { nil: undefined }),
    annuity_share: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: undefined, freq: 3 }),
    growth_rate: fc.option(fc.double({ min: -0.99, max: 0.5, noNaN: true }), { nil: undefined }),
    prior_taxable_gifts: fc.option(money(30e6), { nil: undefined }),
    prior_unified_credit_used: fc.option(money(10e6), { nil: undefined, freq: 4 }),
    years_until_death: fc.integer({ min: 0, max: 60 }),
    donor_estate_at_death: fc.option(money(50e6), { nil: undefined }),
  })
  .map((r) => {
    const body: Record<string, unknown> = { trust_type: r.trust_type, valuation_date: `${r.month}-${String(r.day).padStart(2, '0')}`, initial_value: r.initial_value }
    if (r.own_rate !== undefined) body.section_7520_rate = r.own_rate
    if (r.prior_taxable_gifts !== undefined) body.prior_taxable_gifts = r.prior_taxable_gifts
    if (r.prior_unified_credit_used !== undefined) body.prior_unified_credit_used = r.prior_unified_credit_used
    if (r.trust_type === 'slat') {
      body.years_until_death = r.years_until_death
      body.growth_rate = r.growth_rate ?? 0.05
      if (r.donor_estate_at_death !== undefined) body.donor_estate_at_death = r.donor_estate_at_death
    } else {
      body.term_years = r.term_years
      if (r.payment_frequency) body.payment_frequency = r.payment_frequency
      if (r.annuity_increase_rate !== undefined) body.annuity_increase_rate = r.annuity_increase_rate
      if (r.annuity_share !== undefined) body.annuity_amount = Math.round(r.initial_value * r.annuity_share * 100) / 100
      if (r.growth_rate !== undefined) body.growth_rate = r.growth_rate
    }
    return body
  })

test('gift between 0 and the transfer, zero when zeroed out; factors in range; gift tax within the top rate; same bytes twice and on both paths', async () => {
  await fc.assert(
    fc.asyncProperty(gratCase, async (body) => {
      const where = JSON.stringify(body)
      const a = await post(service, PATH, body)
      assert.is(a.status, 200, `${where}: ${a.text.slice(0, 300)}`)
      const r = a.json.result
      const initial = cents(body.initial_value as number)
      assert.ok(r.taxable_gift >= 0 && r.taxable_gift <= initial, `taxable gift ${r.taxable_gift} outside [0, ${initial}]: ${where}`)
      assert.ok(r.gift_tax.gift_tax_due >= 0, `negative gift tax: ${where}`)
      assert.ok(withinRate(r.gift_tax.gift_tax_due, r.taxable_gift, TOP), `gift tax ${r.gift_tax.gift_tax_due} above ${TOP} × ${r.taxable_gift}: ${where}`)
      assert.ok(r.gift_tax.exclusion_used >= 0 && r.gift_tax.exclusion_remaining >= 0 && r.gift_tax.exclusion_used <= r.taxable_gift, `exclusion: ${where}`)
      if (body.trust_type === 'slat') {
        assert.is(r.taxable_gift, initial, `a SLAT's gift is the transfer: ${where}`)
        return
      }
      const an = r.annuity
      assert.ok(an.remainder_factor >= 0 && an.remainder_factor <= 1, `remainder factor ${an.remainder_factor}: ${where}`)
      assert.ok(an.annuity_factor > 0 && an.annuity_factor <= (body.term_years as number) * Math.pow(1.2, body.term_years as number), `annuity factor ${an.annuity_factor}: ${where}`)
      assert.ok(an.table_k_adjustment >= 1, `Table K below 1: ${where}`)
      if ((body.payment_frequency ?? 'annual') === 'annual') assert.is(an.table_k_adjustment, 1)
      assert.is(an.payments.length, body.term_years, `one payment a year: ${where}`)
      const growth = new Dec((body.annuity_increase_rate as number | undefined) ?? 0).plus(1)
      let before: Dec | undefined
      for (const [k, p] of (an.payments as { annuity_payment: number; projected_trust_value_after_payment?: number }[]).entries()) {
        assert.ok(p.annuity_payment >= 0, `negative payment: ${where}`)
        // Each payment is the one before grown by the increase rate, rounded down to the cent: never
        // above 120% of the amount payable the year before (Treas. Reg. § 25.2702-3(b)(1)(ii)(A)).
        const paid = new Dec(p.annuity_payment)
        if (before === undefined) assert.ok(sameMoney(p.annuity_payment, cents(new Dec(an.first_year_annuity))), `payment 1 is ${p.annuity_payment}, not the first-year annuity: ${where}`)
        else {
          // (Past about $90 billion a JSON number cannot hold every cent: sameMoney allows for that.)
          const cap = before.times(growth)
          assert.ok(sameMoney(p.annuity_payment, cap.toDecimalPlaces(2, Dec.ROUND_DOWN)), `payment ${k + 1} is ${p.annuity_payment}, not ${cap} rounded down to the cent: ${where}`)
        }
        before = paid
        if (p.projected_trust_value_after_payment !== undefined) assert.ok(p.projected_trust_value_after_payment >= 0, `negative trust value: ${where}`)
      }
      const other = body.trust_type === 'grat' ? r.retained_interest_value : r.charitable_deduction
      assert.ok(other >= 0 && other <= initial, `retained or charitable interest ${other}: ${where}`)
      assert.ok(Math.abs(other + r.taxable_gift - initial) <= 0.011, `interest ${other} + gift ${r.taxable_gift} ≠ ${initial}: ${where}`)
      if (body.annuity_amount === undefined) {
        assert.is(an.first_year_annuity, an.zeroed_out_annuity)
        if (body.trust_type === 'grat') {
          assert.is(r.taxable_gift, 0, `a zeroed-out GRAT leaves a gift: ${where}`)
          assert.is(r.gift_tax.gift_tax_due, 0)
        }
        assert.ok(an.annuity_present_value >= initial - 0.01, `the zeroed-out annuity is worth ${an.annuity_present_value} < ${initial}: ${where}`)
      }
      const again = await post(service, PATH, body)
      assert.is(again.text, a.text, `not the same bytes: ${where}`)
      const twin = await post(service, OTHER, body)
      assert.is(twin.text, a.text, `${OTHER} answers differently: ${where}`)
    }),
    params(40),
  )
})

test.run()
