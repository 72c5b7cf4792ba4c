// Answers kept by their request's bytes (server/answer-memo.ts): the same body sent again is answered
// with the same envelope without evaluating it again; a refusal is never kept; the caller's key,
// explain and the operation are part of the key; the budget holds, oldest used first out; a data set swap forgets everything.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Registry } from 'prom-client'
import { AnswerMemo } from '../../server/answer-memo.js'
import { ANSWER_MEMO_BYTES } from '../../server/app.js'
import { ServiceMetrics } from '../../server/observe.js'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FileKeyStore } from '../../service/keys.js'
import { post, startServiceWith, type Service } from '../helpers.js'

const test = suite('server/answer-memo: the same request answered again from memory')

const NY = { state: 'NY', tax_year: 2026, gross_estate: 7500000 }

/** How many times the engine evaluated an operation, read from the app's own metrics. */
async function evaluations(metrics: ServiceMetrics, operation: string): Promise<number> {
  const text = await metrics.registry.metrics()
  const line = text.split('\n').find((l) => l.startsWith(`engine_evaluation_seconds_count{operation="${operation}"}`))
  return line === undefined ? 0 : Number(line.split(' ').pop())
}

async function withService(answerMemoBytes: number, run: (service: Service, metrics: ServiceMetrics, keys: FileKeyStore) => Promise<void>): Promise<void> {
  const metrics = new ServiceMetrics(new Registry(), { processMetrics: false })
  const dir = mkdtempSync(join(tmpdir(), 'answer-memo-'))
  const keys = new FileKeyStore(join(dir, 'keys.json'))
  const service = await startServiceWith({ metrics, answerMemoBytes, keys })
  try {
    await run(service, metrics, keys)
  } finally {
    await service.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

test('a body sent a second time is evaluated and kept; from the third, it is answered from memory with the same bytes', async () => {
  await withService(ANSWER_MEMO_BYTES, async (service, metrics) => {
    const first = await post(service, '/estate/calculate-state-tax', NY)
    const second = await post(service, '/estate/calculate-state-tax', NY)
    assert.is(first.status, 200)
    assert.is(second.text, first.text)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 2)
    for (let i = 0; i < 3; i++) assert.is((await post(service, '/estate/calculate-state-tax', NY)).text, first.text)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 2)
    // Another body, another evaluation; the same fields spelled with other spacing are other bytes.
    const other = await post(service, '/estate/calculate-state-tax', { ...NY, gross_estate: 7600000 })
    assert.is.not(other.text, first.text)
    const spaced = await post(service, '/estate/calculate-state-tax', JSON.stringify(NY, null, 2))
    assert.is(spaced.text, first.text)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 4)
    // explain=true is its own answer (it carries the trace).
    const explained = await post(service, '/estate/calculate-state-tax?explain=true', NY)
    assert.ok(explained.text.length > first.text.length)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 5)
    // Another spelling of the path reaches the same operation through the router, and its kept answer.
    const cased = await post(service, '/Estate/Calculate-State-Tax/', NY)
    assert.is(cased.text, first.text)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 5)
  })
})

test('each API key has its own answers: another caller asking the same is evaluated afresh', async () => {
  await withService(ANSWER_MEMO_BYTES, async (service, metrics, keys) => {
    const other = await keys.issue('another caller')
    for (let i = 0; i < 3; i++) await post(service, '/estate/calculate-state-tax', NY)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 2)
    const theirs = await post(service, '/estate/calculate-state-tax', NY, { 'x-api-key': other.key })
    assert.is(await evaluations(metrics, 'state_estate_tax'), 3)
    await post(service, '/estate/calculate-state-tax', NY, { 'x-api-key': other.key })
    await post(service, '/estate/calculate-state-tax', NY, { 'x-api-key': other.key })
    assert.is(await evaluations(metrics, 'state_estate_tax'), 4)
    assert.is((await post(service, '/estate/calculate-state-tax', NY)).text, theirs.text)
  })
})

test('a refused body is checked again every time, and never kept', async () => {
  await withService(ANSWER_MEMO_BYTES, async (service, metrics) => {
    const bad = { ...NY, gross_estate: -1 }
    for (let i = 0; i < 2; i++) {
      const r = await post(service, '/estate/calculate-state-tax', bad)
      assert.is(r.status, 400)
      assert.is(r.json.error.details[0].field, 'gross_estate')
    }
    assert.is(await evaluations(metrics, 'state_estate_tax'), 2)
  })
})

test('ANSWER_MEMO_BYTES=0 keeps nothing', async () => {
  await withService(0, async (service, metrics) => {
    const first = await post(service, '/estate/calculate-state-tax', NY)
    for (let i = 0; i < 3; i++) assert.is((await post(service, '/estate/calculate-state-tax', NY)).text, first.text)
    assert.is(await evaluations(metrics, 'state_estate_tax'), 4)
  })
})

test('the budget holds: the oldest used answer goes first, an answer too large is not kept', () => {
  const memo = new AnswerMemo(16 * 200)
  const key = (i: number) => memo.key('k1', 'op', false, `{"i":${i}}`)!
  const answer = 'x'.repeat(80)
  // The first answer of a key is not kept, only the key remembered as seen.
  memo.set(key(0), answer)
  assert.is(memo.get(key(0)), undefined)
  for (let i = 0; i < 20; i++) for (let twice = 0; twice < 2; twice++) memo.set(key(i), answer)
  // Each entry is 2 × (13 + 80) bytes: 17 fit in 3,200 bytes.
  assert.is(memo.entries, 17)
  assert.is(memo.get(key(0)), undefined)
  assert.is(memo.get(key(3)), answer)
  // Key 3 was just used: the next entry pushes out key 4, the oldest used, not key 3.
  memo.set(key(20), answer)
  memo.set(key(20), answer)
  assert.is(memo.get(key(3)), answer)
  assert.is(memo.get(key(4)), undefined)
  // An answer over a sixteenth of the budget would push out too much: it is not kept.
  memo.set(key(21), 'x'.repeat(200))
  memo.set(key(21), 'x'.repeat(200))
  assert.is(memo.get(key(21)), undefined)
  // Keys: the caller's key id, the operation and explain are part of them; a long body, an unknown
  // caller or a zero budget has none.
  assert.is.not(memo.key('k1', 'op', true, '{}'), memo.key('k1', 'op', false, '{}'))
  assert.is.not(memo.key('k1', 'a', false, '{}'), memo.key('k1', 'b', false, '{}'))
  assert.is.not(memo.key('k1', 'op', false, '{}'), memo.key('k2', 'op', false, '{}'))
  assert.is(memo.key('k1', 'op', false, ' '.repeat(9000)), undefined)
  assert.is(memo.key(undefined, 'op', false, '{}'), undefined)
  assert.is(new AnswerMemo(0).key('k1', 'op', false, '{}'), undefined)
})

test('a swap of the data sets forgets every answer kept', () => {
  let swaps = 0
  const memo = new AnswerMemo(1 << 20, () => swaps)
  const key = memo.key('k1', 'op', false, '{}')!
  memo.set(key, 'kept')
  memo.set(key, 'kept')
  assert.is(memo.get(key), 'kept')
  swaps++
  assert.is(memo.get(key), undefined)
  assert.is(memo.entries, 0)
})

test.run()
