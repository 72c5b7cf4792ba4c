// The typed TypeScript client (clients/typescript/): the committed types are what the generator makes
// of the current OpenAPI document, so a manifest changed without `npm run client` fails here; and a
// call through the client to the running service answers 200 with the envelope typed.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { batch, createServiceClient, type BatchAnswer } from '../../clients/typescript/src/index.js'
import { ROOT } from '../../service/project/paths.js'
import { startService } from '../helpers.js'

const test = suite('clients/typescript: the generated client')
const CLIENT = join(ROOT, 'clients', 'typescript')

test('the committed schema.d.ts is what openapi-typescript makes of the current document (npm run client)', () => {
  const document = spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', 'openapi.js')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.is(document.status, 0, document.stderr)
  const generated = spawnSync(process.execPath, [join(CLIENT, 'generate.mjs')], { input: document.stdout, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  assert.is(generated.status, 0, generated.stderr)
  const committed = readFileSync(join(CLIENT, 'src', 'schema.d.ts'), 'utf8')
  // Not assert.is: a diff of 11,000 lines helps nobody; the first line that differs does.
  if (generated.stdout !== committed) {
    const a = committed.split('\n')
    const b = generated.stdout.split('\n')
    const at = a.findIndex((line, i) => line !== b[i])
    assert.unreachable(`clients/typescript/src/schema.d.ts is stale: run npm run client (first difference at line ${at + 1}: ${JSON.stringify(a[at])} now ${JSON.stringify(b[at])})`)
  }
})

test('a call through the client answers 200 with the envelope, typed; a bad body is a typed error', async () => {
  const service = await startService()
  try {
    const client = createServiceClient({ baseUrl: service.url, apiKey: service.key })
    const { data, error, response } = await client.POST('/estate/calculate-state-tax', { body: { state: 'NY', tax_year: 2026, gross_estate: 7500000 } })
    assert.is(response.status, 200)
    assert.is(error, undefined)
    // These reads compile only because the client knows the envelope and the result's schema.
    const formulaVersion: string = data!.formula_version
    const citations: string[] = data!.citations
    assert.ok(formulaVersion.length > 0)
    assert.ok(citations.length > 0)
    assert.is(data!.result.state, 'NY')

    const bad = await client.POST('/estate/calculate-state-tax', {
      // @ts-expect-error gross_estate is a number: the compiler refuses a string before the service does
      body: { state: 'NY', tax_year: 2026, gross_estate: 'a lot' },
    })
    assert.is(bad.response.status, 400)
    assert.is(bad.error!.error.code, 'validation_error')
  } finally {
    await service.close()
  }
})

test('batch() sends JSON Lines and yields the answers in order: 200, 200, 400', async () => {
  const service = await startService()
  try {
    const client = createServiceClient({ baseUrl: service.url, apiKey: service.key })
    const answers: BatchAnswer[] = []
    for await (const answer of batch(client, [
      { id: 'ny', path: '/estate/calculate-state-tax', body: { state: 'NY', tax_year: 2026, gross_estate: 7500000 } },
      { id: 'ma', path: '/estate/calculate-state-tax', body: { state: 'MA', tax_year: 2026, gross_estate: 3000000 } },
      { id: 'bad', path: '/estate/calculate-state-tax', body: { state: 'NY', tax_year: 2026, gross_estate: -1 } },
    ])) answers.push(answer)
    assert.equal(answers.map((a) => [a.id, a.status]), [['ny', 200], ['ma', 200], ['bad', 400]])
    const wrongKey = createServiceClient({ baseUrl: service.url, apiKey: 'nope.nope' })
    try {
      for await (const _ of batch(wrongKey, [{ path: '/estate/calculate-state-tax', body: {} }])) assert.unreachable('a refused batch yields no line')
      assert.unreachable('a refused batch throws')
    } catch (error) {
      assert.match((error as Error).message, /^POST \/batch answered 401: a valid API key is required/)
    }
  } finally {
    await service.close()
  }
})

test.run()
