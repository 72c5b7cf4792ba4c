// The result schema each manifest publishes (`response`: OpenAPI and the MCP tools' output schema)
// holds for the variants the golden cases do not reach: every state code, the cliff and threshold
// objects inside the federal answer, the separate state QTIP election and the QDOT, gift-splitting
// with a non-citizen spouse, each trust type with and without a projection, every inherited IRA
// regime, and the ?explain=true answer over HTTP. The enums it lists are exactly what the rules
// produce, and every field is described for callers.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, type Endpoint } from '../../service/index.js'
import { catalog, post, startService, type Service } from '../helpers.js'

const test = suite('server/response: the published result schemas')

type Json = Record<string, any>
type Schema = Record<string, any>

const endpoint = (op: string): Endpoint => catalog().endpoints.find((e) => e.operation_id === op)!

/** The result for `input`, which must match the endpoint's response schema. */
async function result(op: string, input: unknown): Promise<Json> {
  const e = endpoint(op)
  const { result } = await answer(catalog(), e, input)
  assert.ok(e.validateResult(result), `${op} ${JSON.stringify(input)}: ${JSON.stringify(e.validateResult.errors)}`)
  return result
}

/** The schema of a property, following `properties` (and `items` for arrays). */
function at(schema: Schema, ...path: string[]): Schema {
  return path.reduce((s, k) => (k === '[]' ? s.items : s.properties[k]), schema)
}
const sorted = (xs: Iterable<unknown>) => [...new Set(xs)].map(String).sort()

const STATES = at(endpoint('state_estate_tax').request, 'state').enum as string[]
const RELATIONSHIPS = at(endpoint('state_estate_tax').request, 'beneficiaries', '[]', 'relationship').enum as string[]

test('state_estate_tax: every state, single and married, with beneficiaries, gifts and a bypass trust', async () => {
  const classes: string[] = []
  const cliffRules: string[] = []
  for (const state of STATES) {
    const others = RELATIONSHIPS.filter((r) => r !== 'spouse').map((relationship, i) => ({ relationship, inheritance_amount: [400, 5000, 60000, 300000, 1500000, 2000000][i] }))
    const single = await result('state_estate_tax', { state, tax_year: 2026, gross_estate: 8e6, prior_taxable_gifts: 1e6, bypass_trust_amount: 1e6, beneficiaries: others })
    const married = await result('state_estate_tax', {
      state, tax_year: 2026, gross_estate: 12e6, filing_status: 'married', marital_deduction_claimed: 3e6, state_qtip_election: 1e6,
      beneficiaries: [{ relationship: 'spouse', inheritance_amount: 4e6 }, ...others],
    })
    for (const r of [single, married]) {
      classes.push(...r.inheritance_tax.beneficiaries.map((b: Json) => b.class))
      if (r.estate_tax.cliff) cliffRules.push(r.estate_tax.cliff.rule)
    }
  }
  const schema = endpoint('state_estate_tax').response
  assert.equal(sorted(classes), sorted(at(schema, 'inheritance_tax', 'beneficiaries', '[]', 'class').enum))
  const [, newYork, threshold] = at(schema, 'estate_tax', 'cliff').anyOf
  assert.equal(sorted(cliffRules), sorted([newYork.properties.rule.const, ...threshold.properties.rule.enum]))
  const regions = []
  for (const gross_estate of [7e6, 7.5e6, 9e6]) regions.push((await result('state_estate_tax', { state: 'NY', tax_year: 2026, gross_estate })).estate_tax.cliff.region)
  assert.equal(sorted(regions), sorted(newYork.properties.region.enum))
  const wa = await result('state_estate_tax', { state: 'WA', tax_year: 2026, gross_estate: 9e6, date_of_death: '2026-07-01' })
  assert.ok(wa.estate_tax.tax > 0)
  for (const state of ['MD', 'HI']) await result('state_estate_tax', { state, tax_year: 2026, gross_estate: 9e6, filing_status: 'married', state_dsue_amount: 1e6 })
})

test('federal_estate_tax: every state, with and without a surviving spouse, DSUE and gifts', async () => {
  for (const state of STATES) {
    const married = await result('federal_estate_tax', { gross_estate: 40e6, state_of_domicile: state, deductions: { marital_deduction: 10e6, charitable_deduction: 1e6, debts_and_expenses: 5e5 }, dsue_amount: 5e6, prior_taxable_gifts: 2e6, prior_gift_tax_payable: 1e5 })
    assert.ok(married.portability)
    const single = await result('federal_estate_tax', { gross_estate: 7.6e6, state_of_domicile: state })
    assert.not.ok('portability' in single)
  }
})

