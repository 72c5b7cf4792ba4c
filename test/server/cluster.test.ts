// `npm start` runs one worker per core: with WORKERS=2 two workers listen on one port, answer, and
// all stop on SIGTERM. The key is issued once, by the primary.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'

const test = suite('cluster start')

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })

test('two workers share the port, answer with the one issued key, and stop on SIGTERM', async () => {
  const port = await freePort()
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'server', 'main.js')], {
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), WORKERS: '2', DATA_DIR: mkdtempSync(join(tmpdir(), 'cluster-')) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d) => (out += d))
  child.stderr.on('data', (d) => (out += d))
  // A failed assertion must not leave the cluster running: its pipes would keep the test process alive.
  const stopped = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    // Only ends a start that hangs: at load 28 on two cores two workers took over 60 s to listen.
    const deadline = Date.now() + 150_000
    while ((out.match(/worker \d+: listening/g) ?? []).length < 2) {
      assert.ok(Date.now() < deadline, `workers did not start: ${out}`)
      await new Promise((r) => setTimeout(r, 50))
    }
    assert.is((out.match(/issued one/g) ?? []).length, 1, 'one key, issued once')
    const key = /x-api-key: (\S+)/.exec(out)![1]!
    const res = await fetch(`http://127.0.0.1:${port}/estate/calculate-state-tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: JSON.stringify({ state: 'NY', tax_year: 2026, gross_estate: 7500000 }),
    })
    assert.is(res.status, 200)
    child.kill('SIGTERM')
    assert.is(await stopped, 0)
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
})

test.run()
