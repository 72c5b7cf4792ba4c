/**
 * @module `npm run bench`: the in-process micro bench (start-up, one evaluation per rule set and
 * endpoint class, the golden replay), then the load bench against the bare Koa echo, one process and
 * all cores, and the mixed run (state requests beside QTIP searches, on the pool and without it). Prints both tables and writes them as JSON to bench/results/latest.json; bench/README.md
 * records the figures of a run and whether each target holds.
 *
 * Environment: BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (50), BENCH_ONLY (a pattern of endpoint
 * classes), BENCH_SKIP_LOAD=1 or BENCH_SKIP_MICRO=1 to run one half.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../engine/project/paths.js'
import { authBench, defaultLoadOptions, formatAuth, formatLoad, formatMixed, loadBench, mixedBench, type AuthRow, type LoadRow, type MixedRow } from './load.js'
import { formatMicro, microBench, type MicroReport } from './micro.js'

let micro: MicroReport | undefined
let load: LoadRow[] | undefined
let mixed: MixedRow[] | undefined
let auth: AuthRow | undefined

if (process.env.BENCH_SKIP_MICRO !== '1') {
  micro = await microBench()
  console.log(formatMicro(micro) + '\n')
}
if (process.env.BENCH_SKIP_LOAD !== '1') {
  const options = defaultLoadOptions()
  load = await loadBench(options, (line) => console.error(line))
  console.log(formatLoad(load, options))
  mixed = await mixedBench(options, (line) => console.error(line))
  console.log('\n' + formatMixed(mixed, options))
  auth = await authBench(options, (line) => console.error(line))
  console.log('\n' + formatAuth(auth))
}

mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
writeFileSync(join(ROOT, 'bench', 'results', 'latest.json'), JSON.stringify({ micro, load, mixed, auth }, null, 2) + '\n')
const missed = [...(micro?.rows ?? []).filter((r) => r.holds === false).map((r) => r.name), ...(load ?? []).filter((r) => r.holds === false).map((r) => r.name), ...(auth && !auth.holds ? ['authenticated throughput beside a bad-key flood'] : [])]
console.log(missed.length ? `\ntargets missed: ${missed.join('; ')}` : '\nevery target holds')
