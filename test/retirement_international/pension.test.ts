// The pension lump-sum comparison over HTTP, and the analyst's path to the next period: a fixture
// copy of the rules and tables gets a 2026-05 point in each segment-rate series, a 2027 age-65
// maximum and 2027 in the manifest's supported years, nothing else; requests then read those
// figures, while the project's own catalog still refuses them and lists what is loaded.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Catalog } from '../../service/index.js'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('pension lump sum against annuity')
const PATH = '/pension/lump-sum-comparison'
const BODY = { termination_year: 2027, age_at_benefit_start: 62, monthly_annuity: 3000, lump_sum: 450000 }

// Each edited copy is loaded once and shared by the tests that read it (a catalog is never changed
// by answering): a load of the whole project is seconds of CPU.
let with2027: Catalog | undefined
let with2024Illustration: Catalog | undefined

/** A copy of the project's rules and tables with a made-up 2027 age-65 maximum of $8,000.00 added as a dated value. */
function catalogWith2027(): Catalog {
  return (with2027 ??= catalogWithEdits({
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
    'endpoints/pension_lump_sum.yaml': (m) => {
      assert.ok(m.includes('supported: [2023, 2024, 2025, 2026]'))
      return m.replace('supported: [2023, 2024, 2025, 2026]', 'supported: [2023, 2024, 2025, 2026, 2027]')
    },
  }))
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

// PBGC's published present value of its maximum guarantee (29 U.S.C. § 1056(g)(3)(C); IRC § 436(d)(3);
// PBGC Technical Update 07-4) is a § 417(e)(3) computation by a federal agency: for annuity starting
// dates in 2024, "developed using the 417(e) segment rates for August 2023 (5.45%, 5.52% and 5.43%)
// and the 417(e) applicable mortality table for 2024" (pbgc.gov, Present Value of PBGC Maximum
// Guarantee, 2024 table): $1,024,251 at 65 and $285,756 at 40, the value of PBGC's 2024 maximum
// ($7,107.95 a month at 65, Principal, "PBGC 2024 levels"; at 40, 0.20 of it by 29 CFR 4022.23(c),
// $1,421.59) as a straight life annuity. A fixture copy of the tables gets that month's rates and
// the 2024 table (IRS Notice 2023-73, unisex column, ages 40-120, as transcribed in a public
// repository whose test blends the notice's male and female columns into every row), dated so that
// both rule sets read it, and an age-40 PBGC factor so that the age is not refused. The service's
// own conventions (monthly payments from the first day, linear survival within each year of age)
// give 1,023,737.17 and 285,672.01 by hand (python3 decimal): 0.050% and 0.029% under PBGC's
// figures. Half a basis point in the published two-decimal rates moves them by 0.04% to 0.07% and a
// discount interpolated linearly within each year adds up to 0.02%, so the gap is within what
// unrounded rates and such a convention explain; TU 07-4's text was not readable and no single
// convention tried (constant force, Balducci, payments in arrears, linear discount) reproduces PBGC
// to the dollar. The test pins the service's figures and bounds the gap.
const NOTICE_2023_73_UNISEX_40_TO_120 = [
  '0.00056', '0.00057', '0.00059', '0.00061', '0.00063', '0.00066', '0.0007', '0.00074', '0.00079', '0.00084',
  '0.00092', '0.00102', '0.00114', '0.00127', '0.00144', '0.00172', '0.00212', '0.00246', '0.00285', '0.00328',
  '0.00379', '0.00433', '0.00512', '0.00591', '0.00656', '0.0074', '0.00832', '0.0092', '0.01017', '0.01126',
  '0.01251', '0.01396', '0.01559', '0.01745', '0.01959', '0.02204', '0.02485', '0.02805', '0.03169', '0.03583',
  '0.04079', '0.04583', '0.0515', '0.05787', '0.06508', '0.07327', '0.08259', '0.0931', '0.10497', '0.11814',
  '0.13262', '0.14773', '0.16329', '0.17927', '0.19542', '0.2117', '0.22904', '0.24682', '0.26513', '0.28401',
  '0.30325', '0.32271', '0.34211', '0.3614', '0.38043', '0.39884', '0.41675', '0.434', '0.45044', '0.46615',
  '0.47865', '0.48673', '0.49436', '0.49788', '0.49885', '0.49978', '0.4999', '0.49998', '0.5', '0.5',
  '1',
]

function catalogWith2024Illustration(): Catalog {
  return (with2024Illustration ??= catalogWithEdits({
    'tables/retirement_international/pension.yaml': (text) => {
      let edited = text
      for (const [series, rate] of [['first_segment_rate', '0.0545'], ['second_segment_rate', '0.0552'], ['third_segment_rate', '0.0543']]) {
        const at = edited.indexOf(`  ${series}:\n`)
        const august = edited.indexOf('      "2025-08":', at)
        assert.ok(at >= 0 && august > at, `${series} has an August 2025 point`)
        edited = edited.slice(0, august) + `      "2023-08": { value: "${rate}", reference: { title: "fixture: PBGC 2024 table" } }\n` + edited.slice(august)
      }
      const mortality = edited.indexOf('  applicable_mortality:\n')
      const dated = edited.indexOf('      "2023-01-01":', mortality)
      const last = edited.indexOf('          - { year: "2026", age: "120", qx: "1" }\n', mortality)
      assert.ok(mortality >= 0 && dated > mortality && last > dated, 'the mortality table is laid out as the fixture expects')
      const rows = NOTICE_2023_73_UNISEX_40_TO_120.map((qx, i) => `          - { year: "2024", age: "${40 + i}", qx: "${qx}" }\n`).join('')
      const end = last + '          - { year: "2026", age: "120", qx: "1" }\n'.length
      edited = edited.slice(0, end) + rows + edited.slice(end)
      // The rows are in force from 2023 (the first termination year loaded), so the expected payments,
      // dated by the mortality year, read the 2024 rows added here as they are.
      // 29 CFR 4022.23(c) below 45: 1/12 of 1% a month for the 120 months before 45 (0.25 at 45, 0.20 at
      // 40); 45 to 54 are in the tables.
      // (every dated row set of the table gets it: the request's termination year reads the latest).
      const age45 = '          - { age: "45", factor: "0.25" }\n'
      assert.ok(edited.includes(age45))
      return edited.split(age45).join('          - { age: "40", factor: "0.2" }\n' + age45)
    },
  }))
}

test("PBGC's 2024 present value of its maximum guarantee, a § 417(e) computation, is met within 0.06%", async () => {
  const service = await startService(catalogWith2024Illustration())
  try {
    const body = { annuity_start_year: 2024, lookback_month: '2023-08', lump_sum: 0 }
    for (const [age, monthly, byHand, pbgc] of [[65, 7107.95, 1023737.17, 1024251], [40, 1421.59, 285672.01, 285756]]) {
      const r = await post(service, PATH, { ...body, age_at_benefit_start: age, monthly_annuity: monthly })
      assert.is(r.status, 200, r.text)
      const m = r.json.result.minimum_lump_sum
      assert.equal(m.segment_rates, [0.0545, 0.0552, 0.0543])
      assert.is(m.annuity_start_year, 2024)
      assert.is(m.amount, byHand)
      assert.ok(m.amount < pbgc && m.amount > pbgc * (1 - 0.0006), `${m.amount} within 0.06% under PBGC's ${pbgc}`)
    }
  } finally {
    await service.close()
  }
})

// PBGC's 2024 rows at 45, 50 and 52 are the same computation (an immediate straight life annuity of
// the age-65 maximum times the 29 CFR 4022.23(c) factor, 0.25, 0.35, 0.39): the service stays 0.03%
// to 0.035% under each, as at 40, while an annual annuity-due less 11/24 (segment rate by policy
// year) would be 0.009% over. From 53 PBGC's rows exceed any immediate annuity at the age (not checked).
test("PBGC's 2024 rows at 45, 50 and 52 are met 0.03% to 0.035% under, like the row at 40", async () => {
  const service = await startService(catalogWith2024Illustration())
  try {
    const body = { annuity_start_year: 2024, lookback_month: '2023-08', lump_sum: 0 }
    for (const [age, factor, pbgc] of [[45, 0.25, 344663], [50, 0.35, 460031], [52, 0.39, 500790]]) {
      const monthly = Math.round(7107.95 * factor * 100) / 100
      const r = await post(service, PATH, { ...body, age_at_benefit_start: age, monthly_annuity: monthly })
      assert.is(r.status, 200, r.text)
      const gap = r.json.result.minimum_lump_sum.amount / pbgc - 1
      assert.ok(gap < -0.0002 && gap > -0.0004, `age ${age}: ${r.json.result.minimum_lump_sum.amount} against PBGC's ${pbgc} (${gap})`)
    }
  } finally {
    await service.close()
  }
})

test.run()
