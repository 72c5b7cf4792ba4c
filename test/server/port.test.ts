// npm start on a port another process holds: one line saying so and how to choose another, and an
// exit at once, with one process or a cluster, instead of stack traces and workers restarted forever.
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'

const test = suite('server/main: a port already in use')

for (const workers of ['1', '2']) {
  test(`with WORKERS=${workers} it exits at once with one line naming the port`, async () => {
    const holder = createServer().listen(0, '127.0.0.1')
    await new Promise((resolve) => holder.once('listening', resolve))
    const { port } = holder.address() as { port: number }
    try {
      const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'server', 'main.js')], {
        env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', WORKERS: workers, EVALUATION_THREADS: '0', DATA_DIR: mkdtempSync(join(tmpdir(), 'port-')) },
        encoding: 'utf8',
        // A backstop for a start that never stops: at load 28 on two cores a start that loads the
        // catalog took over 30 s, and the test failed on the timeout, not on what it checks.
        timeout: 120_000,
      })
      assert.is(run.status, workers === '1' ? 78 : 1, run.stderr)
      const lines = run.stderr.trim().split('\\n').filter((l) => l.trim() !== '')
      assert.equal(lines, [`port ${port} on 127.0.0.1 is already in use; stop the other server or choose another port with PORT=8081 npm start`])
    } finally {
      holder.close()
    }
  })
}

test.run()
