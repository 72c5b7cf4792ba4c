/**
 * @module One test process, reused for many files so that each process loads the catalog once.
 *
 * Started by test/run.ts with an IPC channel, it runs the file each message names (`{ file }`) and
 * answers `{ file, total, passed, skipped, ms, output }`, then waits for the next; a file's output is
 * held and sent with its answer, so one file's failures read together. Run by hand,
 * `node dist/test/run-files.js a.test.js b.test.js` runs the files named, prints their output, then
 * a line `uvu-summary total passed skipped`, and exits 1 on any failure.
 */
import { relative, dirname, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

export interface FileResult {
  file: string
  total: number
  passed: number
  skipped: number
  /** Wall-clock time, and the CPU time of this process (all its threads, not its child processes). */
  ms: number
  cpuMs: number
  output: string
}

// uvu queues the suites of a file instead of running them when UVU_DEFER is set before it loads.
const g = globalThis as { UVU_DEFER?: number; UVU_QUEUE?: unknown[][]; UVU_INDEX?: number }
g.UVU_DEFER = 1
g.UVU_QUEUE = []
const { exec } = await import('uvu')

/** Run one test file's suites, holding what it prints. @api private */
async function runFile(file: string): Promise<FileResult> {
  const started = performance.now()
  const cpu = process.cpuUsage()
  const cpuMs = () => {
    const used = process.cpuUsage(cpu)
    return (used.user + used.system) / 1000
  }
  let output = ''
  const [out, err] = [process.stdout.write.bind(process.stdout), process.stderr.write.bind(process.stderr)]
  const hold = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    output += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined
    done?.()
    return true
  }) as typeof process.stdout.write
  process.stdout.write = hold
  process.stderr.write = hold
  g.UVU_QUEUE = [[relative(here, file)]]
  g.UVU_INDEX = 0
  try {
    await import(pathToFileURL(file).href)
    await exec()
  } catch (error) {
    // A file that throws while loading, or from a hook outside any test (an \`after\` closing what a
    // failed \`before\` never opened), loses uvu's count: it counts as one failure.
    output += `\n${relative(here, file)} threw outside a test: ${(error as Error)?.stack ?? String(error)}\n`
    return { file, total: 1, passed: 0, skipped: 0, ms: performance.now() - started, cpuMs: cpuMs(), output }
  } finally {
    process.stdout.write = out
    process.stderr.write = err
  }
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '')
  const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(plain)?.[1] ?? 0)
  return { file, total: count('Total'), passed: count('Passed'), skipped: count('Skipped'), ms: performance.now() - started, cpuMs: cpuMs(), output }
}

if (process.send) {
  const send = process.send.bind(process)
  // One file at a time: the next message waits until this file's answer is sent.
  let chain = Promise.resolve()
  process.on('message', (message: { file?: string }) => {
    if (!message.file) {
      process.exit(0)
    }
    const file = message.file
    chain = chain.then(async () => {
      const result = await runFile(file)
      // uvu sets process.exitCode per file; the parent counts failures itself.
      process.exitCode = 0
      await new Promise<void>((done) => send(result, () => done()))
    })
  })
  send({ ready: true })
} else {
  let [total, passed, skipped] = [0, 0, 0]
  for (const file of process.argv.slice(2).map((f) => resolve(f))) {
    const r = await runFile(file)
    process.stdout.write(r.output)
    total += r.total
    passed += r.passed
    skipped += r.skipped
  }
  console.log(`uvu-summary ${total} ${passed} ${skipped}`)
  process.exitCode = total === 0 || passed < total ? 1 : 0
}
