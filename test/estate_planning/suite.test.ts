// The estate planning suite over HTTP: each feature answers identically on both of its paths, the
// QTIP search finds the interior optimum a bisection misses, and the inherited IRA schedule follows
// the Single Life Table and the reduce-by-one method year by year.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { Decimal } from 'decimal.js'
import { TABLES_DIR } from '../../service/project/paths.js'
import { post, startService, type Service } from '../helpers.js'

const test = suite('estate planning suite')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const FEATURES: [string, string, unknown, string][] = [
  ['/inherited-ira/schedule', '/estate/calculate-inherited-ira', { owner_date_of_birth: '1950-03-01', owner_date_of_death: '2024-05-10', beneficiary_type: 'individual', beneficiary_date_of_birth: '1980-06-01', balance: 500000 }, 'inherited_ira_rmd'],
  ['/estate/optimize-qtip-election', '/estate-planning/qtip-election', { state_of_domicile: 'NY', gross_estate: 10000000, surviving_spouse_estate: 2000000 }, 'optimize_qtip_election'],
  ['/estate/optimize-annual-gifts', '/gift-tax/optimize-annual-gifts', { donees: [{ name: 'Ann', relationship: 'child', outright_gifts: 25000 }] }, 'optimize_annual_gifts'],
  ['/estate/calculate-grat', '/estate-planning/grat', { valuation_date: '2026-04-15', initial_value: 1000000, term_years: 2 }, 'calculate_grat'],
]

for (const [first, second, body] of FEATURES) {
  test(`${first} and ${second} answer with the same bytes, citations and notes`, async () => {
    const a = await post(service, first, body)
    const b = await post(service, second, body)
    assert.is(a.status, 200, a.text)
    assert.is(a.text, b.text)
    assert.ok((a.json.citations as string[]).length > 0)
    assert.ok((a.json.result.notes as string[]).length > 0)
    assert.is(a.json.formula_version, '2026.1')
    assert.is(a.json.tier, 'beta')
  })
}

const BAD: [string, unknown, string][] = [
  ['/inherited-ira/schedule', { owner_date_of_birth: '1950-03-01', owner_date_of_death: '2024-05-10', beneficiary_type: 'individual', balance: 1 }, 'beneficiary_date_of_birth'],
  ['/inherited-ira/schedule', { owner_date_of_birth: '1950-03-01', owner_date_of_death: '2024-05-10', beneficiary_type: 'cousin', balance: 1 }, 'beneficiary_type'],
  ['/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 100, bequests_to_others: 200 }, 'gross_estate'],
  ['/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 100, grid_step: 0 }, 'grid_step'],
  ['/estate/optimize-annual-gifts', { donees: [{ name: 'A', relationship: 'child', trust_contribution: 10, withdrawal_power: 20 }] }, 'donees[0].withdrawal_power'],
  ['/estate/optimize-annual-gifts', { donees: [{ name: 'A', relationship: 'child', outright_gifts: -1 }] }, 'donees[0].outright_gifts'],
  ['/estate/calculate-grat', { valuation_date: '2026-04-15', initial_value: 1, term_years: 2, annuity_increase_rate: 0.25 }, 'annuity_increase_rate'],
  ['/estate/calculate-grat', { valuation_date: '2026-12-15', initial_value: 1, term_years: 2 }, 'valuation_date'],
]
for (const [path, body, field] of BAD) {
  test(`${path} with a bad ${field} is a 400 naming it`, async () => {
    const r = await post(service, path, body)
    assert.is(r.status, 400, r.text)
    assert.ok((r.json.error.details as { field: string }[]).some((d) => d.field === field), r.text)
  })
}

test('every field of every suite request, sent with a wrong type, is a 400 naming that field', async () => {
  for (const [path, , body, operation] of FEATURES) {
    const schema = (await (await fetch(`${service.url}/schemas/${operation}.json`)).json()) as { properties: Record<string, { type?: string }> }
    for (const [field, spec] of Object.entries(schema.properties)) {
      const wrong = spec.type === 'object' || spec.type === 'array' ? 'not-a-list' : { not: 'a value' }
      const r = await post(service, path, { ...(body as object), [field]: wrong })
      assert.is(r.status, 400, `${path} ${field}`)
      assert.ok((r.json.error.details as { field: string }[]).some((d) => d.field === field), `${path} ${field}: ${r.text}`)
    }
  }
})

test('each request schema is published at /schemas/<operation id>, with no key', async () => {
  for (const operation of ['inherited_ira_rmd', 'optimize_qtip_election', 'optimize_annual_gifts', 'calculate_grat']) {
    const res = await fetch(`${service.url}/schemas/${operation}.json`)
    assert.is(res.status, 200, operation)
    const schema = (await res.json()) as { additionalProperties: boolean; properties: Record<string, { description?: string }> }
    assert.is(schema.additionalProperties, false)
    for (const [field, spec] of Object.entries(schema.properties)) assert.ok(spec.description, `${operation}.${field} has a description`)
  }
  assert.is((await fetch(`${service.url}/schemas/nope`)).status, 404)
})

test('QTIP: elected amounts never exceed the property by a fraction of a cent (found by the property tests)', async () => {
  for (const body of [
    { state_of_domicile: 'AK', gross_estate: 382.285 },
    { state_of_domicile: 'MA', gross_estate: 29999940.23, state_qtip_election: 'separate' },
  ]) {
    const res = await post(service, '/estate/optimize-qtip-election', body)
    assert.is(res.status, 200, `${JSON.stringify(body)}: ${res.text.slice(0, 300)}`)
    for (const point of res.json.result.curve) assert.ok(point.qtip_elected + (point.state_only_elected ?? 0) <= res.json.result.qtip_property)
  }
})

test('QTIP with a cliff state: the best fraction is interior, and a bisection on the slope misses it', async () => {
  // New York, $30M first estate, nothing of the survivor's own, no growth. Electing 75.5% leaves the
  // first estate exactly at New York's $7,350,000 exclusion; the survivor's $22,650,000 pays New York
  // tax of $1,082,800 + 16% × $12,550,000 = $3,090,800, and the DSUE covers the federal tax.
  const r = await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 30000000 })
  assert.is(r.status, 200, r.text)
  const result = r.json.result
  assert.is(result.best.fraction, 0.755)
  assert.is(result.best.total_tax, 3090800)
  assert.ok(result.interior_optimum)
  assert.ok(result.best.total_tax < result.at_zero_election.total_tax)
  assert.ok(result.best.total_tax < result.at_full_election.total_tax)
  assert.ok((result.local_minima as unknown[]).length >= 3, JSON.stringify(result.local_minima))
  // A bisection on the sign of the slope over the 1% grid: at 50% the curve is flat (a plateau of a
  // poorer local minimum), so it turns left and settles there.
  const curve = result.curve as { fraction: number; total_tax: number }[]
  const at = (x: number) => curve.find((p) => Math.abs(p.fraction - x) < 1e-9)!.total_tax
  let lo = 0
  let hi = 100
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    if (at((mid + 1) / 100) < at(mid / 100)) lo = mid
    else hi = mid
  }
  const bisected = Math.min(at(lo / 100), at(hi / 100))
  assert.ok(bisected > result.best.total_tax, `bisection settled at ${lo / 100}..${hi / 100} with ${bisected}`)
})

