// A request over the work limit gets the documented 400 work_limit_exceeded, over HTTP, and the
// worker is free at once for the next request.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { DeadlineError } from '../../service/index.js'
import { McpTools } from '../../service/mcp.js'
import { EvaluationPool } from '../../server/pool.js'
import { catalog, post, startService, startServiceWith, type Service } from '../helpers.js'

/** A POST with its headers kept (Retry-After). */
async function postRaw(service: Service, path: string, body: unknown) {
  const res = await fetch(service.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': service.key }, body: JSON.stringify(body) })
  return { status: res.status, headers: res.headers, json: (await res.json()) as { error: { code: string; message: string; details: unknown[] } } }
}

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

test('past the clock\'s backstop (WORK_LIMIT_MS) a request is a 503 deadline_exceeded with Retry-After, not a 400', async () => {
  // The step budget alone decides a 400; the clock only stops a request still running when the
  // machine is too busy, which the caller may send again unchanged.
  const base = catalog()
  const tiny = { ...base, service: { ...base.service, limits: { steps: 10_000_000, milliseconds: 1 } } }
  const service = await startService(tiny)
  try {
    const res = await postRaw(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 20_000_000, surviving_spouse_estate: 0 })
    assert.is(res.status, 503)
    assert.is(res.headers.get('retry-after'), '1')
    assert.is(res.json.error.code, 'deadline_exceeded')
    assert.match(res.json.error.message, /ran past 1 ms/)
    assert.equal(res.json.error.details, [])
  } finally {
    await service.close()
  }
})

test('the same 503 crosses back from the evaluation pool\'s thread', async () => {
  const pool = new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, limits: { steps: 10_000_000, milliseconds: 1 } }, 1)
  const service = await startServiceWith({ pool })
  try {
    const res = await postRaw(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 20_000_000, surviving_spouse_estate: 0 })
    assert.is(res.status, 503)
    assert.is(res.headers.get('retry-after'), '1')
    assert.is(res.json.error.code, 'deadline_exceeded')
  } finally {
    await service.close()
    await pool.close()
  }
})

test('over MCP the backstop is a tool error deadline_exceeded, not an internal error', async () => {
  const tools = new McpTools(catalog(), () => Promise.reject(new DeadlineError(1)))
  const result = await tools.call('calculate_state_estate_tax', { state: 'NY', tax_year: 2026, gross_estate: 1_000_000 })
  assert.is(result.isError, true)
  const body = JSON.parse((result.content[0] as { text: string }).text) as { error: { code: string } }
  assert.is(body.error.code, 'deadline_exceeded')
})

test.run()
