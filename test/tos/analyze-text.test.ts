// POST /tos/analyze-text over HTTP: a real document answered with offsets that point into the text
// sent, and the endpoint's own body limit (512 KiB) while the others keep the service's 64 KiB.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { answer } from '../../service/index.js'
import { EvaluationPool } from '../../server/pool.js'
import { catalog, FIXTURES, post, startService, startServiceWith, type Service } from '../helpers.js'

const test = suite('tos/analyze-text: the clause engine over HTTP')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

test('a real document: each clause returned is the text between its offsets', async () => {
  // Alpha Vantage's terms as Open Terms Archive recorded them (test/fixtures/tos/README.md).
  const text = readFileSync(join(FIXTURES, 'tos', 'alpha_vantage.md'), 'utf8')
  const res = await post(service, '/tos/analyze-text', { text })
  assert.is(res.status, 200)
  const dims = res.json.result.dimensions as { dimension: string; verdict: string; clauses: { start: number; end: number; clause: string; pattern: string }[] }[]
  assert.is(dims.length, 6)
  const chars = [...text]
  for (const d of dims) for (const c of d.clauses) assert.is(chars.slice(c.start, c.end).join(''), c.clause)
  const commercial = dims.find((d) => d.dimension === 'commercial_use')!
  // "for personal, non-commercial use, unless you and Alpha Vantage [have agreed otherwise in writing]": an
  // agreement with the provider is its own say, no route a user can meet (issue 31), as the curated analysis reads it
  assert.is(commercial.verdict, 'prohibited')
  assert.ok(commercial.clauses.some((c) => c.pattern === 'non_commercial_only' && c.clause.includes('non-commercial use, unless')))
})

test('a body over 512 KiB is a 413 naming the limit; 100 KiB passes here and is a 413 elsewhere', async () => {
  const big = await post(service, '/tos/analyze-text', { text: 'You may not scrape. '.repeat(27_000) })
  assert.is(big.status, 413)
  assert.is(big.json.error.code, 'payload_too_large')
  assert.match(big.json.error.message, /512 KiB/)
  // A real document of 94 KB (the curated Llama API terms): over the service's limit, under this one's.
  const medium = await post(service, '/tos/analyze-text', { text: readFileSync(join(ROOT, 'tables', 'tos', 'documents', 'llama_api.md'), 'utf8') })
  assert.is(medium.status, 200)
  const elsewhere = await post(service, '/fda/enforcement/classify-violations', { text: 'x'.repeat(100 * 1024) })
  assert.is(elsewhere.status, 413)
  assert.match(elsewhere.json.error.message, /64 KiB/)
})

test('OpenAPI states the endpoint\'s body limit', async () => {
  const doc = (await (await fetch(service.url + '/openapi.json')).json()) as { paths: Record<string, { post: Record<string, unknown> }> }
  assert.is(doc.paths['/tos/analyze-text']!.post['x-body-limit'], '512kb')
  assert.match(String(doc.paths['/tos/analyze-text']!.post.description), /Request bodies up to 512 KiB/)
  assert.is(doc.paths['/tos/check-compliance']!.post['x-body-limit'], undefined)
})

test('on the evaluation pool (execution: worker) a document answers the same bytes as in-process', async () => {
  const pool = new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, limits: catalog().service.limits }, 1)
  const pooled = await startServiceWith({ pool })
  try {
    const text = readFileSync(join(FIXTURES, 'tos', 'alpha_vantage.md'), 'utf8')
    const onPool = await post(pooled, '/tos/analyze-text', { text })
    assert.is(onPool.status, 200)
    const endpoint = catalog().endpoints.find((e) => e.operation_id === 'analyze_tos_text')!
    assert.is(endpoint.execution, 'worker')
    assert.is(onPool.text, JSON.stringify(await answer(catalog(), endpoint, { text })))
  } finally {
    await pooled.close()
    await pool.close()
  }
})

test('empty text and an unknown dimension are 400s naming the field', async () => {
  const empty = await post(service, '/tos/analyze-text', { text: '   ' })
  assert.is(empty.status, 400)
  assert.is(empty.json.error.details[0].field, 'text')
  const unknown = await post(service, '/tos/analyze-text', { text: 'You may not scrape.', dimensions: ['privacy'] })
  assert.is(unknown.status, 400)
  assert.is(unknown.json.error.code, 'unsupported_parameter')
  assert.is(unknown.json.error.details[0].field, 'dimensions')
  assert.match(unknown.json.error.details[0].message, /commercial_use, machine_learning_training/)
})

test.run()
