// Properties of the QTIP election optimizer on valid random couples: the chosen fraction's total is
// the lowest of every fraction searched, so no higher than electing nothing or everything, and it is
// the lowest fraction of the optimal set (the stated tie-break) inside one of the optimal intervals;
// every tax and DSUE of every point is never negative and the total is its parts (discounted where
// asked); the elected amount is the fraction of the QTIP property; the first death's federal tax at
// the chosen fraction is what the federal endpoint answers for that estate; the same bytes twice and
// on both paths. The optimizer costs tens of milliseconds a call, so it gets few runs and coarse grids.
import * as fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { catalog, post, startService, type Service } from '../helpers.js'
import { cents, table } from './law.js'
import { params } from './runs.js'

const test = suite('properties: QTIP election optimizer')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const endpoint = catalog().endpoints.find((e) => e.operation_id === 'optimize_qtip_election')!
const [PATH, OTHER] = endpoint.paths as [string, string]
const schema = (endpoint.request as any).properties
const STATES = schema.state_of_domicile.enum as string[]
const YEARS = endpoint.years!.supported
const elections = table('estate_planning.qtip_election.state_only_qtip_elections')
const SEPARATE = elections.kind === 'lookup' ? [...elections.history.at(-1)!.value.values()].filter((r) => r.allowed === true).map((r) => String(r.state)) : []

const money = (max: number) => fc.integer({ min: 0, max: Math.round(max * 100) }).map((c) => c / 100)
const sometimes = (arb: fc.Arbitrary<number>) => fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: arb })

const qtipCase = fc
  .record({
    state_of_domicile: fc.oneof(fc.constantFrom('NY', 'MA', 'IL', 'WA', 'CT', 'OR', 'MD'), fc.constantFrom(...STATES)),
    decedent_year_of_death: fc.option(fc.constantFrom(...YEARS), { nil: undefined }),
    gross_estate: fc.oneof(money(60e6), money(15e6)),
    shares: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 4, maxLength: 4 }),
    take: fc.double({ min: 0, max: 0.9, noNaN: true }),
    prior_taxable_gifts: sometimes(money(10e6)),
    surviving_spouse_estate: sometimes(money(30e6)),
    surviving_spouse_prior_taxable_gifts: sometimes(money(5e6)),
    years_until_second_death: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
    growth_rate: fc.option(fc.double({ min: -0.1, max: 0.12, noNaN: true }), { nil: undefined }),
    discount_rate: fc.option(fc.double({ min: 0, max: 0.1, noNaN: true }), { nil: undefined }),
    portability: fc.option(fc.boolean(), { nil: undefined }),
    spouse_us_citizen: fc.option(fc.boolean(), { nil: undefined, freq: 3 }),
    grid_step: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(0.25, 0.2, 0.125, 0.1, 0.05) }, { weight: 1, arbitrary: fc.double({ min: 0.02, max: 0.25, noNaN: true }) }),
    separate: fc.boolean(),
  })
  .map((r) => {
    const body: Record<string, unknown> = { state_of_domicile: r.state_of_domicile, gross_estate: r.gross_estate, grid_step: r.grid_step }
    // Debts, charity, the outright bequest and bequests to others take at most `take` of the estate.
    const total = r.shares.reduce((s, x) => s + x, 0) || 1
    const names = ['debts_and_expenses', 'charitable_deduction', 'outright_to_spouse', 'bequests_to_others']
    names.forEach((n, k) => {
      const v = Math.floor((r.gross_estate * r.take * r.shares[k]!) / total * 100) / 100
      if (v > 0) body[n] = v
    })
    for (const k of ['decedent_year_of_death', 'years_until_second_death', 'growth_rate', 'discount_rate', 'portability', 'spouse_us_citizen'] as const) if (r[k] !== undefined) body[k] = r[k]
    for (const k of ['prior_taxable_gifts', 'surviving_spouse_estate', 'surviving_spouse_prior_taxable_gifts'] as const) if (r[k]) body[k] = r[k]
    if (r.separate && SEPARATE.includes(r.state_of_domicile) && r.spouse_us_citizen !== false) body.state_qtip_election = 'separate'
    return body
  })

interface Point {
  fraction: number
  federal_fraction?: number
  qtip_elected: number
  first_death_federal_tax: number
  first_death_state_tax: number
  dsue_to_survivor: number
  second_death_federal_tax: number
  second_death_state_tax: number
  qdot_tax?: number
  total_tax: number
}

