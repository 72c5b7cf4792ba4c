// The limit on failed authentications per client address: 429 with Retry-After past it, the error
// body, before any key is checked; a minute later the address may try again.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FailedAuthLimit } from '../../server/auth-limit.js'
import { post, startServiceWith } from '../helpers.js'

const test = suite('server/auth-limit: FailedAuthLimit')

test('an address past its failures waits out the rest of its minute; another address does not', () => {
  let now = 0
  const limit = new FailedAuthLimit(3, () => now)
  for (let i = 0; i < 3; i++) {
    assert.is(limit.retryAfter('a'), 0)
    limit.fail('a')
  }
  now = 20_000
  assert.is(limit.retryAfter('a'), 40)
  assert.is(limit.retryAfter('b'), 0)
  now = 60_000
  assert.is(limit.retryAfter('a'), 0)
})

test('0 turns the limit off', () => {
  const limit = new FailedAuthLimit(0)
  for (let i = 0; i < 100; i++) limit.fail('a')
  assert.is(limit.retryAfter('a'), 0)
})

test('over HTTP: bad keys get 401 until the limit, then 429 with Retry-After and the error body', async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3 })
  try {
    const body = { state: 'NY', tax_year: 2026, gross_estate: 1 }
    for (let i = 0; i < 3; i++) assert.is((await post(service, '/estate/calculate-state-tax', body, { 'x-api-key': `kWrong${i}.${'A'.repeat(43)}` })).status, 401)
    const res = await fetch(service.url + '/estate/calculate-state-tax', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': `kWrong.${'A'.repeat(43)}` },
      body: JSON.stringify(body),
    })
    assert.is(res.status, 429)
    assert.ok(Number(res.headers.get('retry-after')) > 0)
    assert.is(((await res.json()) as { error: { code: string } }).error.code, 'too_many_requests')
  } finally {
    await service.close()
  }
})

test.run()
