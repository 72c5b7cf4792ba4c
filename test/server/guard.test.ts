// The server side of "every request is bounded" (issue 24): each reproducer of the fuzzing review
// (defects 2, 3, 7, 8, 10, 13, 15, 18) answers 400, 404, 413, 415, 417 or 503 as designed, quickly,
// with the JSON error body, never a 500; and /healthz is answered while the searches run on the pool.
import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { EvaluationPool } from '../../server/pool.js'
import { MAX_DEPTH } from '../../service/depth.js'
import { RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { catalog, post, startService, startServiceWith, type Service } from '../helpers.js'

const test = suite('server: every request is bounded (fuzz review reproducers)')

/** Generous: these answered in seconds before; a loaded 2-core machine must not fail them. */
const QUICK_MS = 3000

const newPool = (maxQueue?: number) => new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, limits: catalog().service.limits }, 1, maxQueue)

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

const mcpHeaders = { accept: 'application/json, text/event-stream' }
const toolCall = (name: string, args: unknown, id = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })
const nested = (levels: number) => `{"x":${'['.repeat(levels)}${']'.repeat(levels)}}`

/** Raw bytes to the service; the whole answer as text. */
function raw(service: Service, text: string): Promise<string> {
  const { port } = new URL(service.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (d) => (answer += d))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
  })
}

test('a search with a 619-byte name that NFKC makes 3,600 characters is a 400 naming the field, at once (defect 2)', () =>
  onPool(async (service) => {
    for (const path of ['/fda/enforcement/search', '/fda/enforcement/history', '/supplier-diversity/certifications']) {
      const body = path.startsWith('/supplier') ? { business_name: '\ufdfa'.repeat(200) } : { company_name: '\ufdfa'.repeat(200) }
      const { value: res, ms } = await timed(() => post(service, path, body))
      assert.is(res.status, 400, path)
      assert.is(res.json.error.code, 'validation_error')
      assert.is(res.json.error.details[0].field, Object.keys(body)[0])
      assert.match(res.json.error.details[0].message, /more than 200 characters once normalised/)
      assert.ok(ms < QUICK_MS, `${path} took ${ms} ms`)
    }
  }))

/**
 * The pool of one thread with the default queue, and the service on it, shared by every test that
 * sets no queue bound of its own: each pool's thread loads the whole catalog, seconds of CPU that
 * five tests paid five times. The tests run one after another and each awaits every answer it asked
 * for, so each finds the thread idle, as on a pool of its own.
 */
let shared: Promise<{ pool: EvaluationPool; service: Service }> | undefined
test.after(async () => {
  if (!shared) return
  const { pool, service } = await shared
  await service.close()
  await pool.close()
})

/** A service whose `execution: worker` endpoints run on a pool of one thread, for `use`; a pool with its own `maxQueue` is closed after. */
async function onPool(use: (service: Service) => Promise<void>, maxQueue?: number): Promise<void> {
  if (maxQueue === undefined) {
    shared ??= (async () => {
      const pool = newPool()
      return { pool, service: await startServiceWith({ pool }) }
    })()
    return use((await shared).service)
  }
  const pool = newPool(maxQueue)
  const service = await startServiceWith({ pool })
  try {
    await use(service)
  } finally {
    await service.close()
    await pool.close()
  }
}

/** Sends the heavy requests, then GET /healthz; asserts /healthz is answered (200) before any of them, and returns their answers. */
async function healthzFirst<R>(service: Service, heavy: Promise<R>[]): Promise<R[]> {
  const order: string[] = []
  const sent = heavy.map((p) => p.then((r) => (order.push('heavy'), r)))
  const health = await fetch(service.url + '/healthz').then((r) => (order.push('healthz'), r.status))
  const answers = await Promise.all(sent)
  assert.is(health, 200)
  assert.is(order[0], 'healthz', order.join(' '))
  return answers
}

test('/healthz is answered while four Walmart histories and a classification run on the pool (defect 2)', () =>
  onPool(async (service) => {
    await post(service, '/fda/enforcement/history', { company_name: 'Walmart' })
    const answers = await healthzFirst(service, [
      ...[0, 1, 2, 3].map(() => post(service, '/fda/enforcement/history', { company_name: 'Walmart' })),
      post(service, '/fda/enforcement/classify-violations', { text: 'CGMP adulterated misbranded '.repeat(700) }),
    ])
    for (const r of answers) assert.ok(r.status === 200 || r.status === 400, r.text.slice(0, 200))
  }))

test('the terms texts that held the evaluation thread for seconds answer 200 or 400 on the pool while /healthz is answered (defects 1 and 4)', () =>
  onPool(async (service) => {
    const texts = [
      'you may not scrape ' + 'unless without our consent '.repeat(140) + '.\n', // 3.8 KB: 3 to 5 s of one thread before
      'a\n'.repeat(131_072), // 256 KiB of one-character lines: 7.6 s before
      'scrape. '.repeat(10_001), // more matches than match_all answers: a 500 before
      'no scraping; '.repeat(10_001),
    ]
    const answers = await healthzFirst(service, texts.map((text) => post(service, '/tos/analyze-text', { text })))
    for (const r of answers) {
      assert.ok(r.status === 200 || r.status === 400, `${r.status}: ${r.text.slice(0, 200)}`)
      if (r.status === 400) assert.is(r.json.error.code, 'work_limit_exceeded', r.text.slice(0, 200))
    }
  }))

