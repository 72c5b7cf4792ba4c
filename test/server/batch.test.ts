// POST /batch: JSON Lines in, JSON Lines out in the same order, each line its own answer; the
// batch's limits (lines, bytes, total work), the key, the media type, and answers written as they
// are done. The same lines through `runBatch` alone show the order and the streaming without HTTP.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, type Counted, type Endpoint } from '../../service/index.js'
import { batchLimits, runBatch, splitLines, type AnswerLine } from '../../service/batch.js'
import { EvaluationPool } from '../../server/pool.js'
import { RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { catalog, startServiceWith, type Service } from '../helpers.js'

const test = suite('server/batch: POST /batch')

const STATE_TAX = '/estate/calculate-state-tax'
const NY = { state: 'NY', tax_year: 2026, gross_estate: 7500000 }
const MA = { state: 'MA', tax_year: 2026, gross_estate: 3000000 }
/** The three lines: two good requests and a bad one (a negative estate). */
const THREE = [
  { id: 'ny', path: STATE_TAX, body: NY },
  { id: 'ma', path: STATE_TAX, body: MA },
  { id: 'bad', path: STATE_TAX, body: { ...NY, gross_estate: -1 } },
]
const jsonl = (lines: unknown[]) => lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n'

async function batch(service: Service, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(service.url + '/batch', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': service.key, ...headers }, body })
  const text = await res.text()
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, type, text, lines: type.startsWith('application/x-ndjson') ? text.trimEnd().split('\n').map((l) => JSON.parse(l) as AnswerLine & { body: any }) : [], json: type.startsWith('application/json') ? (JSON.parse(text) as any) : undefined }
}

const stateTax = () => catalog().endpoints.find((e) => e.paths.includes(STATE_TAX))!

test('three lines, one of them a bad request, answer 200, 200, 400 in order, each the bytes a single request gets', async () => {
  const service = await startServiceWith({})
  try {
    const res = await batch(service, jsonl(THREE))
    assert.is(res.status, 200)
    assert.is(res.type, 'application/x-ndjson')
    assert.equal(res.lines.map((l) => [l.id, l.status]), [['ny', 200], ['ma', 200], ['bad', 400]])
    assert.is(JSON.stringify(res.lines[0]!.body), JSON.stringify(await answer(catalog(), stateTax(), NY)))
    assert.is(JSON.stringify(res.lines[1]!.body), JSON.stringify(await answer(catalog(), stateTax(), MA)))
    assert.is(res.lines[2]!.body.error.code, 'validation_error')
    assert.is(res.lines[2]!.body.error.details[0].field, 'gross_estate')
  } finally {
    await service.close()
  }
})

test("a line's error never stops the others: not JSON, not an object, an unknown path, an unknown field, no body, a bad id, each its own 4xx line", async () => {
  const service = await startServiceWith({})
  try {
    const res = await batch(service, jsonl(['{"path": ', '[1]', { path: '/estate/nope', body: {} }, { path: STATE_TAX, body: NY, extra: 1 }, { id: 7, path: STATE_TAX }, { id: {}, path: STATE_TAX, body: NY }, '', { id: 'last', path: STATE_TAX, body: NY }]))
    assert.is(res.status, 200)
    assert.equal(
      res.lines.map((l) => [l.id, l.status, l.status === 200 ? 'ok' : l.body.error.code]),
      [
        [undefined, 400, 'validation_error'],
        [undefined, 400, 'validation_error'],
        [undefined, 404, 'not_found'],
        [undefined, 400, 'unsupported_parameter'],
        [7, 400, 'validation_error'],
        [undefined, 400, 'validation_error'],
        ['last', 200, 'ok'],
      ],
    )
    // The blank line is skipped; messages count the body's lines as written.
    assert.match(res.lines[0]!.body.error.message, /^line 1 is not valid JSON: .*JSON/)
    assert.match(res.lines[2]!.body.error.message, /^line 3: no endpoint at \/estate\/nope/)
  } finally {
    await service.close()
  }
})

test('the key is required, as on every POST: 401 before any line runs', async () => {
  const service = await startServiceWith({})
  try {
    const missing = await batch(service, jsonl(THREE), { 'x-api-key': '' })
    assert.is(missing.status, 401)
    assert.is(missing.json.error.code, 'unauthorized')
    const wrong = await batch(service, jsonl(THREE), { 'x-api-key': 'nope.nope' })
    assert.is(wrong.status, 401)
  } finally {
    await service.close()
  }
})

test('a body that is not JSON Lines is a 415; an empty one a 400', async () => {
  const service = await startServiceWith({})
  try {
    const json = await batch(service, jsonl(THREE), { 'content-type': 'application/json' })
    assert.is(json.status, 415)
    assert.is(json.json.error.code, 'unsupported_media_type')
    const empty = await batch(service, '\n\n')
    assert.is(empty.status, 400)
    assert.is(empty.json.error.code, 'validation_error')
  } finally {
    await service.close()
  }
})

test('the limits: more lines than a batch may have, or more bytes, is a 413 before any line runs; a line over its endpoint\'s body limit is its own 413', async () => {
  const service = await startServiceWith({ batch: { lines: 2, bytes: 600 } })
  try {
    const lines = await batch(service, jsonl(THREE))
    assert.is(lines.status, 413)
    assert.is(lines.json.error.code, 'payload_too_large')
    assert.match(lines.json.error.message, /3 lines, more than the 2/)
    const bytes = await batch(service, jsonl([THREE[0], { ...THREE[1], body: { ...MA, padding: 'x'.repeat(600) } }]))
    assert.is(bytes.status, 413)
    assert.match(bytes.json.error.message, /larger than the service accepts \(600 bytes\)/)
  } finally {
    await service.close()
  }
  const small = await startServiceWith({ bodyLimit: '200b' })
  try {
    const res = await batch(small, jsonl([THREE[0], { id: 'big', path: STATE_TAX, body: { ...MA, padding: 'x'.repeat(200) } }]))
    assert.equal(res.lines.map((l) => [l.id, l.status]), [['ny', 200], ['big', 413]])
  } finally {
    await small.close()
  }
})

test("the total work: a line whose steps take the batch past its budget, and every later line that would run, answer 400 work_limit_exceeded; the same batch gives the same lines every time", async () => {
  // One state tax takes a few dozen steps: measure it, then allow two and a half lines' worth.
  const { steps } = await import('../../service/index.js').then((s) => s.answerCounted(catalog(), stateTax(), NY))
  assert.ok(steps > 0)
  const service = await startServiceWith({ batch: { steps: Math.floor(steps * 2.5) } })
  try {
    const body = jsonl([THREE[0], THREE[2], { ...THREE[0], id: 2 }, { ...THREE[0], id: 3 }, '{', { ...THREE[0], id: 5 }])
    const first = await batch(service, body)
    assert.equal(
      first.lines.map((l) => [l.id, l.status, l.status === 200 ? 'ok' : l.body.error.code]),
      [
        ['ny', 200, 'ok'],
        ['bad', 400, 'validation_error'],
        [2, 200, 'ok'],
        [3, 400, 'work_limit_exceeded'],
        [undefined, 400, 'validation_error'],
        [5, 400, 'work_limit_exceeded'],
      ],
    )
    assert.match(first.lines[3]!.body.error.message, /the most one batch may take/)
    assert.is((await batch(service, body)).text, first.text)
  } finally {
    await service.close()
  }
})

test('each line has the step budget of a single request: a line over it answers work_limit_exceeded and the next line still answers', async () => {
  const limited = { ...catalog(), service: { ...catalog().service, limits: { ...catalog().service.limits, steps: 5 } } }
  const service = await startServiceWith({ catalog: limited, batch: { steps: 1e9 } })
  try {
    const res = await batch(service, jsonl([THREE[0], { id: 'x', path: '/estate/nope', body: {} }]))
    assert.equal(res.lines.map((l) => [l.id, l.status, l.body.error.code]), [['ny', 400, 'work_limit_exceeded'], ['x', 404, 'not_found']])
    assert.match(res.lines[0]!.body.error.message, /more than 5 evaluation steps, the most one request may take/)
  } finally {
    await service.close()
  }
})

test('on the evaluation pool: the lines run on its threads and answer the same bytes, in order', async () => {
  const pool = new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, limits: catalog().service.limits }, 2)
  const service = await startServiceWith({ pool })
  const plain = await startServiceWith({})
  try {
    const many = jsonl([...THREE, ...THREE.map((l) => ({ ...l, id: `${l.id}-again` }))])
    const pooled = await batch(service, many)
    assert.equal(pooled.lines.map((l) => l.status), [200, 200, 400, 200, 200, 400])
    assert.is(pooled.text, (await batch(plain, many)).text)
  } finally {
    await service.close()
    await plain.close()
    await pool.close()
  }
})

