// POST /child-support/calculate over HTTP, and the analyst's path to the next period: a fixture copy
// of the tables gets a made-up New York cap from 2028-03-01 as a dated value, nothing else; an order
// dated after it reads it, an earlier order keeps the cap in force on its date.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('child support')
const PATH = '/child-support/calculate'
// Combined 200,000 + 50,000 = 250,000, one child (17 %), share 0.8.
const NY = { state: 'NY', children: 1, paying_parent_income: 200000, other_parent_income: 50000, income_period: 'annual' }

/** A copy of the project's rules and tables with a made-up New York cap of $200,000 from 2028-03-01. */
function catalogWith2028Cap() {
  return catalogWithEdits({
    'tables/compliance/child_support.yaml': (text) => {
      const at = text.indexOf('  ny_combined_income_cap:\n')
      const last = text.indexOf('      "2026-03-01":', at)
      assert.ok(at >= 0 && last > at, 'the cap has a 2026-03-01 value')
      // The new value goes at the end of the file, after the 2026 value's lines: no table follows the cap.
      assert.not.match(text.slice(at + 3), /^  [a-z]/m, 'the cap is the last table of the file')
      return text.trimEnd() + '\n      "2028-03-01": { value: "200_000", reference: { title: "fixture" } }\n'
    },
  })
}

test('the example of the README answers, and a state not loaded answers 200 with loaded false and no amount', async () => {
  const service = await startService()
  try {
    const tx = await post(service, PATH, { state: 'TX', order_date: '2026-01-15', children: 2, paying_parent_income: 6000 })
    assert.is(tx.status, 200, tx.text)
    assert.is(tx.json.result.guideline.monthly_amount, 1500)
    const mt = await post(service, PATH, { state: 'mt', order_date: '2026-01-15', children: 2, paying_parent_income: 6000 })
    assert.is(mt.status, 200, mt.text)
    assert.is(mt.json.result.loaded, false)
    assert.is(mt.json.result.guideline_model, 'melson')
    assert.is(mt.json.result.guideline, undefined)
    assert.not.match(mt.text, /monthly_amount/)
    const zz = await post(service, PATH, { state: 'ZZ', order_date: '2026-01-15', children: 2, paying_parent_income: 6000 })
    assert.is(zz.status, 400, zz.text)
    assert.match(zz.text, /state/)
    // The 51 codes are counted and a few named; the whole list is in the schema (/openapi.json).
    assert.match(zz.text, /one of the 51 values/)
  } finally {
    await service.close()
  }
})

test('a 2028 New York cap added by an analyst as a dated value is used from its date', async () => {
  const service = await startService(catalogWith2028Cap())
  try {
    const r = await post(service, PATH, { ...NY, order_date: '2028-06-01' })
    assert.is(r.status, 200, r.text)
    assert.is(r.json.result.guideline.income_cap, 200000)
    // 200,000 × 0.17 = 34,000; × 0.8 = 27,200 a year.
    assert.is(r.json.result.guideline.annual_amount, 27200)
    const before = await post(service, PATH, { ...NY, order_date: '2028-02-28' })
    // 193,000 × 0.17 × 0.8 = 26,248.
    assert.is(before.json.result.guideline.annual_amount, 26248)
  } finally {
    await service.close()
  }
})

/** A copy with a made-up New York poverty guideline of $16,500 from 2027-03-01, added as a dated value. */
function catalogWith2027PovertyGuideline() {
  return catalogWithEdits({
    'tables/compliance/child_support.yaml': (text) => {
      const at = text.indexOf('  ny_poverty_income_guideline:\n')
      const next = text.indexOf('  ny_self_support_reserve_rate:\n', at)
      assert.ok(at >= 0 && next > at, 'the poverty guideline is followed by the reserve rate')
      return text.slice(0, next) + '      "2027-03-01": { value: "16_500", reference: { title: "fixture" } }\n' + text.slice(next)
    },
  })
}

test('a not-loaded state names its official calculator where one was found, and null with a note where none was', async () => {
  const service = await startService()
  try {
    const de = await post(service, PATH, { state: 'DE', order_date: '2026-01-15', children: 1, paying_parent_income: 4000 })
    assert.is(de.status, 200, de.text)
    assert.is(de.json.result.official_calculator_url, 'https://courts.delaware.gov/family/supportcalculator/Disclaimer')
    assert.is(de.json.result.not_loaded.guidelines_url, de.json.result.official_calculator_url)
    const ky = await post(service, PATH, { state: 'KY', order_date: '2026-01-15', children: 1, paying_parent_income: 4000 })
    assert.is(ky.json.result.official_calculator_url, null)
    assert.ok(ky.json.result.notes.some((n: string) => n.includes('No official calculator of KY was found')), ky.text)
  } finally {
    await service.close()
  }
})

test('a 2027 poverty guideline added as a dated value moves the New York self-support reserve from its date', async () => {
  const service = await startService(catalogWith2027PovertyGuideline())
  try {
    const body = { state: 'NY', children: 1, paying_parent_income: 24000, other_parent_income: 0, income_period: 'annual' }
    const r = await post(service, PATH, { ...body, order_date: '2027-06-01' })
    assert.is(r.status, 200, r.text)
    // 16,500 × 1.35 = 22,275; 24,000 − 4,080 = 19,920 is under it: 24,000 − 22,275 = 1,725 a year.
    assert.is(r.json.result.guideline.low_income.self_support_reserve, 22275)
    assert.is(r.json.result.guideline.annual_amount, 1725)
    const before = await post(service, PATH, { ...body, order_date: '2027-02-28' })
    // 2026's 15,960: reserve 21,546; 24,000 − 21,546 = 2,454.
    assert.is(before.json.result.guideline.annual_amount, 2454)
  } finally {
    await service.close()
  }
})

test.run()