test('earnings records are bounded by maxItems, checked before the items (defect 2)', async () => {
  const service = await startService()
  try {
    const rows = Array.from({ length: 1500 }, (_, i) => ({ year: 1951 + (i % 75), amount: 'x' }))
    const { value: res, ms } = await timed(() => post(service, '/social-security/estimate', { date_of_birth: '1964-03-10', calculation_year: 2026, earnings: rows }))
    assert.is(res.status, 400)
    assert.equal(res.json.error.details, [{ field: 'earnings', message: 'must NOT have more than 150 items' }])
    assert.ok(ms < QUICK_MS, `${ms} ms`)
    const person = { date_of_birth: '1964-03-10', sex: 'female', earnings: rows.slice(0, 600) }
    const couple = await post(service, '/ss/optimize-filing-strategy', { person, spouse: person, calculation_year: 2026 })
    assert.is(couple.status, 400)
    assert.equal(couple.json.error.details.map((d: { field: string }) => d.field).sort(), ['person.earnings', 'spouse.earnings'])
  } finally {
    await service.close()
  }
})

test('a body nested deeper than the limit is a 400 at parse, on a pool endpoint and over MCP (defect 3)', () =>
  onPool(async (service) => {
    for (const levels of [MAX_DEPTH, 4000, 30_000]) {
      const res = await post(service, '/ss/optimize-filing-strategy', nested(levels))
      assert.is(res.status, 400, `${levels} levels`)
      assert.is(res.json.error.code, 'validation_error')
      assert.equal(res.json.error.details, [{ field: 'body', message: `nests more than ${MAX_DEPTH} levels deep` }])
    }
    // Within the limit, the schema answers: an unknown field, not a depth.
    const shallow = await post(service, '/ss/optimize-filing-strategy', nested(MAX_DEPTH - 2))
    assert.is(shallow.status, 400)
    assert.ok(shallow.json.error.details.some((d: { field: string; message: string }) => d.field === 'x' && /is not a field/.test(d.message)), shallow.text)
    const mcp = await post(service, '/mcp', JSON.stringify(toolCall('optimize_ss_filing_strategy', { x: 0 })).replace('{"x":0}', nested(4000)), mcpHeaders)
    assert.is(mcp.status, 400)
    assert.is(mcp.json.error.code, 'validation_error')
  }))

test('a full pool queue answers 503 service_unavailable with Retry-After; the rest are answered (bounded queue)', () =>
  onPool(async (service) => {
    const qtip = { state_of_domicile: 'NY', gross_estate: 30_000_000 }
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map(() => fetch(service.url + '/estate/optimize-qtip-election', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': service.key },
      body: JSON.stringify(qtip),
    }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), json: (await r.json()) as Record<string, any> }))))
    const busy = answers.filter((a) => a.status === 503)
    assert.ok(busy.length >= 1, answers.map((a) => a.status).join(' '))
    assert.ok(answers.filter((a) => a.status === 200).length >= 2, answers.map((a) => a.status).join(' '))
    for (const a of busy) {
      assert.is(a.json.error.code, 'service_unavailable')
      assert.ok(Number(a.retry) > 0)
    }
  }, 1))

test('over MCP, a call that finds the queue full is a tool error service_unavailable, not a 500', () =>
  onPool(async (service) => {
    const qtip = { state_of_domicile: 'NY', gross_estate: 30_000_000 }
    const answers = await Promise.all([1, 2, 3, 4].map((id) => post(service, '/mcp', toolCall('calculate_optimal_qtip_election', qtip, id), mcpHeaders)))
    const texts = answers.map((a) => String(a.json.result?.content?.[0]?.text ?? a.text))
    assert.ok(texts.some((t) => t.includes('"code":"service_unavailable"')), texts.map((t) => t.slice(0, 80)).join('\n'))
    assert.not.ok(texts.some((t) => t.includes('internal_error')))
  }, 0))

test('a 512 KiB body of bad items gets a small answer, quickly: 20 details and the count (defect 7)', () =>
  onPool(async (service) => {
    const items = `{"text":"x","dimensions":[${Array(250_000).fill('1').join(',')}]}`
    const { value: res, ms } = await timed(() => post(service, '/tos/analyze-text', items))
    assert.is(res.status, 400)
    assert.ok(res.json.error.details.length <= 20)
    assert.ok(res.text.length < 8_000, `${res.text.length} bytes`)
    assert.ok(ms < QUICK_MS, `${ms} ms`)
    // Unknown fields: one problem each, 20 listed, the count in the message.
    const unknown = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, 1]))
    const many = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 1, ...unknown })
    assert.is(many.status, 400)
    assert.is(many.json.error.details.length, 20)
    assert.match(many.json.error.message, /^5000 fields are invalid: f0, .*, … \(5000 problems; details lists the first 20\)$/)
    assert.ok(many.text.length < 8_000)
  }))