test('QTIP with two equal global minima lists both intervals and applies the tie-break', async () => {
  // $20M in New York: 36.75% leaves the survivor at the exclusion, 63.25% the first estate; either way
  // one estate of $12,650,000 pays $1,082,800 + 16% × $2,550,000 = $1,490,800.
  const r = await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 20000000 })
  const result = r.json.result
  assert.equal(result.optimal_intervals, [
    { from: 0.3675, to: 0.3675 },
    { from: 0.6325, to: 0.6325 },
  ])
  assert.is(result.best.fraction, 0.3675)
  assert.is(result.best.total_tax, 1490800)
})

test('QTIP with a separate state-only election: never worse than one election, and refused where the state does not allow it', async () => {
  const body = { state_of_domicile: 'MA', gross_estate: 20000000, surviving_spouse_estate: 1000000, growth_rate: 0.05, years_until_second_death: 10 }
  const same = await post(service, '/estate/optimize-qtip-election', body)
  const separate = await post(service, '/estate/optimize-qtip-election', { ...body, state_qtip_election: 'separate' })
  assert.is(separate.status, 200, separate.text)
  assert.ok(separate.json.result.best.total_tax <= same.json.result.best.total_tax)
  assert.ok('federal_fraction' in separate.json.result.best)
  const ny = await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 1, state_qtip_election: 'separate' })
  assert.is(ny.status, 400)
  assert.is(ny.json.error.code, 'unsupported_parameter')
  assert.match(ny.json.error.message, /MA, MD, MN, OR, RI, WA/)
})

test('QTIP where only federal tax matters: the total is flat over an interval, and the tie-break is stated', async () => {
  const r = await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'FL', gross_estate: 20000000, surviving_spouse_estate: 10000000 })
  const result = r.json.result
  assert.is(result.best.fraction, 0.25)
  assert.is(result.optimal_intervals[0].to, 1)
  assert.is(result.at_zero_election.total_tax, 2000000)
  assert.is(result.tie_break, 'lowest fraction in the optimal set')
})

test('inherited IRA: each year divides the prior balance by the Single Life factor, less one a year', async () => {
  // Owner born 1950 died 2024 (after the required beginning date); beneficiary born 1980 is 45 in 2025.
  const table = parse(readFileSync(join(TABLES_DIR, 'retirement', 'life_expectancy.yaml'), 'utf8')) as {
    tables: { single_life_table: { values: Record<string, { rows: { age: string; divisor: string }[] }> } }
  }
  const rows = table.tables.single_life_table.values['2022-01-01']!.rows
  const factor = (age: number) => new Decimal(rows.find((row) => row.age === String(age))!.divisor)
  const r = await post(service, '/inherited-ira/schedule', {
    owner_date_of_birth: '1950-03-01',
    owner_date_of_death: '2024-05-10',
    beneficiary_type: 'individual',
    beneficiary_date_of_birth: '1980-06-01',
    balance: 500000,
    growth_rate: 0.06,
  })
  const schedule = r.json.result.schedule as { year: number; divisor: number; minimum_distribution: number; projected_year_end_balance: number }[]
  assert.is(r.json.result.regime, 'ten_year_with_annual_amounts')
  let balance = new Decimal(500000)
  for (const [i, row] of schedule.entries()) {
    const year = 2025 + i
    assert.is(row.year, year)
    const grown = balance.times('1.06')
    if (year < 2034) {
      const divisor = factor(45).minus(i)
      assert.is(row.divisor, divisor.toNumber(), `divisor ${year}`)
      const minimum = balance.div(divisor).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
      assert.is(row.minimum_distribution, minimum.toNumber(), `minimum ${year}`)
      balance = grown.minus(minimum).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
    } else {
      assert.is(row.minimum_distribution, grown.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber(), 'the 10th year empties the account')
      balance = new Decimal(0)
    }
    assert.is(row.projected_year_end_balance, balance.toNumber(), `balance ${year}`)
  }
  assert.is(schedule.length, 10)
})

test.run()
