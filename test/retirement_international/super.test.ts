// Australian superannuation contributions over HTTP, and the analyst's path to the next financial
// year: a fixture copy of the rules and tables gets a "2026-27" point in financial_years and a
// made-up concessional cap dated 2026-07-01, nothing else; a 2026-27 request then reads that cap
// and the 2025-26 figures still in force, while the project's own catalog refuses 2026-27.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('superannuation contributions')
const PATH = '/australia/superannuation/contributions'
const BODY = { financial_year: '2026-27', ordinary_time_earnings: [10000, 10000, 10000, 10000], other_concessional_contributions: 28000, income: 90000 }

/** A copy of the project's rules and tables with 2026-27 loaded and a made-up cap of $32,500 from 2026-07-01. */
function catalogWith2026_27() {
  return catalogWithEdits({
    'tables/retirement_international/super.yaml': (text) => {
      const point = '      "2025-26": {'
      assert.ok(text.includes(point), 'financial_years has its 2025-26 point')
      text = text.replace(point, '      "2026-27": { value: "2026", reference: { title: "fixture" } }\n' + point)
      const next = '  carry_forward_balance_threshold:\n'
      assert.ok(text.includes(next), 'the concessional cap is followed by the carry-forward threshold')
      text = text.replace(next, '      "2026-07-01": { value: "32_500", reference: { title: "fixture" } }\n' + next)
      return text
    },
  })
}

test('the loaded catalog refuses 2026-27 and names the loaded years', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 400, r.text)
    assert.is(r.json.error.code, 'unsupported_parameter')
    assert.match(r.text, /financial_year/)
    assert.match(r.text, /2025-26/)
  } finally {
    await service.close()
  }
})

test('the answer is in Australian dollars and notes print A$', async () => {
  const service = await startService()
  try {
    const r = await post(service, PATH, { ...BODY, financial_year: '2025-26', other_concessional_contributions: 40000 })
    assert.is(r.status, 200, r.text)
    assert.is(r.json.result.currency, 'AUD')
    // SG 4 x 1,200 = 4,800; + 40,000 = 44,800; cap 30,000: excess 14,800
    assert.is(r.json.result.concessional.excess, 14800)
    assert.match(r.text, /A\$14,800/)
  } finally {
    await service.close()
  }
})

test('a 2026-27 cap added as a dated value is used, and 2025-26 keeps its own', async () => {
  const service = await startService(catalogWith2026_27())
  try {
    const r = await post(service, PATH, BODY)
    assert.is(r.status, 200, r.text)
    const c = r.json.result.concessional
    // SG 10,000 x 12 % x 4 = 4,800; + 28,000 = 32,800; the fixture's cap 32,500: excess 300
    assert.is(c.cap, 32500)
    assert.is(c.excess, 300)
    assert.equal(r.json.result.period, { starts: '2026-07-01', ends: '2027-06-30' })
    const old = await post(service, PATH, { ...BODY, financial_year: '2025-26' })
    assert.is(old.json.result.concessional.cap, 30000)
    assert.is(old.json.result.concessional.excess, 2800)
  } finally {
    await service.close()
  }
})

test.run()
