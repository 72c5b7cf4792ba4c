// The filing-strategy optimizer against Open Social Security (MikePiper/open-social-security,
// src/app/maximize-pv.service.spec.ts): the claiming month each of its tests expects, on the same
// people, PIAs, discount rates and "today". Differences of model, each explained in docs/decisions/premium_tax.md: OSS
// weighs months by other life tables in some tests (SSA 2015, Society of Actuaries NS1/NS2), this
// service by SSA's 2022 period table; the optimum month agrees in every case below.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../service/index.js'
import { catalog } from '../helpers.js'

const test = suite('social_security.filing_strategy against Open Social Security')
const rules = catalog()
type Best = { person_claim_age_months: number; spouse_claim_age_months: number | null; person_first_year: { month: string }[]; spouse_first_year: { month: string }[] }
const best = async (input: Record<string, unknown>) => ((await evaluate(rules, 'social_security.filing_strategy', input)).result as { best: Best }).best

// OSS writes months 0-based (new MonthYearDate(2022, 4) is May 2022); here they are written 1-based.
test('single, born 1960-04-15, PIA 1,000, 9% discount: file as soon as possible, May 2022 (OSS: "file ASAP with very high discount rate")', async () => {
  const b = await best({ calculation_date: '2018-11-15', discount_rate: 0.09, person: { date_of_birth: '1960-04-15', pia: 1000, sex: 'male' } })
  assert.is(b.person_first_year[0]!.month, '2022-05')
  assert.is(b.person_claim_age_months, 745)   // 62 and 1 month: not 62 throughout April
})

test('couple, the higher-PIA spouse (1,900, born 1964-10-11) waits to 70, October 2034, at 1% (OSS: "high-PIA spouse to wait until 70")', async () => {
  const b = await best({ calculation_date: '2018-12-15', discount_rate: 0.01, person: { date_of_birth: '1964-09-15', pia: 1200, sex: 'male' }, spouse: { date_of_birth: '1964-10-11', pia: 1900, sex: 'female' } })
  assert.is(b.spouse_claim_age_months, 840)
  assert.is(b.spouse_first_year[0]!.month, '2034-10')
})

test('the person with the slightly lower PIA (1,000, born 1955-10-15) waits to 70, October 2025, when the other filed at 62, at 0% (OSS)', async () => {
  const b = await best({ calculation_date: '2018-12-15', discount_rate: 0, person: { date_of_birth: '1955-10-15', pia: 1000, sex: 'female' }, spouse: { date_of_birth: '1954-10-11', pia: 1150, sex: 'female', claimed_age_months: 745 } })
  assert.is(b.person_claim_age_months, 840)
  assert.is(b.person_first_year[0]!.month, '2025-10')
})

test('the lower-PIA person (1,100, born 1960-10-15) files as soon as possible, November 2022, though the other filed at 62, at 1% (OSS)', async () => {
  const b = await best({ calculation_date: '2018-12-15', discount_rate: 0.01, person: { date_of_birth: '1960-10-15', pia: 1100, sex: 'male' }, spouse: { date_of_birth: '1954-10-11', pia: 2000, sex: 'male', claimed_age_months: 745 } })
  assert.is(b.person_claim_age_months, 745)
  assert.is(b.person_first_year[0]!.month, '2022-11')
})

test('PIA 700 beside a spouse of 1,900 filing at exactly 68: file as soon as possible, November 2026, at 1% (OSS)', async () => {
  const b = await best({ calculation_date: '2018-11-15', discount_rate: 0.01, person: { date_of_birth: '1964-10-15', pia: 700, sex: 'male' }, spouse: { date_of_birth: '1960-10-11', pia: 1900, sex: 'female', claimed_age_months: 816 } })
  assert.is(b.person_first_year[0]!.month, '2026-11')
})

test('PIA 400 beside a spouse of 2,000 who filed at full retirement age: file as soon as possible, November 2022, at 2% (OSS)', async () => {
  const b = await best({ calculation_date: '2018-11-15', discount_rate: 0.02, person: { date_of_birth: '1960-10-15', pia: 400, sex: 'male' }, spouse: { date_of_birth: '1948-04-11', pia: 2000, sex: 'female', claimed_age_months: 792 } })
  assert.is(b.person_first_year[0]!.month, '2022-11')
})

test.run()
