// The Canadian retirement benefit over HTTP, and the analyst's path to the next quarter: a fixture copy
// of the rules and tables gets a 2027-Q1 point in the OAS series (a made-up $750.00) and in the four
// GIS series (made-up maxima and top-ups) and nothing else; a request for that quarter then reads them,
// while the project's own catalog refuses 2027-Q1 and lists the quarters loaded. A copy with the OAS
// point alone answers the OAS but refuses the GIS for that quarter, naming the GIS quarters loaded.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('Canadian retirement benefit')
const PATH = '/canada/retirement-benefit'
const BODY = { oas_quarter: '2027-Q1', years_in_canada_after_18: 20, age: 80 }
const TABLES = 'tables/retirement_international/canada.yaml'

/** Adds a point just before the table that follows the series in the file (its last point is 2026-Q4). */
function addPoint(text: string, nextTable: string, point: string): string {
  const next = `  ${nextTable}:\n`
  assert.ok(text.includes('"2026-Q4":') && text.includes(next), `the table is laid out as the fixture expects (${nextTable})`)
  return text.replace(next, `      "2027-Q1": { value: "${point}", reference: { title: "fixture" } }\n` + next)
}

/** A copy with a made-up 2027-Q1 OAS maximum of $750.00 only. */
function catalogWithNextOasQuarter() {
  return catalogWithEdits({ [TABLES]: (text) => addPoint(text, 'oas_increase_at_75', '750.00') })
}

/** A copy with 2027-Q1 in the OAS series and the four GIS series: single 1,120.00 (top-up 173.00), couple 675.00 (top-up 49.00). */
function catalogWithNextQuarter() {
  return catalogWithEdits({
    [TABLES]: (text) => {
      let t = addPoint(text, 'oas_increase_at_75', '750.00')
      t = addPoint(t, 'gis_top_up_single', '1120.00') // closes gis_maximum_single
      t = addPoint(t, 'gis_maximum_couple', '173.00') // closes gis_top_up_single
      t = addPoint(t, 'gis_top_up_couple', '675.00') // closes gis_maximum_couple
      t = addPoint(t, 'gis_top_up_exempt_income_single', '49.00') // closes gis_top_up_couple
      return t
    },
  })
}

test('the loaded catalog refuses 2027-Q1 and names the loaded quarters', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 400, r.text)
    assert.is(r.json.error.code, 'unsupported_parameter')
    assert.match(r.text, /oas_quarter/)
    assert.match(r.text, /2022-Q1 to 2026-Q4/)
  } finally {
    await service.close()
  }
})

test('an OAS quarter added by an analyst as a point is used, with the residence and 75+ rules unchanged', async () => {
  const service = await startService(catalogWithNextOasQuarter())
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 200, r.text)
    assert.is(r.json.result.currency, 'CAD')
    const oas = r.json.result.oas_pension
    assert.is(oas.full_pension_65_to_74, 750)
    // 750.00 × 20/40 × 1.10 = 412.50
    assert.is(oas.monthly, 412.5)
    // The first quarter still reads its own figure: 742.31 × 0.5 × 1.10 = 408.2705 -> 408.27
    const old = await post(service, PATH, { ...BODY, oas_quarter: '2026-Q1' })
    assert.is(old.json.result.oas_pension.monthly, 408.27)
    // Without the quarter's GIS points the GIS is refused, naming the GIS quarters loaded
    const gis = await post(service, PATH, { oas_quarter: '2027-Q1', gis_income: 10000 })
    assert.is(gis.status, 400, gis.text)
    assert.is(gis.json.error.code, 'unsupported_parameter')
    assert.match(gis.text, /GIS amounts/)
    assert.match(gis.text, /2022-Q1 to 2026-Q4/)
  } finally {
    await service.close()
  }
})

