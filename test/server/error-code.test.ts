// The error code of a refusal (docs/errors.md; issue 17, messages 4): each fault has a code of
// its own; a refusal whose faults share one answers with it, and faults of different codes answer
// validation_error. Whichever stage finds them (the request schema and its years, the rule set's
// checks), a fault found alone keeps its code and is never hidden by another of the same stage.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { combinedCode } from '../../service/index.js'
import { post, startService, type Service } from '../helpers.js'

const test = suite('server: one rule for the error code')
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const fields = (r: { json: Record<string, any> }) => (r.json.error.details as { field: string }[]).map((d) => d.field)

test('the rule: the faults\' code when they share one, else validation_error', () => {
  assert.is(combinedCode(['unsupported_parameter']), 'unsupported_parameter')
  assert.is(combinedCode(['unsupported_parameter', 'unsupported_parameter']), 'unsupported_parameter')
  assert.is(combinedCode(['validation_error']), 'validation_error')
  assert.is(combinedCode(['unsupported_parameter', 'validation_error']), 'validation_error')
  assert.is(combinedCode(['validation_error', 'unsupported_parameter']), 'validation_error')
})

test('request schema: an unknown field alone is unsupported_parameter; beside a missing field, validation_error', async () => {
  const alone = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 1, year: 2026 })
  assert.is(alone.json.error.code, 'unsupported_parameter', alone.text)
  const mixed = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, year: 2026 })
  assert.is(mixed.json.error.code, 'validation_error', mixed.text)
  assert.equal(fields(mixed).sort(), ['gross_estate', 'year'])
})

test('a year not covered is listed beside the schema\'s faults, and takes part in the rule', async () => {
  const mixed = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2031 })
  assert.is(mixed.status, 400)
  assert.is(mixed.json.error.code, 'validation_error', mixed.text)
  assert.equal(fields(mixed).sort(), ['gross_estate', 'tax_year'])
  const shared = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2031, gross_estate: 1, year: 2031 })
  assert.is(shared.json.error.code, 'unsupported_parameter', shared.text)
  assert.equal(fields(shared).sort(), ['tax_year', 'year'])
})

test('rule-set checks: a month without a rate alone is unsupported_parameter; beside a missing term, validation_error', async () => {
  const alone = await post(service, '/estate/calculate-grat', { valuation_date: '2026-12-10', initial_value: 1000000, term_years: 2 })
  assert.is(alone.json.error.code, 'unsupported_parameter', alone.text)
  const mixed = await post(service, '/estate/calculate-grat', { valuation_date: '2026-12-10', initial_value: 1000000 })
  assert.is(mixed.json.error.code, 'validation_error', mixed.text)
  assert.equal(fields(mixed), ['term_years', 'valuation_date'])
})

test.run()
