/**
 * @module The test runner: every `*.test.js` under dist/test, in parallel processes (one per core),
 * the slow end-to-end files (a browser, a cluster, the replay tool on a git checkout, MCP over both
 * transports) in a group of their own; then one plain closing line `N passed, N failed` (and
 * `, N skipped`), added up over every process. Exits 1 on any failure or when no test ran.
 *
 * Each process's output is printed whole when it ends, so one file's failures read together.
 */
import { spawn } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const files: string[] = []
const walk = (d: string) => {
  for (const name of readdirSync(d).sort()) {
    const full = join(d, name)
    if (statSync(full).isDirectory()) walk(full)
    else if (name.endsWith('.test.js')) files.push(full)
  }
}
walk(here)

// Tests check behaviour, the bench checks speed: on a loaded machine a long golden case (the pension
// lump sum's searches) may run past the service's 5-second wall-clock limit, so the processes get a
// wide one unless the caller sets WORK_LIMIT_MS. The step limit, which is deterministic, is unchanged;
// the tests of the limits themselves set their own.
const testEnv = { ...process.env, WORK_LIMIT_MS: process.env.WORK_LIMIT_MS ?? '120000' }

/** Files that start servers, browsers or child processes and take seconds each. */
const SLOW = /(server\/(docs|cluster|mcp|port)|tools\/replay|golden)\.test\.js$/
const slow = files.filter((f) => SLOW.test(relative(here, f)))
const rest = files.filter((f) => !SLOW.test(relative(here, f)))

// The rest in as many groups as there are cores beside the slow group, balanced by file size.
const lanes = Math.max(1, availableParallelism() - (slow.length > 0 ? 1 : 0))
const groups: string[][] = Array.from({ length: lanes }, () => [])
const weight = new Array<number>(lanes).fill(0)
for (const f of [...rest].sort((a, b) => statSync(b).size - statSync(a).size)) {
  const i = weight.indexOf(Math.min(...weight))
  groups[i]!.push(f)
  weight[i]! += statSync(f).size
}
if (slow.length > 0) groups.push(slow)

interface Tally {
  total: number
  passed: number
  skipped: number
  ok: boolean
}

function runGroup(group: string[]): Promise<Tally> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, 'run-files.js'), ...group], { stdio: ['ignore', 'pipe', 'pipe'], env: testEnv })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('close', (code) => {
      const m = /uvu-summary (\d+) (\d+) (\d+)/.exec(out)
      process.stdout.write(out.replace(/uvu-summary .*\n?/, ''))
      const [total, passed, skipped] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0]
      resolve({ total, passed, skipped, ok: code === 0 && m !== null })
    })
  })
}

const tallies = await Promise.all(groups.filter((g) => g.length > 0).map(runGroup))
const total = tallies.reduce((s, t) => s + t.total, 0)
const passed = tallies.reduce((s, t) => s + t.passed, 0)
const skipped = tallies.reduce((s, t) => s + t.skipped, 0)
// uvu counts a skipped test in neither Total nor Passed: what ran and did not pass failed, and a
// process that crashed before its summary counts as one failure at least.
const failed = Math.max(0, total - passed) + tallies.filter((t) => !t.ok && t.total === t.passed).length
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (total === 0 || failed > 0) process.exitCode = 1
