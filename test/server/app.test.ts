// The HTTP contract of SPEC.md and DESIGN.md, on the real app: the envelope, authentication, and a
// 400 naming the field for every class of bad input listed in the foundation issue.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { post, startService, type Service } from '../helpers.js'

const test = suite('server/app: createApp')
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const STATE = '/estate/calculate-state-tax'
const FEDERAL = '/estate/calculate-federal-tax'
const ok = { state: 'NY', tax_year: 2026, gross_estate: 7_500_000 }

test('a good request answers 200 with the envelope', async () => {
  const { status, json } = await post(service, STATE, ok)
  assert.is(status, 200)
  assert.equal(Object.keys(json), ['result', 'data_as_of', 'formula_version', 'citations', 'tier'])
  assert.is(json.formula_version, '2026.1')
  assert.is(json.tier, 'beta')
  assert.match(json.data_as_of, /^\d{4}-\d{2}-\d{2}$/)
  assert.ok(json.citations.includes('N.Y. Tax Law § 952(c)(1)'))
  assert.is(json.result.estate_tax.tax, 386400)
})

test('the same request twice gives the same bytes', async () => {
  const [a, b] = [await post(service, FEDERAL, { gross_estate: 20e6, state_of_domicile: 'IL' }), await post(service, FEDERAL, { gross_estate: 20e6, state_of_domicile: 'IL' })]
  assert.is(a.text, b.text)
})

test('?explain=true adds the steps with their parameters and effective dates', async () => {
  const { json } = await post(service, `${STATE}?explain=true`, ok)
  const step = json.result.explanation.find((s: { step: string }) => s.step === 'tax_before_credit')
  assert.is(step.value, 705200)
  assert.equal(step.parameters[0], { id: 'estate.state.ny.rate_schedule', effective_date: '2014-04-01' })
})

const unauthorized = async (headers: Record<string, string>) => {
  const res = await fetch(service.url + STATE, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(ok) })
  return { status: res.status, text: await res.text() }
}

test('missing, malformed, unknown and wrong keys all get the same 401 body', async () => {
  const id = service.key.split('.')[0]!
  const answers = [
    await unauthorized({}),
    await unauthorized({ 'x-api-key': 'no-dot-here' }),
    await unauthorized({ 'x-api-key': 'kUnknownKeyId.aaaaaaaaaaaaaaaaaaaaaaaa' }),
    await unauthorized({ 'x-api-key': `${id}.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa` }),
  ]
  for (const a of answers) assert.is(a.status, 401)
  assert.is(new Set(answers.map((a) => a.text)).size, 1)
  assert.is(JSON.parse(answers[0]!.text).error.code, 'unauthorized')
})

