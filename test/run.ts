/**
 * @module The test runner: every `*.test.js` under dist/test, spread over a few long-lived test
 * processes (test/run-files.ts), longest file first; a line per file as it finishes (its time, its
 * counts, and its whole output when it failed or skipped something); then one plain closing line
 * `N passed, N failed` (and `, N skipped`), added up over every file. Exits 1 on any failure or
 * when no test ran.
 *
 * Scheduling: each file's duration from the last run on this machine (dist/test/durations.json,
 * written at the end of every run) or else from the committed test/durations.json (a copy of one
 * whole run's, to refresh when a whole run says files are missing from it); a file in neither
 * counts as the median. The longest files
 * start first and each process takes the next file when it is free, so a long file never waits
 * behind a queue of short ones.
 *
 *   TEST_LANES=N              processes (default: the cores plus one, since many files wait on
 *                             servers, browsers and child processes rather than compute)
 *   TEST_FILE_TIMEOUT_MS=N    a file that runs longer fails and its process is replaced (1800000:
 *                             the date property takes minutes of CPU, and many more on a loaded machine)
 *   node dist/test/run.js server/   only the files whose path (under dist/test) contains a word given
 *
 * A whole run also runs the rule check (dist/tools/check-rules.js) beside the first files instead of
 * before them (its seconds of loading were the run's alone): its line is printed when it ends, and
 * a rule check that fails stops the run, counted as one failure, as `npm test` stopped before.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FileResult } from './run-files.js'
import { CACHE_DIR as YAML_CACHE } from '../engine/load/source.js'
import { CACHE_DIR as VALIDATOR_CACHE } from '../engine/load/validator-cache.js'
import { FILE as FORMULA_CACHE } from '../engine/load/formula-cache.js'
import { DATASET_CACHE_DIR } from '../engine/data/store.js'

const here = dirname(fileURLToPath(import.meta.url))
const started = performance.now()
const filters = process.argv.slice(2)
const files: string[] = []
// tsc never deletes: a test file removed from test/ leaves its build in dist/test, which is not run.
const SOURCE = join(here, '..', '..', 'test')
const stale: string[] = []
const walk = (d: string) => {
  for (const name of readdirSync(d).sort()) {
    const full = join(d, name)
    if (statSync(full).isDirectory()) walk(full)
    else if (name.endsWith('.test.js') && (filters.length === 0 || filters.some((w) => relative(here, full).includes(w)))) {
      if (existsSync(join(SOURCE, relative(here, full).replace(/\.js$/, '.ts')))) files.push(full)
      else stale.push(relative(here, full))
    }
  }
}
walk(here)

// Tests check behaviour, the bench checks speed: the step budget decides every refusal, and the clock
// is only the service's 30-second backstop (a 503); the golden cases run without it (tools/golden.ts
// stepsOnly), and the other test processes get a wider one unless the caller sets WORK_LIMIT_MS, so a
// very loaded machine does not turn a long test into a 503. The tests of the limits set their own.
//
// Every scratch folder the tests make (key stores, copies of the rules of some 10 MB each, data
// fixtures: mkdtemp under the temporary folder) goes in one folder of this run, removed at its end;
// a run used to leave some 60 MB behind. The caches kept between runs are linked into it from the
// system's temporary folder, so the tests still find them warm.
const systemTmp = tmpdir()
const scratch = mkdtempSync(join(systemTmp, 'rules-as-code-test-'))
// Open to every user, as the system's temporary folder is: the PostgreSQL test runs initdb as the
// postgres user in a folder of its own under it.
chmodSync(scratch, 0o1777)
for (const cache of [YAML_CACHE, VALIDATOR_CACHE, dirname(FORMULA_CACHE), DATASET_CACHE_DIR]) {
  mkdirSync(cache, { recursive: true })
  symlinkSync(cache, join(scratch, basename(cache)))
}
const testEnv = { ...process.env, TMPDIR: scratch, WORK_LIMIT_MS: process.env.WORK_LIMIT_MS ?? '120000' }

const positive = (name: string, fallback: number): number => {
  const n = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, not ${JSON.stringify(process.env[name])}`)
  return n
}
const timeoutMs = positive('TEST_FILE_TIMEOUT_MS', 1_800_000)

// The durations measured last, in milliseconds by path under dist/test.
const LOCAL = join(here, 'durations.json')
const COMMITTED = join(SOURCE, 'durations.json')
interface Timing {
  ms: number
  cpu_ms: number
}
/** The durations a file holds (this machine's last figures go over the committed ones, file by file). */
function readDurations(path: string): Record<string, Timing> {
  try {
    if (!existsSync(path)) return {}
    const all = JSON.parse(readFileSync(path, 'utf8')) as Record<string, Partial<Timing>>
    return Object.fromEntries(Object.entries(all).filter((e): e is [string, Timing] => typeof e[1]?.ms === 'number'))
  } catch {
    // A damaged file only costs the scheduling its hints.
    return {}
  }
}
const committed = readDurations(COMMITTED)
const known = { ...committed, ...readDurations(LOCAL) }
const name = (f: string) => relative(here, f)
const measured = Object.values(known).map((t) => t.ms).sort((a, b) => a - b)
const median = measured[Math.floor(measured.length / 2)] ?? 1000
const expected = (f: string) => known[name(f)]?.ms ?? median
const queue = [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b))

