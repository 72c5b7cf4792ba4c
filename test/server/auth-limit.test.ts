// The limit on failed authentications, per client address (IPv6 by /64) and per key id: a failing
// key gets 429 with Retry-After past it; a key that verifies is never refused, whatever its address
// has sent; a missing key is not counted. The client address comes from X-Forwarded-For only with
// TRUST_PROXY.
import { request } from 'node:http'
import { connect } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { addressKey, FailedAuthLimit } from '../../server/auth-limit.js'
import { post, startServiceWith, type Service } from '../helpers.js'

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

test('a key id is counted across addresses, and each address apart from it', () => {
  const limit = new FailedAuthLimit(3, () => 0)
  for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) limit.fail(address, 'kTarget')
  assert.is(limit.retryAfter('10.0.0.4', 'kTarget'), 60, 'the id guessed at from three addresses')
  assert.is(limit.retryAfter('10.0.0.4', 'kOther'), 0)
  assert.is(limit.retryAfter('10.0.0.1'), 0, 'one failure from each address is within its budget')
})

test('IPv4-mapped IPv6 counts as IPv4; IPv6 counts by /64', () => {
  assert.is(addressKey('::ffff:192.0.2.7'), '192.0.2.7')
  assert.is(addressKey('192.0.2.7'), '192.0.2.7')
  assert.is(addressKey('2001:db8:1:2::1'), addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:fffe'))
  assert.is(addressKey('2001:db8:1:2::1'), '2001:db8:1:2::/64')
  assert.is.not(addressKey('2001:db8:1:3::1'), addressKey('2001:db8:1:2::1'))
  assert.is(addressKey('::1'), '0:0:0:0::/64')
  assert.is(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64')
  const limit = new FailedAuthLimit(2, () => 0)
  limit.fail('2001:db8:1:2::a')
  limit.fail('2001:db8:1:2:dead:beef:0:1')
  assert.ok(limit.retryAfter('2001:db8:1:2::ffff') > 0, 'every address of the /64 shares its budget')
  assert.is(limit.retryAfter('2001:db8:1:3::a'), 0)
})

test('0 turns the limit off', () => {
  const limit = new FailedAuthLimit(0)
  for (let i = 0; i < 100; i++) limit.fail('a', 'k')
  assert.is(limit.retryAfter('a', 'k'), 0)
})

test('a flood of fresh key ids keeps the memory bounded and still counts the address', () => {
  const limit = new FailedAuthLimit(60, () => 0)
  for (let i = 0; i < 50_000; i++) limit.fail('10.0.0.9', `k${i}`)
  assert.ok(limit.retryAfter('10.0.0.9') > 0)
  assert.ok((limit as unknown as { failures: Map<string, unknown> }).failures.size <= 20_000)
})

const NY = { state: 'NY', tax_year: 2026, gross_estate: 1 }
// A well-formed key (an id of 4 to 64 characters) that is not in the store.
const wrong = (id = 'kWrong') => `${id.padEnd(4, '_')}.${'A'.repeat(43)}`

/** A POST through node:http, from a chosen loopback source address, with the response's headers. */
function send(service: Service, headers: Record<string, string>, localAddress = '127.0.0.1'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(service.url + '/estate/calculate-state-tax')
  const payload = JSON.stringify(NY)
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

test('over HTTP: bad keys get 401 until the limit, then 429 with Retry-After and the error body', async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3 })
  try {
    for (let i = 0; i < 3; i++) assert.is((await post(service, '/estate/calculate-state-tax', NY, { 'x-api-key': wrong(`kWrong${i}`) })).status, 401)
    const res = await send(service, { 'x-api-key': wrong() })
    assert.is(res.status, 429)
    assert.ok(Number(res.headers['retry-after']) > 0)
    assert.is((JSON.parse(res.body) as { error: { code: string } }).error.code, 'too_many_requests')
  } finally {
    await service.close()
  }
})

test('a valid key from an address that has just sent 60 bad keys is answered 200', async () => {
  const service = await startServiceWith({})
  try {
    for (let i = 0; i < 60; i++) assert.is((await send(service, { 'x-api-key': wrong(`kBad${i}`) })).status, 401)
    assert.is((await send(service, { 'x-api-key': wrong('kBad60') })).status, 429, 'the address is over its budget')
    const good = await send(service, { 'x-api-key': service.key })
    assert.is(good.status, 200, good.body)
  } finally {
    await service.close()
  }
})

test('bad keys from one address do not lock out another; a key id guessed at from many addresses is limited, its holder is not', async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3 })
  try {
    for (let i = 0; i < 4; i++) await send(service, { 'x-api-key': wrong(`kFromA${i}`) }, '127.0.0.2')
    assert.is((await send(service, { 'x-api-key': wrong('kFromA9') }, '127.0.0.2')).status, 429, 'A is over its budget')
    assert.is((await send(service, { 'x-api-key': wrong('kFromB') }, '127.0.0.3')).status, 401, 'B is not')
    const id = service.key.split('.')[0]!
    for (let i = 4; i < 7; i++) assert.is((await send(service, { 'x-api-key': wrong(id) }, `127.0.0.${i}`)).status, 401)
    const guess = await send(service, { 'x-api-key': wrong(id) }, '127.0.0.7')
    assert.is(guess.status, 429, 'the id is over its budget, from a fresh address')
    assert.ok(Number(guess.headers['retry-after']) > 0)
    assert.is((await send(service, { 'x-api-key': service.key }, '127.0.0.8')).status, 200, "the id's holder")
  } finally {
    await service.close()
  }
})