test('MCP: a JSON-RPC batch is refused with a JSON-RPC error; a tool call is held to its endpoint\'s body limit (defect 8)', async () => {
  const service = await startService()
  try {
    const batch = await post(service, '/mcp', Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })), mcpHeaders)
    assert.is(batch.status, 400)
    assert.is(batch.json.error.code, -32600)
    assert.match(batch.json.error.message, /batches are not accepted/)
    assert.ok(batch.text.length < 1000)
    // 100 KiB of arguments: within /mcp's parser (512 KiB, the terms-of-service text) but not within the state route's 64 KiB.
    const big = await post(service, '/mcp', toolCall('calculate_state_estate_tax', { state: 'NY', tax_year: 2026, gross_estate: 1, note: 'x'.repeat(100_000) }), mcpHeaders)
    assert.is(big.status, 413)
    assert.is(big.json.error.code, 'payload_too_large')
    assert.match(big.json.error.message, /64 KiB/)
    const route = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 1, note: 'x'.repeat(100_000) })
    assert.is(route.status, 413)
    // The terms-of-service tool keeps its own 512 KiB.
    const text = await post(service, '/mcp', toolCall('analyze_tos_text', { text: 'You may not scrape the site. '.repeat(4000) }), mcpHeaders)
    assert.is(text.status, 200)
    // One message that is not a tool call is held to the service's limit.
    const list = await post(service, '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(100_000) } }, mcpHeaders)
    assert.is(list.status, 413)
  } finally {
    await service.close()
  }
})

test('GET /docs/__proto__ and the other Object.prototype names are 404 (defect 10)', async () => {
  const service = await startService()
  try {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__']) {
      const res = await fetch(`${service.url}/docs/${name}`)
      assert.is(res.status, 404, name)
      assert.is(((await res.json()) as Record<string, any>).error.code, 'not_found')
    }
    assert.is((await fetch(`${service.url}/docs/swagger-ui.css`)).status, 200)
  } finally {
    await service.close()
  }
})

test('"ıl" and "ſd" are not state codes: only ASCII is case-normalised (defect 13)', async () => {
  const service = await startService()
  try {
    for (const state of ['ıl', 'ſd', 'İL']) {
      const res = await post(service, '/estate/calculate-state-tax', { state, tax_year: 2026, gross_estate: 1 })
      assert.is(res.status, 400, state)
      assert.is(res.json.error.details[0].field, 'state')
    }
    assert.is((await post(service, '/estate/calculate-state-tax', { state: 'il', tax_year: 2026, gross_estate: 1 })).status, 200)
  } finally {
    await service.close()
  }
})

test('a 16 KB unknown path is a 404 without suggestions; a near one still gets them (defect 15)', async () => {
  const service = await startService()
  try {
    const { value: res, ms } = await timed(() => fetch(`${service.url}/${'a'.repeat(16_000)}`, { method: 'POST' }))
    const json = (await res.json()) as Record<string, any>
    assert.is(res.status, 404)
    assert.not.match(json.error.message, /did you mean/)
    assert.ok(ms < QUICK_MS)
    const near = (await (await fetch(`${service.url}/estate/calculate-state-taxes`, { method: 'POST' })).json()) as Record<string, any>
    assert.match(near.error.message, /did you mean \/estate\/calculate-state-tax/)
  } finally {
    await service.close()
  }
})

test("Node's own 400 (no Host) and 417 (Expect: 999-nope) carry the JSON error body; an unknown Content-Encoding is named (defect 18)", async () => {
  const service = await startService()
  try {
    const noHost = await raw(service, 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')
    assert.match(noHost, /^HTTP\/1\.1 400 /)
    assert.match(noHost, /application\/json/)
    assert.match(noHost, /"code":"validation_error"/)
    const expect = await raw(service, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 999-nope\r\nConnection: close\r\n\r\n')
    assert.match(expect, /^HTTP\/1\.1 417 /)
    assert.match(expect, /"field":"expect"/)
    const withHost = await raw(service, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(withHost, /^HTTP\/1\.1 200 /)
    const http10 = await raw(service, 'GET /healthz HTTP/1.0\r\n\r\n')
    assert.match(http10, /^HTTP\/1\.1 200 /)
    const proto = await post(service, '/estate/calculate-state-tax', '{"state":"NY","tax_year":2026,"gross_estate":1,"__proto__":{"x":1}}')
    assert.is(proto.status, 400)
    assert.equal(proto.json.error.details, [{ field: '__proto__', message: 'is not an allowed key' }])
    for (const encoding of ['zstd', 'gzip, gzip']) {
      const { port } = new URL(service.url)
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/estate/calculate-state-tax', method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding, 'x-api-key': service.key } }, (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d) => (text += d))
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
        })
        req.on('error', reject)
        req.end('{}')
      })
      assert.is(answer.status, 415, encoding)
      assert.match(answer.text, /unsupported Content-Encoding/)
    }
  } finally {
    await service.close()
  }
})

test.run()