test('optimize_qtip_election: the separate state election, a non-citizen spouse, discounting, no portability', async () => {
  const allowed = ['MA', 'MN', 'MD', 'WA', 'OR', 'RI', 'HI']
  for (const state of allowed) {
    const r = await result('optimize_qtip_election', { state_of_domicile: state, gross_estate: 20e6, surviving_spouse_estate: 3e6, grid_step: 0.25, state_qtip_election: 'separate', portability: false })
    assert.ok('federal_fraction' in r.best && 'state_only_elected' in r.curve[0])
  }
  for (const state of ['NY', 'FL', 'PA']) {
    const r = await result('optimize_qtip_election', { state_of_domicile: state, gross_estate: 20e6, surviving_spouse_estate: 3e6, grid_step: 0.25, spouse_us_citizen: false, discount_rate: 0.05, years_until_second_death: 5, growth_rate: 0.03 })
    assert.ok(r.qdot && 'qdot_tax' in r.best && r.objective === 'present_value')
  }
  await result('optimize_qtip_election', { state_of_domicile: 'NY', gross_estate: 5e6, bequests_to_others: 5e6, grid_step: 0.25 })
})

test('optimize_annual_gifts: with and without gift-splitting, citizen and non-citizen spouse, every section', async () => {
  const donees = [
    { name: 'Spouse', relationship: 'spouse', outright_gifts: 300000, trust_contribution: 50000 },
    { name: 'Ann', relationship: 'child', outright_gifts: 50000, tuition_paid_directly: 30000, medical_paid_directly: 1000 },
    { name: 'Ben', relationship: 'grandchild', contribution_529: 200000, trust_contribution: 100000, trust_meets_gst_conditions: true },
    { name: 'Cy', relationship: 'great_grandchild', contribution_529: 60000, elect_529_five_year: true, trust_contribution: 60000, withdrawal_power: 30000, trust_value: 500000, hanging_power: true, hanging_power_carried_in: 20000 },
    { name: 'Dee', relationship: 'other', trust_contribution: 40000, skip_person: true },
    { name: 'Fay', relationship: 'other', hanging_power: true, hanging_power_carried_in: 10000 },
  ]
  for (const gift_splitting of [false, true]) {
    for (const spouse_is_us_citizen of [true, false]) {
      const r = await result('optimize_annual_gifts', { gift_splitting, spouse_is_us_citizen, prior_taxable_gifts: 14e6, prior_gst_exemption_used: 15e6, donees })
      assert.is('spouse' in r, gift_splitting)
      assert.is(r.donees[0].unused_annual_exclusion === null, spouse_is_us_citizen)
    }
  }
})

test('calculate_grat: each trust type, each payment frequency, with and without a projection', async () => {
  for (const payment_frequency of ['annual', 'semiannual', 'quarterly', 'monthly']) {
    await result('calculate_grat', { valuation_date: '2026-04-15', initial_value: 1e6, term_years: 3, payment_frequency })
    await result('calculate_grat', { valuation_date: '2025-06-01', initial_value: 5e6, term_years: 10, payment_frequency, growth_rate: 0.08, annuity_increase_rate: 0.2, annuity_amount: 300000 })
  }
  const exhausted = await result('calculate_grat', { trust_type: 'clat', valuation_date: '2026-10-31', initial_value: 2e6, term_years: 5, growth_rate: -0.9 })
  assert.ok(exhausted.annuity.payments.some((p: Json) => p.unpaid_for_lack_of_assets > 0))
  assert.ok(exhausted.rate_months_considered.length > 0)
  const given = await result('calculate_grat', { trust_type: 'clat', valuation_date: '2026-12-01', initial_value: 2e6, term_years: 20, section_7520_rate: 0.05 })
  assert.is(given.rate_month, null)
  for (const donor_estate_at_death of [undefined, 30e6]) {
    const slat = await result('calculate_grat', { trust_type: 'slat', valuation_date: '2026-03-03', initial_value: 10e6, growth_rate: 0.06, years_until_death: 15, donor_estate_at_death })
    assert.not.ok('annuity' in slat)
  }
})