test('a missing or malformed key is 401 and not counted', async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3 })
  try {
    for (let i = 0; i < 10; i++) assert.is((await send(service, {})).status, 401)
    for (let i = 0; i < 10; i++) assert.is((await send(service, { 'x-api-key': 'not-a-key' })).status, 401)
    assert.is((await send(service, { 'x-api-key': wrong('kFirstGuess') })).status, 401)
  } finally {
    await service.close()
  }
})

test('TRUST_PROXY off: X-Forwarded-For is ignored, so writing it buys no budget', async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3 })
  try {
    for (let i = 0; i < 3; i++) await send(service, { 'x-api-key': wrong(`kX${i}`), 'x-forwarded-for': `203.0.113.${i}` })
    assert.is((await send(service, { 'x-api-key': wrong('kX9'), 'x-forwarded-for': '203.0.113.99' })).status, 429)
  } finally {
    await service.close()
  }
})

test("TRUST_PROXY 1: each client is counted by the proxy's X-Forwarded-For entry, IPv6 by /64; entries the client wrote are ignored", async () => {
  const service = await startServiceWith({ authFailuresPerMinute: 3, trustProxy: 1 })
  try {
    // The proxy appends the client's address: earlier entries are the client's own words.
    for (let i = 0; i < 3; i++) await send(service, { 'x-api-key': wrong(`kY${i}`), 'x-forwarded-for': `198.51.100.${i}, 203.0.113.5` })
    assert.is((await send(service, { 'x-api-key': wrong('kY9'), 'x-forwarded-for': '198.51.100.77, 203.0.113.5' })).status, 429)
    assert.is((await send(service, { 'x-api-key': wrong('kY10'), 'x-forwarded-for': '203.0.113.6' })).status, 401, 'another client behind the same proxy')
    for (let i = 1; i <= 3; i++) await send(service, { 'x-api-key': wrong(`kV6${i}`), 'x-forwarded-for': `2001:db8:aa:bb::${i}` })
    assert.is((await send(service, { 'x-api-key': wrong('kV6x'), 'x-forwarded-for': '2001:db8:aa:bb:1:2:3:4' })).status, 429, 'the same /64')
    assert.is((await send(service, { 'x-api-key': wrong('kV6y'), 'x-forwarded-for': '2001:db8:aa:bc::1' })).status, 401, 'the next /64')
  } finally {
    await service.close()
  }
})

test('an early 401 (and 413, 415) closes the connection, so a trickled body cannot hold it', async () => {
  const service = await startServiceWith({})
  try {
    const refused = await send(service, { 'x-api-key': wrong() })
    assert.is(refused.status, 401)
    assert.is(refused.headers.connection, 'close')
    const missing = await send(service, {})
    assert.is(missing.headers.connection, 'close')
    // The fuzz review's reproducer: headers promising 60,000 bytes, then a trickle. The 401 goes out
    // at once and the server ends the connection instead of reading the trickle for minutes.
    const { port } = new URL(service.url)
    const ended = await new Promise<{ text: string; ms: number }>((resolve, reject) => {
      const started = Date.now()
      let text = ''
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /estate/calculate-state-tax HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\nx-api-key: ${wrong('kTrickle')}\r\n\r\n{`)
      })
      const trickle = setInterval(() => socket.writable && socket.write(' '), 100)
      socket.setEncoding('utf8')
      socket.on('data', (d: string) => (text += d))
      socket.on('close', () => {
        clearInterval(trickle)
        resolve({ text, ms: Date.now() - started })
      })
      socket.on('error', () => {})
      setTimeout(() => {
        clearInterval(trickle)
        socket.destroy()
        reject(new Error(`still open after 10 s: ${text}`))
      }, 10_000).unref()
    })
    assert.match(ended.text, /^HTTP\/1\.1 401/)
    assert.ok(ended.ms < 5000, `closed after ${ended.ms} ms`)
    const tooLarge = await post(service, '/estate/calculate-state-tax', { state: 'NY', pad: 'x'.repeat(200_000) })
    assert.is(tooLarge.status, 413, 'the client still reads the 413 before the connection closes')
    const notJson = await fetch(service.url + '/estate/calculate-state-tax', { method: 'POST', headers: { 'content-type': 'text/plain', 'x-api-key': service.key }, body: 'state=NY' })
    assert.is(notJson.status, 415)
    assert.is(notJson.headers.get('connection'), 'close')
    const good = await send(service, { 'x-api-key': service.key, connection: 'keep-alive' })
    assert.is(good.headers.connection, 'keep-alive', 'a good answer keeps the connection')
  } finally {
    await service.close()
  }
})

test.run()
