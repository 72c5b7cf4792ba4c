// The pension lump-sum comparison over HTTP, and the analyst's path to the next period: a fixture
// copy of the rules and tables gets a 2026-05 point in each segment-rate series, a 2027 age-65
// maximum and 2027 in the manifest's supported years, nothing else; requests then read those
// figures, while the project's own catalog still refuses them and lists what is loaded.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('pension lump sum against annuity')
const PATH = '/pension/lump-sum-comparison'
const BODY = { termination_year: 2027, age_at_benefit_start: 62, monthly_annuity: 3000, lump_sum: 450000 }

/** A copy of the project's rules and tables with a made-up 2027 age-65 maximum of $8,000.00 added as a dated value. */
function catalogWith2027() {
  return catalogWithEdits({
    'tables/retirement_international/pension.yaml': (text) => {
      // The 2027 value goes after the 2026 one, at the end of the parameter's `values:`.
      const next = '  pbgc_age_factors:\n'
      assert.ok(text.includes('"2026-01-01":') && text.includes(next), 'the table is laid out as the fixture expects')
      let edited = text.replace(next, '      "2027-01-01": { value: "8000.00" }\n' + next)
      // A made-up May 2026 row, 5% in every segment, after April's point of each series.
      for (const series of ['first_segment_rate', 'second_segment_rate', 'third_segment_rate']) {
        const at = edited.indexOf(`  ${series}:\n`)
        const april = edited.indexOf('      "2026-04":', at)
        const lineEnd = edited.indexOf('\n', april) + 1
        assert.ok(at >= 0 && april > at, `${series} has an April 2026 point`)
        edited = edited.slice(0, lineEnd) + '      "2026-05": { value: "0.05", reference: { title: "fixture" } }\n' + edited.slice(lineEnd)
      }
      return edited
    },
    'rules/endpoints/pension_lump_sum.yaml': (m) => {
      assert.ok(m.includes('supported: [2025, 2026]'))
      return m.replace('supported: [2025, 2026]', 'supported: [2025, 2026, 2027]')
    },
  })
}

test('the loaded catalog refuses 2027 and names the loaded years', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 400, r.text)
    assert.is(r.json.error.code, 'unsupported_parameter')
    assert.match(r.text, /termination_year/)
    assert.match(r.text, /2025/)
    assert.match(r.text, /2026/)
  } finally {
    await service.close()
  }
})

test('a 2027 dated value added by an analyst is used with the unchanged age factor', async () => {
  const service = await startService(catalogWith2027())
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 200, r.text)
    const g = r.json.result.pbgc_maximum_guarantee
    assert.is(g.age_65_single_life, 8000)
    // 8,000.00 × 0.79 = 6,320.00 (29 CFR 4022.23(c) at 62)
    assert.is(g.monthly_maximum, 6320)
    const old = await post(service, PATH, { ...BODY, termination_year: 2026 })
    assert.is(old.json.result.pbgc_maximum_guarantee.monthly_maximum, 6153.92)
  } finally {
    await service.close()
  }
})

const MAY = { age_at_benefit_start: 65, monthly_annuity: 1000, lump_sum: 150000, lookback_month: '2026-05' }

test('the loaded catalog refuses a lookback month not loaded and names the months it has', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, MAY)
    assert.is(r.status, 400, r.text)
    assert.is(r.json.error.code, 'unsupported_parameter')
    assert.match(r.text, /2025-08 to 2026-04/)
  } finally {
    await service.close()
  }
})

test('a next-month segment-rate row added by an analyst is used', async () => {
  const service = await startService(catalogWith2027())
  try {
    const r = await post(service, PATH, { ...MAY, discount_rate: 0.05 })
    assert.is(r.status, 200, r.text)
    const m = r.json.result.minimum_lump_sum
    assert.equal(m.segment_rates, [0.05, 0.05, 0.05])
    // 5% in every segment: the minimum is the expected value at a flat 5%, 150,815.13 by hand
    // (python3 decimal, test/golden/retirement_international/pension.yaml, first § 417(e) case).
    assert.is(m.amount, 150815.13)
    assert.is(r.json.result.expected_pv_at_discount_rate, 150815.13)
    const refused = await post(service, PATH, { ...MAY, lookback_month: '2026-06' })
    assert.match(refused.text, /2025-08 to 2026-05/)
  } finally {
    await service.close()
  }
})

test.run()
