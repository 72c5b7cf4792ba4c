// The estimate's year-by-year table is left out unless asked for: it costs several times the rest of
// the estimate, and most callers want the monthly figures only (issue 24: the request path).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, evaluate, InputError } from '../../service/index.js'
import { catalog } from '../helpers.js'

const test = suite('social_security.estimate: year_by_year on request')
const rules = catalog()
const input = { date_of_birth: '1960-05-15', calculation_year: 2026, pia: 2000, claim_age_months: 800 }
const run = async (extra: Record<string, unknown>) => (await evaluate(rules, 'social_security.estimate', { ...input, ...extra })).result

test('absent by default, with the same monthly figures', async () => {
  const plain = await run({})
  const asked = await run({ include_year_by_year: true })
  assert.not.ok('year_by_year' in plain)
  assert.is(plain.retirement_benefit, asked.retirement_benefit)
  assert.is((asked.year_by_year as unknown[]).length, 24)
})

test('year_by_year_to_age asks for it too; include_year_by_year false with it still gives it', async () => {
  assert.is(((await run({ year_by_year_to_age: 68 })).year_by_year as unknown[]).length, 2)
  assert.is(((await run({ include_year_by_year: false, year_by_year_to_age: 68 })).year_by_year as unknown[]).length, 2)
})

test('include_year_by_year that is not true or false is a 400 naming the field', async () => {
  const endpoint = rules.endpoints.find((e) => e.operation_id === 'estimate_social_security_benefit')!
  try {
    await answer(rules, endpoint, { ...input, include_year_by_year: 'yes' })
    assert.unreachable('answered')
  } catch (error) {
    assert.instance(error, InputError)
    assert.ok((error as InputError).details.some((d) => d.field === 'include_year_by_year'), JSON.stringify((error as InputError).details))
  }
})

test.run()
