// A request over the work limit gets the documented 400 work_limit_exceeded, over HTTP, and the
// worker is free at once for the next request.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalog, post, startService } from '../helpers.js'

const test = suite('server: the work limit')

test('the QTIP search with a step limit below its need is answered 400 work_limit_exceeded, then a cheap request answers', async () => {
  const base = catalog()
  const limited = { ...base, service: { ...base.service, limits: { steps: 2_000, milliseconds: 60_000 } } }
  const service = await startService(limited)
  try {
    const body = { state_of_domicile: 'NY', gross_estate: 20_000_000, surviving_spouse_estate: 0 }
    const res = await post(service, '/estate/optimize-qtip-election', body)
    assert.is(res.status, 400)
    assert.is(res.json.error.code, 'work_limit_exceeded')
    assert.match(res.json.error.message, /more than 2000 evaluation steps/)
    assert.equal(res.json.error.details, [])
    const cheap = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 1_000_000 })
    assert.is(cheap.status, 200)
  } finally {
    await service.close()
  }
})

test('the default limits leave every golden case room: the QTIP search answers', async () => {
  const service = await startService()
  try {
    const res = await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 20_000_000 })
    assert.is(res.status, 200)
  } finally {
    await service.close()
  }
})

test.run()
