/**
 * @module `npm run bench`: the in-process micro bench (start-up, one evaluation per rule set and
 * endpoint class, the golden replay), then the load bench against the bare Koa echo, one process and
 * all cores, and the mixed run (state requests beside QTIP searches, on the pool and without it). Prints both tables and writes them as JSON to bench/results/latest.json; bench/README.md
 * records the figures of a run and whether each target holds.
 *
 * Every run records the commit (and whether the tree is dirty), Node, the cores and the load average
 * before and after, and measures a baseline build (BENCH_BASELINE, bench/baseline.ts) beside this one.
 *
 * Environment: BENCH_BASELINE (a git revision, 990ff95 by default; `none`), BENCH_SECONDS (5 per run),
 * BENCH_ROUNDS (3), BENCH_CONNECTIONS (50), BENCH_WORKERS (process counts, "1,2"), BENCH_ONLY (a
 * pattern of endpoint classes and micro rows), BENCH_SKIP_LOAD=1 or BENCH_SKIP_MICRO=1 to run one
 * half, BENCH_SKIP_MIXED=1 and BENCH_SKIP_AUTH=1 to leave out those runs, BENCH_STARTUP_RUNS (7 fresh
 * processes of each build for the cold start-up).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../service/project/paths.js'
import { finishRunInfo, prepareBaseline, runInfo } from './baseline.js'
import { authBench, defaultLoadOptions, formatAuth, formatLoad, formatMixed, loadBench, mixedBench, type AuthRow, type LoadRow, type MixedRow } from './load.js'
import { formatMicro, microBench, type MicroReport } from './micro.js'

let micro: MicroReport | undefined
let load: LoadRow[] | undefined
let mixed: MixedRow[] | undefined
let auth: AuthRow | undefined

const run = runInfo()
const baseline = prepareBaseline((line) => console.error(line))
if (baseline) run.baseline = { rev: baseline.rev, commit: baseline.commit, dir: baseline.dir }
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined
console.log(
  `bench run: commit ${run.commit.slice(0, 12)}${run.dirty ? ' (dirty: uncommitted changes measured)' : ''}, node ${run.node}, ${run.cores} cores (${run.cpu_model}), ` +
    `load average ${run.load_before.join(' / ')} at start; baseline ${baseline ? `${baseline.rev} (${baseline.commit.slice(0, 12)})` : 'none'}\n`,
)

if (process.env.BENCH_SKIP_MICRO !== '1') {
  micro = await microBench({ baseline, only, startupRuns: process.env.BENCH_STARTUP_RUNS ? Number(process.env.BENCH_STARTUP_RUNS) : undefined })
  console.log(formatMicro(micro) + '\n')
}
if (process.env.BENCH_SKIP_LOAD !== '1') {
  const options = { ...defaultLoadOptions(), baselineDist: baseline?.dist }
  load = await loadBench(options, (line) => console.error(line))
  console.log(formatLoad(load, options))
  if (process.env.BENCH_SKIP_MIXED !== '1') {
    mixed = await mixedBench(options, (line) => console.error(line))
    console.log('\n' + formatMixed(mixed, options))
  }
  if (process.env.BENCH_SKIP_AUTH !== '1') {
    auth = await authBench(options, (line) => console.error(line))
    console.log('\n' + formatAuth(auth))
  }
}

finishRunInfo(run)
console.log(`\nload average ${run.load_after!.join(' / ')} at the end (${run.load_before.join(' / ')} at the start)`)
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), JSON.stringify({ run, micro, load, mixed, auth }, null, 2) + '\n')
const missed = [...(micro?.rows ?? []).filter((r) => r.holds === false).map((r) => r.name), ...(load ?? []).filter((r) => r.holds === false).map((r) => r.name), ...(auth && !auth.holds ? ['authenticated throughput beside a bad-key flood'] : [])]
console.log(missed.length ? `\ntargets missed: ${missed.join('; ')}` : '\nevery target holds')
