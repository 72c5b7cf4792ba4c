// `npm run dev` (server/dev.ts): an analyst's edit to a table is answered without a restart, and a
// bad edit prints its problem at file:line:column while the last good catalog goes on answering.
import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ENDPOINTS_DIR, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'

const test = suite('server/dev: rules reloaded on save')

const dir = mkdtempSync(join(tmpdir(), 'dev-'))
for (const [from, to] of [[RULES_DIR, 'rules'], [TABLES_DIR, 'tables'], [ENDPOINTS_DIR, 'endpoints']] as const) cpSync(from, join(dir, to), { recursive: true })
const NY = join(dir, 'tables', 'estate', 'state', 'ny.yaml')
const original = readFileSync(NY, 'utf8')

let child: ChildProcess
let output = ''
let url = ''
let key = ''

/** Resolves once the dev server's output matches, or fails after `ms`. */
function said(pattern: RegExp, from: number, ms = 60_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const look = () => {
      const m = output.slice(from).match(pattern)
      if (m) return resolve(m)
      if (Date.now() - started > ms) return reject(new Error(`not said within ${ms} ms: ${pattern}\n${output}`))
      setTimeout(look, 50)
    }
    look()
  })
}

async function exemption(): Promise<number> {
  const res = await fetch(`${url}/estate/calculate-state-tax`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ state: 'NY', tax_year: 2026, gross_estate: 7_500_000 }),
  })
  const body = (await res.json()) as { result: { estate_tax: { exemption: number } } }
  assert.is(res.status, 200)
  return body.result.estate_tax.exemption
}

test.before(async () => {
  child = spawn(process.execPath, [new URL('../../server/dev.js', import.meta.url).pathname], {
    env: { ...process.env, PORT: '0', DATA_DIR: join(dir, 'data'), RULES_DIR: join(dir, 'rules'), TABLES_DIR: join(dir, 'tables'), ENDPOINTS_DIR: join(dir, 'endpoints') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  key = (await said(/x-api-key: (\S+)/, 0))[1]!
  url = (await said(/listening on (http:\/\/[^\s]+)/, 0))[1]!
})
test.after(() => {
  child.kill('SIGTERM')
})

test('an edited figure is answered without a restart', async () => {
  assert.is(await exemption(), 7_350_000)
  const from = output.length
  writeFileSync(NY, original.replace('value: "7_350_000"', 'value: "7_000_000"'))
  await said(/dev: reloaded after editing .*ny\.yaml/, from)
  assert.is(await exemption(), 7_000_000)
})

test('a bad edit prints its problem at file:line:column and the last good catalog answers', async () => {
  const from = output.length
  writeFileSync(NY, original.replace('value: "7_350_000"', 'value: 7350000'))
  const problem = await said(/(\S*ny\.yaml):(\d+):(\d+): .*/, from)
  await said(/still answering with the last good catalog/, from)
  assert.is(Number(problem[2]), original.split('\n').findIndex((l) => l.includes('value: "7_350_000"')) + 1)
  assert.is(await exemption(), 7_000_000)
  // Fixed again: the file's own figure is back.
  const again = output.length
  writeFileSync(NY, original)
  await said(/dev: reloaded/, again)
  assert.is(await exemption(), 7_350_000)
})

test.run()