test('a GIS quarter added as points is used by the same income test', async () => {
  const service = await startService(catalogWithNextQuarter())
  try {
    // Single, income 10,000: (1,120.00 - 173.00) - floor(10,000 / 24) = 947.00 - 416 = 531.00;
    // top-up 173.00 - floor(8,000 / 48) = 173.00 - 166 = 7.00; GIS 538.00; limit 947 × 24 = 22,728.
    const single = await post(service, PATH, { oas_quarter: '2027-Q1', gis_income: 10000 })
    assert.is(single.status, 200, single.text)
    const g = single.json.result.gis
    assert.is(g.quarter, '2027-Q1')
    assert.is(g.maximum, 1120)
    assert.is(g.supplement, 531)
    assert.is(g.top_up, 7)
    assert.is(g.monthly, 538)
    assert.is(g.income_limit, 22728)
    // 750.00 + 538.00
    assert.is(g.oas_and_gis_monthly, 1288)
    // Spouse receiving the OAS pension, combined 20,000: (675.00 - 49.00) - floor(20,000 / 48) = 626 - 416 = 210.00; limit 626 × 48 = 30,048
    const couple = await post(service, PATH, { oas_quarter: '2027-Q1', gis_income: 20000, marital_status: 'couple', spouse_oas_status: 'oas_pension' })
    assert.is(couple.json.result.gis.monthly, 210)
    assert.is(couple.json.result.gis.income_limit, 30048)
    // Spouse receiving nothing: the pension equivalent follows the quarter's OAS, ceil(750 / 4) × 48 = 9,024; limit 9,024 + 947 × 48 = 54,480
    const none = await post(service, PATH, { oas_quarter: '2027-Q1', gis_income: 0, marital_status: 'couple', spouse_oas_status: 'none' })
    assert.is(none.json.result.gis.income_limit, 54480)
    // The loaded quarters keep their own figures (canada.ca, January to March 2026: $1,108.74)
    const old = await post(service, PATH, { oas_quarter: '2026-Q1', gis_income: 0 })
    assert.is(old.json.result.gis.monthly, 1108.74)
  } finally {
    await service.close()
  }
})

test('money in the notes prints with the Canadian dollar symbol', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, { net_world_income: 110000 })
    assert.is(r.status, 200, r.text)
    assert.ok(r.json.result.notes.some((n: unknown) => JSON.stringify(n).includes('C$2,201.55')), JSON.stringify(r.json.result.notes))
    const a = await post(service, PATH, { gis_income: 45000, marital_status: 'couple', spouse_oas_status: 'allowance' })
    assert.is(a.status, 200, a.text)
    assert.ok(a.json.result.notes.some((n: unknown) => JSON.stringify(n).includes('C$41,616')), JSON.stringify(a.json.result.notes))
  } finally {
    await service.close()
  }
})

// canada.ca's four "income less than" figures for each quarter from January 2022 to March 2024, as
// ESDC's estimator scraped them (legalValues.json / legalValuesJson.json of DTS-STN/eligibility-
// estimator, the commits named in the table file): single, spouse receiving the OAS pension, spouse
// receiving neither, spouse receiving the Allowance (where the Allowance stops). Each limit follows
// from the quarter's maxima and top-ups, so a transcription error in any of them shows here.
const PUBLISHED_LIMITS: Record<string, [number, number, number, number]> = {
  '2022-Q1': [19464, 25728, 46656, 36048],
  '2022-Q2': [19656, 25968, 47136, 36384],
  '2022-Q3': [20208, 26688, 48432, 37392],
  '2022-Q4': [20784, 27456, 49824, 38448],
  '2023-Q1': [20832, 27552, 49920, 38592],
  '2023-Q2': [20952, 27648, 50208, 38736],
  '2023-Q3': [21168, 27984, 50736, 39168],
  '2023-Q4': [21456, 28320, 51408, 39648],
  '2024-Q1': [21624, 28560, 51840, 39984],
}

test('every quarter from 2022-Q1 to 2024-Q1 reproduces canada.ca\'s four published income limits', async () => {
  const service = await startService()
  try {
    for (const [quarter, limits] of Object.entries(PUBLISHED_LIMITS)) {
      const statuses = ['single', 'oas_pension', 'none', 'allowance'] as const
      for (const [i, status] of statuses.entries()) {
        const couple = status === 'single' ? {} : { marital_status: 'couple', spouse_oas_status: status }
        const r = await post(service, PATH, { contribution_year: 2022, oas_quarter: quarter, gis_income: 0, ...couple })
        assert.is(r.status, 200, r.text)
        assert.is(r.json.result.gis.income_limit, limits[i], `${quarter} ${status}`)
      }
    }
  } finally {
    await service.close()
  }
})

test.run()
