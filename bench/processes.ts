/**
 * @module Starting the servers under test as child processes on loopback, so the load generator
 * (autocannon, in the bench's own process) never shares a process with what it measures.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const DIST = dirname(dirname(fileURLToPath(import.meta.url)))

export interface Running {
  url: string
  /** The service's API key (empty for the echo). */
  key: string
  child: ChildProcess
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

async function start(script: string, workers: number, ready: RegExp, nodeArgs: string[] = [], ipc = false, env: Record<string, string> = {}, dist = DIST): Promise<Running & { output: () => string }> {
  const port = await freePort()
  // stdout (the request log, a line per request) goes to a file, as a production log would, not
  // through a pipe into this process, whose event loop is busy driving autocannon: a full pipe would
  // stall the service and make logging look dearer than it is.
  const dir = mkdtempSync(join(tmpdir(), 'bench-'))
  const logFile = join(dir, 'stdout.log')
  const stdout = openSync(logFile, 'w')
  const child = spawn(process.execPath, [...nodeArgs, join(dist, script)], {
    cwd: dirname(dist),
    env: { ...process.env, PORT: String(port), WORKERS: String(workers), DATA_DIR: dir, ...env },
    stdio: ipc ? ['ignore', stdout, 'pipe', 'ipc'] : ['ignore', stdout, 'pipe'],
  })
  closeSync(stdout)
  let err = ''
  child.stderr!.on('data', (d) => (err += d))
  const out = () => readFileSync(logFile, 'utf8') + err
  // Generous: a cold start on this shared machine under a load average of 20 took over 30 s.
  const deadline = Date.now() + 120_000
  while ((out().match(new RegExp(ready, 'g')) ?? []).length < workers) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // A server that never said it was listening is not left running behind the bench.
      child.kill('SIGTERM')
      throw new Error(`${script} did not start:\n${out()}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  const started = out()
  return {
    url: `http://127.0.0.1:${port}`,
    key: /x-api-key: (\S+)/.exec(started)?.[1] ?? '',
    child,
    output: () => started + err,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * The service as `npm start` runs it (dist/server/main.js), with a fresh key store and the default
 * settings (request log and metrics on); `dist` is another build's (the baseline's).
 */
export const startService = (workers: number, nodeArgs: string[] = [], ipc = false, env: Record<string, string> = {}, dist = DIST) =>
  start('server/main.js', workers, /listening on/, nodeArgs, ipc, env, dist)

/** The bare Koa echo (bench/echo.ts). */
export const startEcho = (workers: number) => start('bench/echo.js', workers, /echo listening/)