test('the chosen fraction is the cheapest searched, no dearer than all or nothing, the lowest of its ties; parts never negative; same bytes twice and on both paths', async () => {
  await fc.assert(
    fc.asyncProperty(qtipCase, async (body) => {
      const where = JSON.stringify(body)
      const a = await post(service, PATH, body)
      // A state-year the state's own rules refuse (Massachusetts before 2023, D.C. 2024: a figure not
      // loaded) is a 400 on the year naming the state's supported years; the property is of the rest.
      if (a.status === 400) {
        const detail = (a.json.error.details as { field: string; message: string }[])[0]
        if (a.json.error.code === 'unsupported_parameter' && detail?.field === 'decedent_year_of_death' && detail.message.includes(`supported for ${String(body.state_of_domicile)}:`)) return
      }
      // Found here: elected amounts rounded half up could exceed the property by a fraction of a cent
      // and the inner rule sets refused the candidate (MA, 29,999,940.23, separate). They are cut to
      // the cent now.
      assert.is(a.status, 200, `${where}: ${a.text.slice(0, 300)}`)
      const r = a.json.result
      const curve = r.curve as Point[]
      const best = r.best as Point
      const n = (k: string) => new Dec((body[k] as number | undefined) ?? 0)
      const property = new Dec(body.gross_estate as number).minus(n('debts_and_expenses')).minus(n('charitable_deduction')).minus(n('outright_to_spouse')).minus(n('bequests_to_others'))
      assert.is(r.qtip_property, cents(property), `QTIP property: ${where}`)
      assert.is(r.objective, body.discount_rate === undefined ? 'undiscounted_sum' : 'present_value')
      const df = body.discount_rate === undefined ? new Dec(1) : new Dec(1).div(new Dec(1).plus(body.discount_rate as number).pow((body.years_until_second_death as number | undefined) ?? 0))
      const lowest = Math.min(...curve.map((p) => p.total_tax))
      assert.is(best.total_tax, lowest, `best is not the lowest of the curve: ${where}`)
      assert.ok(best.total_tax <= r.at_zero_election.total_tax && best.total_tax <= r.at_full_election.total_tax, `best dearer than all or nothing: ${where}`)
      assert.is(best.fraction, Math.min(...curve.filter((p) => p.total_tax === lowest).map((p) => p.fraction)), `tie-break is not the lowest fraction: ${where}`)
      assert.ok((r.optimal_intervals as { from: number; to: number }[]).some((i) => i.from <= best.fraction && best.fraction <= i.to), `best outside the optimal intervals: ${where}`)
      for (const m of r.local_minima as { value: number }[]) assert.ok(m.value >= best.total_tax, `a local minimum below the best: ${where}`)
      if (r.qtip_property > 0) {
        assert.is(curve[0]!.fraction, 0)
        assert.is(curve.at(-1)!.fraction, 1)
      }
      for (const [k, p] of curve.entries()) {
        const at = `${where}, fraction ${p.fraction}`
        if (k > 0) assert.ok(p.fraction > curve[k - 1]!.fraction, `fractions not ascending: ${at}`)
        for (const part of ['first_death_federal_tax', 'first_death_state_tax', 'dsue_to_survivor', 'second_death_federal_tax', 'second_death_state_tax', 'qdot_tax', 'total_tax'] as const) {
          const v = p[part]
          if (v !== undefined) assert.ok(v >= 0, `${part} ${v} negative: ${at}`)
        }
        assert.is(p.qtip_elected, property.times(p.federal_fraction ?? p.fraction).toDecimalPlaces(2, Dec.ROUND_DOWN).toNumber(), `elected amount (cut to the cent): ${at}`)
        const parts = new Dec(p.first_death_federal_tax).plus(p.first_death_state_tax).plus(df.times(new Dec(p.second_death_federal_tax).plus(p.second_death_state_tax).plus(p.qdot_tax ?? 0)))
        assert.ok(parts.minus(p.total_tax).abs().lte(0.03), `total ${p.total_tax} is not its parts ${parts}: ${at}`)
      }
      // The first death at the chosen fraction, asked of the federal endpoint directly. What passes
      // outright to a spouse who is not a citizen is not deductible (no QDOT holds it).
      if (body.state_qtip_election === undefined) {
        const outright = body.spouse_us_citizen === false ? 0 : ((body.outright_to_spouse as number | undefined) ?? 0)
        const deductions: Record<string, number> = { marital_deduction: cents(new Dec(outright).plus(best.qtip_elected)) }
        if (body.charitable_deduction) deductions.charitable_deduction = body.charitable_deduction as number
        if (body.debts_and_expenses) deductions.debts_and_expenses = body.debts_and_expenses as number
        const federal: Record<string, unknown> = { gross_estate: body.gross_estate, state_of_domicile: body.state_of_domicile, deductions, surviving_spouse: true }
        if (body.prior_taxable_gifts) federal.prior_taxable_gifts = body.prior_taxable_gifts
        if (body.decedent_year_of_death) federal.decedent_year_of_death = body.decedent_year_of_death
        const f = await post(service, '/estate/calculate-federal-tax', federal)
        assert.is(f.status, 200, f.text)
        assert.is(best.first_death_federal_tax, f.json.result.estate_tax, `first death federal tax differs from the federal endpoint: ${where}`)
        assert.is(best.first_death_state_tax, f.json.result.state_death_tax_deduction, `first death state tax differs from the federal endpoint: ${where}`)
      }
      const again = await post(service, PATH, body)
      assert.is(again.text, a.text, `not the same bytes: ${where}`)
      const twin = await post(service, OTHER, body)
      assert.is(twin.text, a.text, `${OTHER} answers differently: ${where}`)
    }),
    params(8),
  )
})

test.run()
