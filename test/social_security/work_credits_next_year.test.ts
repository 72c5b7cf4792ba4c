// Adding the next year is dated values only (docs/decisions/retirement_international.md, "Disability benefit and work credits"): an analyst adds 2027's
// quarter-of-coverage amount and SGA amounts to tables/social_security/disability.yaml, in a fixture copy here, and the
// endpoints use them with no other change. The 2027 figures below are placeholders for the test, not SSA's.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../service/index.js'
import { catalog, catalogWithEdits } from '../helpers.js'

const test = suite('social_security.work_credits: adding 2027')
const input = { date_of_birth: '1985-07-20', onset_date: '2027-03-15', earnings: [{ year: 2026, amount: 9000 }, { year: 2027, amount: 7990 }] }

test('before the edit, 2027 earnings are refused as unsupported, naming the last loaded year', async () => {
  try {
    await evaluate(catalog(), 'social_security.work_credits', input)
    assert.unreachable('2027 has no quarter-of-coverage amount yet')
  } catch (e) {
    assert.match(String((e as Error).message), /1978 to 2026/)
  }
})

test('after adding the 2027 point, its amount credits the year: 7,990 / 1,990 → 4, one by the onset quarter 2027-Q1', async () => {
  const edited = catalogWithEdits({
    'tables/social_security/disability.yaml': (t) => t.replace('      "2026": "1890"\n', '      "2026": "1890"\n      "2027": "1990"\n'),
  })
  const r = (await evaluate(edited, 'social_security.work_credits', input)).result as { years: { year: number; amount_per_credit: number; credits: number; credits_by_onset: number }[]; total_credits: number }
  const y2027 = r.years.find((y) => y.year === 2027)!
  assert.is(y2027.amount_per_credit, 1990)
  assert.is(y2027.credits, 4)
  assert.is(y2027.credits_by_onset, 1)
  // 2026: 9,000 / 1,890 → 4; total 4 + 1.
  assert.is(r.total_credits, 5)
})

test.run()