test('answers are written as they are done: the first line is out before a later one is computed', async () => {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  const endpoint = stateTax()
  const answers = runBatch(
    {
      catalog: catalog(),
      limits: batchLimits(catalog()),
      lineLimit: () => 65536,
      concurrency: 2,
      answer: async (_e: Endpoint, body: unknown): Promise<Counted> => {
        // The second line waits until the test has read the first answer.
        if ((body as { state: string }).state === 'MA') await held
        return { envelope: await answer(catalog(), endpoint, body), steps: 1 }
      },
    },
    splitLines(jsonl(THREE.slice(0, 2))),
  )
  const first = await answers.next()
  assert.is((first.value as AnswerLine).id, 'ny')
  release()
  const second = await answers.next()
  assert.is((second.value as AnswerLine).id, 'ma')
  assert.ok((await answers.next()).done)
})

test('over HTTP the first answer line can be read before the batch is done', async () => {
  const service = await startServiceWith({})
  try {
    const body = jsonl([THREE[0], ...Array.from({ length: 40 }, (_, i) => ({ ...THREE[1], id: i }))])
    const res = await fetch(service.url + '/batch', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': service.key }, body })
    assert.is(res.status, 200)
    const reader = res.body!.getReader()
    const { value } = await reader.read()
    const firstChunk = new TextDecoder().decode(value)
    // The first chunk on the wire holds the first answer and not all 41: the rest come later.
    assert.ok(firstChunk.startsWith('{"id":"ny","status":200,'), firstChunk.slice(0, 40))
    assert.ok(firstChunk.split('\n').length - 1 < 41)
    await reader.cancel()
  } finally {
    await service.close()
  }
})

test.run()
