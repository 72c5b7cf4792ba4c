// Properties of the inherited IRA schedule on valid random owners, beneficiaries and balances:
// distributions and balances never negative, years consecutive, every year's balance the prior one
// grown less that year's minimum (to the cent) and the minimum never more than the account holds,
// distributions plus the last balance equal to the starting balance with no growth (more with
// growth, less with losses), a fixed deadline emptying the account; the same bytes twice and on
// both paths.
import * as fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { catalog, post, startService, type Service } from '../helpers.js'
import { CENT_EXACT_LIMIT, cents, sameMoney } from './law.js'
import { params } from './runs.js'

const test = suite('properties: inherited IRA schedule')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const endpoint = catalog().endpoints.find((e) => e.operation_id === 'inherited_ira_rmd')!
const [PATH, OTHER] = endpoint.paths as [string, string]
const schema = (endpoint.request as any).properties
const TYPES = schema.beneficiary_type.enum as string[]
const PERSONS = ['spouse', 'child', 'individual']
// Cross-field checks a random request may trip (each a documented 400 naming its field).
const CHECKED = new Set(['start_year', 'elect_ten_year_rule'])

const day = (from: string, to: string) => fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))

const iraCase = fc
  .record({
    owner_date_of_birth: day('1925-01-01', '1985-12-31'),
    owner_date_of_death: day('2020-01-01', '2026-12-31'),
    beneficiary_type: fc.constantFrom(...TYPES),
    beneficiary_date_of_birth: day('1930-01-01', '2026-06-30'),
    beneficiary_disabled: fc.option(fc.boolean(), { nil: undefined }),
    beneficiary_chronically_ill: fc.option(fc.boolean(), { nil: undefined }),
    account_type: fc.option(fc.constantFrom(...(schema.account_type.enum as string[])), { nil: undefined }),
    balance: fc.oneof(fc.integer({ min: 0, max: 500_000_000 }).map((c) => c / 100), fc.double({ min: 0, max: 1e9, noNaN: true })),
    start_offset: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined, freq: 3 }),
    growth_rate: fc.option(fc.oneof(fc.double({ min: -0.99, max: 1, noNaN: true }), fc.constantFrom(0, 0.05, -0.2, -0.6, -0.95, -0.99, 1)), { nil: undefined }),
    spouse_election: fc.option(fc.constantFrom(...(schema.spouse_election.enum as string[])), { nil: undefined }),
    elect_ten_year_rule: fc.option(fc.boolean(), { nil: undefined, freq: 3 }),
  })
  .map((r) => {
    const person = PERSONS.includes(r.beneficiary_type)
    const body: Record<string, unknown> = {
      owner_date_of_birth: r.owner_date_of_birth < r.owner_date_of_death ? r.owner_date_of_birth : '1950-01-01',
      owner_date_of_death: r.owner_date_of_death,
      beneficiary_type: r.beneficiary_type,
      balance: r.balance,
    }
    // A beneficiary is alive at the owner's death (one born after it is a 400, tested in the suite).
    if (person) body.beneficiary_date_of_birth = r.beneficiary_date_of_birth > r.owner_date_of_death ? r.owner_date_of_death : r.beneficiary_date_of_birth
    if (person && r.beneficiary_disabled !== undefined) body.beneficiary_disabled = r.beneficiary_disabled
    if (person && r.beneficiary_chronically_ill !== undefined) body.beneficiary_chronically_ill = r.beneficiary_chronically_ill
    if (r.account_type) body.account_type = r.account_type
    if (r.start_offset !== undefined) body.start_year = Math.max(2022, Number(r.owner_date_of_death.slice(0, 4)) + 1) + r.start_offset
    if (r.growth_rate !== undefined) body.growth_rate = r.growth_rate
    if (r.beneficiary_type === 'spouse' && r.spouse_election) body.spouse_election = r.spouse_election
    if (r.elect_ten_year_rule !== undefined) body.elect_ten_year_rule = r.elect_ten_year_rule
    return body
  })

interface Row {
  year: number
  divisor: number | null
  minimum_distribution: number
  projected_year_end_balance: number
}

test('distributions and balances never negative; each year the prior balance grown less the minimum; the deadline empties the account; same bytes twice and on both paths', async () => {
  await fc.assert(
    fc.asyncProperty(iraCase, async (body) => {
      const where = JSON.stringify(body)
      const a = await post(service, PATH, body)
      if (a.status === 400) {
        // Only a documented cross-field check; anything else means the arbitrary or the service is wrong.
        const fields = (a.json.error.details as { field: string }[]).map((d) => d.field)
        assert.ok(fields.every((f) => CHECKED.has(f)), `${where}: ${a.text}`)
        fc.pre(false)
      }
      assert.is(a.status, 200, `${where}: ${a.text.slice(0, 300)}`)
      const r = a.json.result
      const rows = r.schedule as Row[]
      const g = new Dec((body.growth_rate as number | undefined) ?? 0)
      let prior = new Dec(body.balance as number)
      let total = new Dec(0)
      for (const [k, row] of rows.entries()) {
        const at = `${where}, year ${row.year}`
        if (k > 0) assert.is(row.year, rows[k - 1]!.year + 1, `years not consecutive: ${at}`)
        assert.ok(row.minimum_distribution >= 0, `negative distribution: ${at}`)
        assert.ok(row.projected_year_end_balance >= 0, `negative balance: ${at}`)
        assert.ok(row.divisor === null || row.divisor > 0, `divisor ${row.divisor}: ${at}`)
        const grown = prior.times(g.plus(1))
        assert.ok(row.minimum_distribution <= cents(Dec.max(grown, 0)) || sameMoney(row.minimum_distribution, cents(Dec.max(grown, 0)), grown), `took ${row.minimum_distribution}, more than the account's ${grown}: ${at}`)
        const expected = cents(Dec.max(0, grown.minus(row.minimum_distribution)))
        assert.ok(sameMoney(row.projected_year_end_balance, expected, grown), `year-end balance ${row.projected_year_end_balance}, expected ${expected}: ${at}`)
        total = total.plus(row.minimum_distribution)
        prior = new Dec(row.projected_year_end_balance)
      }
      assert.ok(sameMoney(r.total_distributions, cents(total), total.times(rows.length)), `total_distributions ${r.total_distributions}, expected ${cents(total)}: ${where}`)
      const last = rows.at(-1)
      if (r.final_year !== null && last && last.year === r.final_year) assert.is(last.projected_year_end_balance, 0, `the final year leaves money: ${where}`)
      if (rows.length > 0 && new Dec(body.balance as number).eq(new Dec(body.balance as number).toDecimalPlaces(2)) && total.lt(CENT_EXACT_LIMIT)) {
        const out = total.plus(last!.projected_year_end_balance)
        const start = new Dec(body.balance as number)
        if (g.isZero()) assert.ok(out.eq(start), `no growth, yet distributions + last balance ${out} ≠ ${start}: ${where}`)
        else if (g.gt(0)) assert.ok(out.gte(start), `growth, yet distributions + last balance ${out} < ${start}: ${where}`)
        else assert.ok(out.lte(start), `losses, yet distributions + last balance ${out} > ${start}: ${where}`)
      }
      const again = await post(service, PATH, body)
      assert.is(again.text, a.text, `not the same bytes: ${where}`)
      const other = await post(service, OTHER, body)
      assert.is(other.text, a.text, `${OTHER} answers differently: ${where}`)
    }),
    params(30),
  )
})

test.run()
