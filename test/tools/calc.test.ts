// npm run calc: the batch's lines answered from a file without a server, line for line the bytes
// POST /batch answers, and the batch's limits refusing a file before any line runs.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { BATCH_LINES } from '../../service/batch.js'
import { ROOT } from '../../service/project/paths.js'
import { startServiceWith } from '../helpers.js'

const test = suite('tools/calc: a batch from a file')

const STATE_TAX = '/estate/calculate-state-tax'
const NY = { state: 'NY', tax_year: 2026, gross_estate: 7500000 }
const THREE = [
  { id: 'ny', path: STATE_TAX, body: NY },
  { id: 'ma', path: STATE_TAX, body: { state: 'MA', tax_year: 2026, gross_estate: 3000000 } },
  { id: 'bad', path: STATE_TAX, body: { ...NY, gross_estate: -1 } },
]
const jsonl = (lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
const calc = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', 'calc.js'), ...args], { encoding: 'utf8' })

test('three lines, one of them a bad request, answer 200, 200, 400 in order: the bytes POST /batch answers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'calc-'))
  writeFileSync(join(dir, 'scenarios.jsonl'), jsonl(THREE))
  const run = calc('--in', join(dir, 'scenarios.jsonl'), '--out', join(dir, 'answers.jsonl'))
  assert.is(run.status, 0, run.stderr)
  const text = readFileSync(join(dir, 'answers.jsonl'), 'utf8')
  assert.equal(text.trimEnd().split('\n').map((l) => { const a = JSON.parse(l); return [a.id, a.status] }), [['ny', 200], ['ma', 200], ['bad', 400]])
  // Not a terminal: no progress line, only the summary.
  assert.is(run.stderr, '3 lines: 2 × 200, 1 × 400\n')
  const service = await startServiceWith({})
  try {
    const res = await fetch(service.url + '/batch', { method: 'POST', headers: { 'content-type': 'application/x-ndjson', 'x-api-key': service.key }, body: jsonl(THREE) })
    assert.is(await res.text(), text)
  } finally {
    await service.close()
  }
})

test('a file over the batch limit of lines is refused whole, before any line runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calc-'))
  writeFileSync(join(dir, 'many.jsonl'), jsonl(Array.from({ length: BATCH_LINES + 1 }, () => ({ path: STATE_TAX, body: NY }))))
  const run = calc('--in', join(dir, 'many.jsonl'), '--out', join(dir, 'answers.jsonl'))
  assert.is(run.status, 1)
  assert.match(run.stderr, `the file has ${BATCH_LINES + 1} lines, more than the ${BATCH_LINES} one batch may have`)
})

test('an unknown option prints the usage and exits 2', () => {
  const run = calc('--input', 'x')
  assert.is(run.status, 2)
  assert.match(run.stderr, /usage: npm run calc/)
})

test.run()
