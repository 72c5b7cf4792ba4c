// Validators compiled once and kept on disk: a second process (here, a second compiler on the same
// folder) gets the same answers and errors, a bad schema stays an error, a damaged file is recompiled.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { cacheStats, schemaCompiler } from '../../engine/load/validator-cache.js'

const test = suite('engine/validator-cache: schemaCompiler')

const options = { allErrors: true, strictSchema: true, strictTypes: false, strictTuples: false, strictRequired: false, strictNumbers: true, coerceTypes: false } as const
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['state', 'on'],
  properties: { state: { type: 'string', enum: ['NY', 'PA'] }, on: { type: 'string', format: 'date' }, amount: { type: 'number', minimum: 0 } },
}
const inputs: unknown[] = [{ state: 'NY', on: '2026-01-01' }, { state: 'XX', on: '2026-02-30', amount: -1, extra: 1 }, {}, 'text']

test('a validator read from the cache answers as the compiled one, errors included, and is kept only once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-cache-test-'))
  const before = { ...cacheStats }
  const compiled = schemaCompiler(options, ['date'], dir).compile(schema)
  const cached = schemaCompiler(options, ['date'], dir).compile(schema)
  assert.equal(cacheStats.compiled - before.compiled, 1)
  assert.equal(cacheStats.hits - before.hits, 1)
  assert.equal(readdirSync(dir).length, 1)
  for (const input of inputs) {
    assert.equal(cached(input), compiled(input), JSON.stringify(input))
    assert.equal(cached.errors, compiled.errors, JSON.stringify(input))
  }
  assert.not.ok(cached({ state: 'NY', on: 'not a date' }), 'the date format is checked from the cache too')
})

test('other options or formats are another key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-cache-test-'))
  schemaCompiler(options, ['date'], dir).compile(schema)
  schemaCompiler({ ...options, allErrors: false }, ['date'], dir).compile(schema)
  assert.equal(readdirSync(dir).length, 2)
})

test('a bad schema is refused by every compiler and never kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-cache-test-'))
  const bad = { type: 'object', properties: { a: { type: 'string', 'in dollars': true } } }
  assert.throws(() => schemaCompiler(options, ['date'], dir).compile(bad), /unknown keyword/)
  assert.throws(() => schemaCompiler(options, ['date'], dir).compile(bad), /unknown keyword/)
  assert.equal(readdirSync(dir).length, 0)
})

test('a damaged file is compiled again from the schema', () => {
  const dir = mkdtempSync(join(tmpdir(), 'validator-cache-test-'))
  schemaCompiler(options, ['date'], dir).compile(schema)
  const [file] = readdirSync(dir)
  writeFileSync(join(dir, file!), 'this is not javascript {')
  const validate = schemaCompiler(options, ['date'], dir).compile(schema)
  assert.ok(validate({ state: 'PA', on: '2026-01-01' }))
  assert.not.ok(validate({ state: 'PA' }))
  assert.equal(validate.errors?.[0]?.keyword, 'required')
})

test.run()
