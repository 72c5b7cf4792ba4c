// The Canadian retirement benefit over HTTP, and the analyst's path to the next OAS quarter: a
// fixture copy of the rules and tables gets a 2026-Q2 point in the OAS series (a made-up $750.00)
// and nothing else; a request for that quarter then reads it, while the project's own catalog
// refuses 2026-Q2 and lists the quarters loaded.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('Canadian retirement benefit')
const PATH = '/canada/retirement-benefit'
const BODY = { oas_quarter: '2026-Q2', years_in_canada_after_18: 20, age: 80 }

/** A copy of the project's rules and tables with a made-up 2026-Q2 OAS maximum of $750.00 added as a point. */
function catalogWithNextQuarter() {
  return catalogWithEdits({
    'tables/retirement_international/canada.yaml': (text) => {
      // The new point goes just before the next table, after the 2026-Q1 point of the series.
      const next = '  oas_increase_at_75:\n'
      assert.ok(text.includes('"2026-Q1":') && text.includes(next), 'the table is laid out as the fixture expects')
      return text.replace(next, '      "2026-Q2": { value: "750.00", reference: { title: "fixture" } }\n' + next)
    },
  })
}

test('the loaded catalog refuses 2026-Q2 and names the loaded quarters', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 400, r.text)
    assert.is(r.json.error.code, 'unsupported_parameter')
    assert.match(r.text, /oas_quarter/)
    assert.match(r.text, /2026-Q1/)
  } finally {
    await service.close()
  }
})

test('a quarter added by an analyst as a point is used, with the residence and 75+ rules unchanged', async () => {
  const service = await startService(catalogWithNextQuarter())
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
  } finally {
    await service.close()
  }
})

test.run()
