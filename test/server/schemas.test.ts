/**
 * The published request schemas say what the service enforces: a client or a code generator built
 * from /schemas/<operation> (the same schema OpenAPI carries) sends what the service accepts, and is
 * stopped by the schema where the service would answer 400. Each request below is sent to both; the
 * schema's verdict and the service's must agree.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { post, startService, type Service } from '../helpers.js'

const test = suite('server/schemas: the published schemas agree with the service')

let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)

async function schemaOf(operation: string) {
  const res = await fetch(`${service.url}/schemas/${operation}.json`)
  assert.is(res.status, 200)
  const { $schema: _s, ...schema } = (await res.json()) as Record<string, unknown>
  return ajv.compile(schema)
}

const IRA = { owner_date_of_birth: '1950-03-01', owner_date_of_death: '2024-05-10', beneficiary_type: 'individual', beneficiary_date_of_birth: '1980-06-01', balance: 500000 }
const GRAT = { valuation_date: '2026-04-15', initial_value: 1000000, term_years: 2 }
const SLAT = { trust_type: 'slat', valuation_date: '2026-04-15', initial_value: 1000000, years_until_death: 10, growth_rate: 0.05 }

// [what, operation, path, body, accepted]
const CASES: [string, string, string, Record<string, unknown>, boolean][] = [
  ['a state in lower case', 'state_estate_tax', '/estate/calculate-state-tax', { state: 'ny', tax_year: 2026, gross_estate: 1 }, true],
  ['an unsupported tax year', 'state_estate_tax', '/estate/calculate-state-tax', { state: 'NY', tax_year: 2025, gross_estate: 1 }, false],
  ['an unsupported year of death', 'federal_estate_tax', '/estate/calculate-federal-tax', { gross_estate: 1, decedent_year_of_death: 2027 }, false],
  ['a grat', 'calculate_grat', '/estate/calculate-grat', GRAT, true],
  ['a grat without term_years', 'calculate_grat', '/estate/calculate-grat', { valuation_date: '2026-04-15', initial_value: 1000000 }, false],
  ['a grat with a slat field', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, years_until_death: 5 }, false],
  ['a grat with rate_month (clat only)', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, rate_month: '2026-03' }, false],
  ['an annuity growing more than 20% a year', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, annuity_increase_rate: 0.25 }, false],
  ['an annuity growing 20% a year', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, annuity_increase_rate: 0.2 }, true],
  ['a clat with rate_month', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, trust_type: 'clat', rate_month: '2026-03' }, true],
  ['a clat with rate_month and a § 7520 rate', 'calculate_grat', '/estate/calculate-grat', { ...GRAT, trust_type: 'clat', rate_month: '2026-03', section_7520_rate: 0.05 }, false],
  ['a slat', 'calculate_grat', '/estate/calculate-grat', SLAT, true],
  ['a slat with term_years', 'calculate_grat', '/estate/calculate-grat', { ...SLAT, term_years: 5 }, false],
  ['a slat with an increasing annuity', 'calculate_grat', '/estate/calculate-grat', { ...SLAT, annuity_increase_rate: 0.1 }, false],
  ['a slat without years_until_death', 'calculate_grat', '/estate/calculate-grat', { trust_type: 'slat', valuation_date: '2026-04-15', initial_value: 1000000, growth_rate: 0.05 }, false],
  ['an inherited IRA', 'inherited_ira_rmd', '/inherited-ira/schedule', IRA, true],
  ['an individual beneficiary without a date of birth', 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, beneficiary_date_of_birth: undefined }, false],
  ['an estate given a date of birth', 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, beneficiary_type: 'estate' }, false],
  ['a spouse election by a non-spouse', 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, spouse_election: 'own_account' }, false],
  ['a start year before the life tables in force', 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, owner_date_of_death: '2020-05-10', start_year: 2021 }, false],
  ["the owner's year-of-death distributions without the balance", 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, owner_distributions_in_year_of_death: 100 }, false],
  ["the owner's year-of-death balance and distributions", 'inherited_ira_rmd', '/inherited-ira/schedule', { ...IRA, owner_balance_at_end_of_year_before_death: 500000, owner_distributions_in_year_of_death: 100 }, true],
]

for (const [what, operation, path, body, accepted] of CASES) {
  test(`${what}: ${accepted ? 'accepted' : 'refused'} by the schema and the service alike`, async () => {
    const validate = await schemaOf(operation)
    const sent = JSON.parse(JSON.stringify(body)) as Record<string, unknown>
    assert.is(validate(sent), accepted, `schema: ${JSON.stringify(validate.errors)}`)
    const r = await post(service, path, sent)
    assert.is(r.status, accepted ? 200 : 400, `service: ${r.text.slice(0, 300)}`)
  })
}

test('a date of birth centuries before the death is refused, naming the field', async () => {
  const r = await post(service, '/inherited-ira/schedule', { ...IRA, beneficiary_date_of_birth: '1850-01-01' })
  assert.is(r.status, 400)
  assert.equal(r.json.error.details.map((d: { field: string }) => d.field), ['beneficiary_date_of_birth'])
  assert.match(r.json.error.message, /not plausible/)
})

test.run()
