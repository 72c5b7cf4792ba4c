// What a new caller meets (issue 17, section 4): a slip in a field name or a path is answered with
// what was probably meant, one fault per field, `explain` only true or false, a front door at /,
// and a 413 that says the limit.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { post, startService, type Service } from '../helpers.js'

const test = suite('server: what a caller meets')
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

test('an unknown field is answered with the field probably meant', async () => {
  const r = await post(service, '/estate/calculate-state-tax', { state: 'NY', year: 2026, gross_estate: 1 })
  assert.is(r.status, 400)
  assert.ok(r.json.error.details.some((d: { field: string; message: string }) => d.field === 'year' && /did you mean tax_year\?/.test(d.message)), r.text)
})

test('a field sent at the top level that belongs in a nested object says where it belongs', async () => {
  const r = await post(service, '/estate/calculate-federal-tax', { state_of_domicile: 'NY', gross_estate: 1, marital_deduction: 5 })
  assert.is(r.status, 400)
  assert.match(r.json.error.message, /belongs under deductions \(deductions\.marital_deduction\)/)
})

test('a field with two faults is one field at fault, its faults joined', async () => {
  const r = await post(service, '/estate/calculate-state-tax', { state: 12, tax_year: 2026, gross_estate: 1 })
  assert.is(r.status, 400)
  assert.is(r.json.error.details.length, 1)
  assert.is(r.json.error.details[0].field, 'state')
  assert.match(r.json.error.details[0].message, /must be one of the 51 values .*; must be of type string/)
})

test('explain is true or false; anything else is refused naming it', async () => {
  const r = await post(service, '/estate/calculate-state-tax?explain=yes', { state: 'NY', tax_year: 2026, gross_estate: 1 })
  assert.is(r.status, 400)
  assert.equal(r.json.error.details, [{ field: 'explain', message: 'must be true or false' }])
  const ok = await post(service, '/estate/calculate-state-tax?explain=false', { state: 'NY', tax_year: 2026, gross_estate: 1 })
  assert.is(ok.status, 200)
  assert.is(ok.json.result.explanation, undefined)
})

test('a wrong path is answered with the nearest served path', async () => {
  const r = await post(service, '/estate/calculate-state-taxes', { state: 'NY' })
  assert.is(r.status, 404)
  assert.match(r.json.error.message, /did you mean \/estate\/calculate-state-tax/)
})

test('GET / points to the docs, the OpenAPI document and every endpoint', async () => {
  const res = await fetch(service.url + '/')
  const json = (await res.json()) as { docs: string; openapi: string; endpoints: string[] }
  assert.is(res.status, 200)
  assert.is(json.docs, '/docs')
  assert.is(json.openapi, '/openapi.json')
  assert.ok(json.endpoints.includes('/estate/calculate-state-tax'))
})

test('a body over the limit is a 413 that states the limit', async () => {
  const r = await post(service, '/estate/calculate-state-tax', JSON.stringify({ state: 'NY', padding: 'x'.repeat(70_000) }))
  assert.is(r.status, 413)
  assert.match(r.json.error.message, /\(64 KiB\)/)
})

test('a header block over 16 KiB gets a 431 with the JSON error body', async () => {
  const res = await fetch(service.url + '/estate/calculate-state-tax', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.key, 'x-padding': 'x'.repeat(20_000) },
    body: '{}',
  })
  assert.is(res.status, 431)
  const json = (await res.json()) as { error: { code: string } }
  assert.is(json.error.code, 'request_header_fields_too_large')
})

test.run()