test('inherited_ira_rmd: every beneficiary class and every regime', async () => {
  const owners = [['1940-03-01', '2020-05-10'], ['1952-05-01', '2024-11-30'], ['1962-12-31', '2025-07-01']]
  const beneficiaries = [
    { beneficiary_type: 'spouse', beneficiary_date_of_birth: '1950-01-01' },
    { beneficiary_type: 'spouse', beneficiary_date_of_birth: '1965-09-09', spouse_election: 'own_account' },
    { beneficiary_type: 'child', beneficiary_date_of_birth: '2010-04-04' },
    { beneficiary_type: 'individual', beneficiary_date_of_birth: '1990-01-01' },
    { beneficiary_type: 'individual', beneficiary_date_of_birth: '1945-01-01' },
    { beneficiary_type: 'individual', beneficiary_date_of_birth: '1990-01-01', beneficiary_disabled: true },
    { beneficiary_type: 'individual', beneficiary_date_of_birth: '1990-01-01', beneficiary_chronically_ill: true },
    { beneficiary_type: 'estate' },
  ]
  const classes: string[] = []
  const regimes: string[] = []
  for (const [owner_date_of_birth, owner_date_of_death] of owners) {
    for (const b of beneficiaries) {
      for (const account_type of ['traditional', 'roth']) {
        const r = await result('inherited_ira_rmd', { owner_date_of_birth, owner_date_of_death, balance: 500000, account_type, growth_rate: 0.05, ...b })
        classes.push(r.beneficiary_class)
        regimes.push(r.regime)
      }
    }
  }
  const r = await result('inherited_ira_rmd', { owner_date_of_birth: '1952-05-01', owner_date_of_death: '2024-11-30', beneficiary_type: 'individual', beneficiary_date_of_birth: '1990-01-01', beneficiary_disabled: true, elect_ten_year_rule: true, balance: 1 })
  regimes.push(r.regime)
  const schema = endpoint('inherited_ira_rmd').response
  assert.equal(sorted(classes), sorted(at(schema, 'beneficiary_class').enum))
  assert.equal(sorted(regimes), sorted(at(schema, 'regime').enum))
})

let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const EXPLAINED: [string, unknown][] = [
  ['state_estate_tax', { state: 'ny', tax_year: 2026, gross_estate: 7.5e6, bypass_trust_amount: 1e6 }],
  ['federal_estate_tax', { gross_estate: 20e6, state_of_domicile: 'IL', surviving_spouse: true }],
  ['optimize_qtip_election', { state_of_domicile: 'NY', gross_estate: 10e6, surviving_spouse_estate: 2e6, grid_step: 0.25 }],
  ['optimize_annual_gifts', { gift_splitting: true, donees: [{ name: 'Ben', relationship: 'grandchild', contribution_529: 200000, tuition_paid_directly: 30000 }] }],
  ['calculate_grat', { valuation_date: '2026-04-15', initial_value: 1e6, term_years: 2, growth_rate: 0.08 }],
  ['inherited_ira_rmd', { owner_date_of_birth: '1950-03-01', owner_date_of_death: '2024-05-10', beneficiary_type: 'individual', beneficiary_date_of_birth: '1980-06-01', balance: 500000 }],
]

for (const [op, body] of EXPLAINED) {
  test(`${op}: the ?explain=true answer over HTTP matches the schema, explanation included`, async () => {
    const e = endpoint(op)
    const { status, json } = await post(service, `${e.paths[0]}?explain=true`, body)
    assert.is(status, 200)
    assert.ok(json.result.explanation.length > 0)
    assert.ok(e.validateResult(json.result), JSON.stringify(e.validateResult.errors))
  })
}

test('every field of every result schema is described, and no YAML slip left a key without a value', () => {
  const problems: string[] = []
  const walk = (s: Schema, path: string) => {
    for (const [k, v] of Object.entries(s)) if (v === null) problems.push(`${path}: ${k} has no value`)
    for (const [k, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
      if (typeof p.description !== 'string' || p.description.length < 8) problems.push(`${path}.${k} has no description`)
      walk(p, `${path}.${k}`)
    }
    if (s.items) walk(s.items, `${path}[]`)
    for (const [i, branch] of ((s.anyOf ?? []) as Schema[]).entries()) walk(branch, `${path}|${i}`)
  }
  for (const e of catalog().endpoints) walk(e.response, e.operation_id)
  assert.equal(problems, [])
})

test.run()