/** [what is wrong, path, body or raw text, status, code, field] */
const bad: [string, string, unknown, number, string, string][] = [
  ['a missing required field', STATE, { state: 'NY', tax_year: 2026 }, 400, 'validation_error', 'gross_estate'],
  ['a string for a number', STATE, { ...ok, gross_estate: '7500000' }, 400, 'validation_error', 'gross_estate'],
  ['a float tax_year', STATE, { ...ok, tax_year: 2026.5 }, 400, 'validation_error', 'tax_year'],
  ['a negative amount', STATE, { ...ok, marital_deduction_claimed: -1 }, 400, 'validation_error', 'marital_deduction_claimed'],
  ['1e400 (not a finite number)', STATE, '{"state":"NY","tax_year":2026,"gross_estate":1e400}', 400, 'validation_error', 'gross_estate'],
  ['a one-character state', STATE, { ...ok, state: 'N' }, 400, 'validation_error', 'state'],
  ['a three-character state', STATE, { ...ok, state: 'NYC' }, 400, 'validation_error', 'state'],
  ['a code that is no state', STATE, { ...ok, state: 'ZZ' }, 400, 'validation_error', 'state'],
  ['an unknown field', STATE, { ...ok, decedent_name: 'x' }, 400, 'unsupported_parameter', 'decedent_name'],
  ['an unsupported year', STATE, { ...ok, tax_year: 2021 }, 400, 'unsupported_parameter', 'tax_year'],
  ['an unsupported federal year', FEDERAL, { gross_estate: 1, state_of_domicile: 'NY', decedent_year_of_death: 2027 }, 400, 'unsupported_parameter', 'decedent_year_of_death'],
  ['a beneficiary with an unknown relationship', STATE, { ...ok, state: 'PA', beneficiaries: [{ relationship: 'cousin', inheritance_amount: 1 }] }, 400, 'validation_error', 'beneficiaries[0].relationship'],
  ['a beneficiary without an amount', STATE, { ...ok, state: 'PA', beneficiaries: [{ relationship: 'child' }] }, 400, 'validation_error', 'beneficiaries[0].inheritance_amount'],
  ['deductions larger than the gross estate (state)', STATE, { ...ok, filing_status: 'married', marital_deduction_claimed: 8_000_000 }, 400, 'validation_error', 'gross_estate'],
  ['deductions larger than the gross estate (federal)', FEDERAL, { gross_estate: 100, state_of_domicile: 'NY', deductions: { debts_and_expenses: 101 } }, 400, 'validation_error', 'deductions'],
  ['a marital deduction for a decedent sent as single', STATE, { ...ok, filing_status: 'single', marital_deduction_claimed: 1 }, 400, 'validation_error', 'marital_deduction_claimed'],
  ['a date of death outside tax_year', STATE, { ...ok, date_of_death: '2025-12-31' }, 400, 'validation_error', 'date_of_death'],
  ['an impossible date', STATE, { ...ok, date_of_death: '2026-02-30' }, 400, 'validation_error', 'date_of_death'],
  ['DSUE above the basic exclusion amount', FEDERAL, { gross_estate: 1, state_of_domicile: 'NY', dsue_amount: 15_000_001 }, 400, 'validation_error', 'dsue_amount'],
  ['a non-JSON body', STATE, '{"state": "NY",', 400, 'validation_error', 'body'],
  ['a JSON array body', STATE, '[1, 2]', 400, 'validation_error', 'body'],
  ['a JSON string body', STATE, '"NY"', 400, 'validation_error', 'body'],
]

for (const [what, path, body, status, code, field] of bad) {
  test(`${what} gets ${status} ${code} naming ${field}`, async () => {
    const res = await post(service, path, body)
    assert.is(res.status, status, res.text)
    assert.is(res.json.error.code, code)
    assert.ok(res.json.error.details.some((d: { field: string }) => d.field === field), res.text)
  })
}

test('a lowercase state code is accepted and normalised', async () => {
  const { status, json } = await post(service, STATE, { ...ok, state: 'ny' })
  assert.is(status, 200)
  assert.is(json.result.state, 'NY')
})

test('a missing body gets 400 naming the body', async () => {
  const res = await fetch(service.url + STATE, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': service.key } })
  assert.is(res.status, 400)
  assert.is(((await res.json()) as any).error.details[0].field, 'body')
})

test('a wrong content type gets 415', async () => {
  const res = await fetch(service.url + STATE, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-api-key': service.key }, body: '{}' })
  assert.is(res.status, 415)
  assert.is(((await res.json()) as any).error.code, 'unsupported_media_type')
})

test('a 10 MB body gets 413', async () => {
  const big = JSON.stringify({ ...ok, padding: 'x'.repeat(10 * 1024 * 1024) })
  const res = await post(service, STATE, big)
  assert.is(res.status, 413)
  assert.is(res.json.error.code, 'payload_too_large')
})

test('an unknown path gets 404 and a GET gets 405', async () => {
  assert.is((await post(service, '/estate/nothing-here', ok)).status, 404)
  const res = await fetch(service.url + STATE, { headers: { 'x-api-key': service.key } })
  assert.is(res.status, 405)
  assert.is(((await res.json()) as any).error.code, 'method_not_allowed')
})

test('a gzip body is read; a body that does not match its Content-Encoding is a 400, not a 500', async () => {
  const { gzipSync } = await import('node:zlib')
  const zipped = await fetch(service.url + STATE, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-api-key': service.key },
    body: gzipSync(JSON.stringify(ok)),
  })
  assert.is(zipped.status, 200)
  for (const encoding of ['gzip', 'deflate', 'br']) {
    const res = await post(service, STATE, ok, { 'content-encoding': encoding })
    assert.is(res.status, 400, encoding)
    assert.equal(res.json.error.details, [{ field: 'body', message: 'could not be decompressed' }])
  }
})

test('no answer carries a stack trace', async () => {
  const res = await post(service, STATE, '{"state":')
  assert.not.match(res.text, /at .*\.js:\d+/)
})

test.run()