const lanes = Math.min(positive('TEST_LANES', availableParallelism() + 1), Math.max(1, queue.length))
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`.padStart(7)

let [passed, failed, skipped, done] = [0, 0, 0, 0]
const durations: Record<string, Timing> = {}
let cpuTotal = 0
const running = new Map<string, number>()
let lastReport = performance.now()

/** Count one file's result and print its line (and its output when it failed or skipped). */
function report(r: FileResult, problem?: string) {
  done++
  lastReport = performance.now()
  durations[name(r.file)] = { ms: Math.round(r.ms), cpu_ms: Math.round(r.cpuMs) }
  cpuTotal += r.cpuMs
  // uvu counts a skipped test in neither Total nor Passed: what ran and did not pass failed, and a
  // file that ran no test at all, or whose process died under it, counts as one failure at least.
  const failures = Math.max(r.total - r.passed, problem || r.total + r.skipped === 0 ? 1 : 0)
  passed += r.passed
  failed += failures
  skipped += r.skipped
  const counts = `${r.passed} passed${failures ? `, ${failures} failed` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}`
  const status = failures ? 'FAIL' : 'ok  '
  console.log(`${status} ${seconds(r.ms)} (cpu ${seconds(r.cpuMs).trim()})  [${String(done).padStart(String(files.length).length)}/${files.length}] ${name(r.file)}  (${counts})${problem ? `: ${problem}` : ''}`)
  if (failures || r.skipped) process.stdout.write(r.output.replace(/^/gm, '     | ') + '\n')
}

const lanesRunning = new Set<ChildProcess>()
let stopped = false

/** The rule check, in a process of its own; resolves whether it passed, after printing what it said. */
function ruleCheck(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, '..', 'tools', 'check-rules.js')], { stdio: ['ignore', 'pipe', 'pipe'], env: testEnv })
    let said = ''
    child.stdout.on('data', (d: Buffer) => (said += d.toString()))
    child.stderr.on('data', (d: Buffer) => (said += d.toString()))
    child.on('error', (error) => (said += `${error.message}\n`))
    child.on('close', (code) => {
      process.stdout.write(said.endsWith('\n') || said === '' ? said : `${said}\n`)
      if (code === 0) return resolve(true)
      // Every test would fail on the same load problems: stop, as `npm test` stopped at the check.
      console.log(`FAIL rule check (exit ${code}): the tests are stopped`)
      stopped = true
      failed++
      queue.splice(0)
      for (const child of lanesRunning) child.kill('SIGKILL')
      resolve(false)
    })
  })
}

/** One test process: takes the next file from the queue whenever it is free, until none is left. */
function lane(): Promise<void> {
  return new Promise((resolve) => {
    if (stopped) return resolve()
    const child = fork(join(here, 'run-files.js'), [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: testEnv })
    lanesRunning.add(child)
    let current: { file: string; since: number; stray: string; timer: NodeJS.Timeout } | undefined
    // What the process writes outside uvu's hold (its own child processes, a late log line) goes
    // with the file it is running.
    const stray = (d: Buffer) => {
      if (current) current.stray += d.toString()
    }
    child.stdout!.on('data', stray)
    child.stderr!.on('data', stray)
    // A message sent to a process that has just died fails here; its 'exit' below counts the file.
    child.on('error', () => {})
    const next = () => {
      const file = queue.shift()
      if (!file) {
        current = undefined
        child.send({ done: true })
        return
      }
      const timer = setTimeout(() => {
        if (current?.file === file) child.kill('SIGKILL')
      }, timeoutMs)
      current = { file, since: performance.now(), stray: '', timer }
      running.set(name(file), current.since)
      child.send({ file })
    }
    child.on('message', (m: FileResult | { ready: true }) => {
      if ('ready' in m) return next()
      if (!current || m.file !== current.file) return
      clearTimeout(current.timer)
      running.delete(name(m.file))
      report({ ...m, output: m.output + current.stray })
      next()
    })
    child.on('exit', (code, signal) => {
      lanesRunning.delete(child)
      if (current && stopped) {
        clearTimeout(current.timer)
        running.delete(name(current.file))
        current = undefined
      }
      if (current) {
        // The process died under a file (a crash, or the timeout): that file fails, and a new
        // process takes the rest of the queue.
        clearTimeout(current.timer)
        running.delete(name(current.file))
        const ms = performance.now() - current.since
        const why = ms >= timeoutMs ? `timed out after ${seconds(timeoutMs).trim()}` : `its test process exited (${signal ?? `code ${code}`})`
        report({ file: current.file, total: 0, passed: 0, skipped: 0, ms, cpuMs: 0, output: current.stray }, why)
        current = undefined
        if (queue.length > 0) return void lane().then(resolve)
      }
      resolve()
    })
  })
}

console.log(`${files.length} test files in ${lanes} processes, longest first${stale.length ? ` (not run, no source in test/: ${stale.join(', ')})` : ''}`)
// A CI log is never silent for long: every 30 s without a file finishing, say which are running.
const heartbeat = setInterval(() => {
  if (performance.now() - lastReport < 30_000 || running.size === 0) return
  lastReport = performance.now()
  const now = performance.now()
  console.log(`     still running: ${[...running].map(([f, since]) => `${f} (${seconds(now - since).trim()})`).join(', ')}`)
}, 5_000)
const checked = filters.length === 0 ? ruleCheck() : Promise.resolve(true)
await Promise.all([checked, ...Array.from({ length: lanes }, lane)])
clearInterval(heartbeat)
// Files no process could take (every one died before asking) fail rather than vanish from the count.
for (const file of queue.splice(0)) report({ file, total: 0, passed: 0, skipped: 0, ms: 0, cpuMs: 0, output: '' }, 'no test process ran it')

try {
  // Only a whole run's figures replace the hints: a filtered run keeps the others.
  writeFileSync(LOCAL, JSON.stringify(Object.fromEntries(Object.entries({ ...known, ...durations }).sort(([a], [b]) => a.localeCompare(b))), null, 2) + '\n')
} catch {
  // The hints are a convenience; a read-only dist/ only loses them.
}
console.log(`\n${files.length} files in ${seconds(performance.now() - started).trim()}, ${seconds(cpuTotal).trim()} of CPU in the test processes`)
// A clean clone knows only the committed durations: a file missing there starts as the median, and
// a long one started late is the run's tail (guard, playground and dev took the last minutes so).
const unhinted = files.map(name).filter((f) => !(f in committed))
if (unhinted.length > 0 && filters.length === 0) {
  console.log(`${unhinted.length} files have no duration in test/durations.json (${unhinted.slice(0, 5).join(', ')}${unhinted.length > 5 ? ', …' : ''}): copy dist/test/durations.json there so a clean clone starts them in their place`)
}
// The links go, not the caches they point to (rm does not follow them).
rmSync(scratch, { recursive: true, force: true })
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (passed + failed === 0 || failed > 0) process.exitCode = 1
