/**
 * @module The load bench: for each endpoint class, the bare Koa echo and then the service, driven in
 * turn by autocannon at fixed concurrency on loopback, in the same run, so the ratio holds on a
 * noisy machine. Single process and all cores.
 */
import autocannon from 'autocannon'
import { availableParallelism } from 'node:os'
import { startEcho, startService, type Running } from './processes.js'
import { BENCH_REQUESTS, type BenchRequest } from './requests.js'

export interface Measured {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

/** One target's rounds, and the round of median req/s, whose figures the row reports. */
export interface Rounds extends Measured {
  rounds: Measured[]
}

export interface LoadRow {
  name: string
  workers: number
  echo: Rounds
  service: Rounds
  /** The baseline build's service, measured in the same rounds (absent without a baseline, or where it refused the request). */
  baseline?: Rounds
  /** Service req/s ÷ echo req/s. */
  ratio: number
  /** Service p99 ÷ echo p99. */
  p99Multiple: number
  /** Baseline req/s ÷ echo req/s, and service req/s ÷ baseline req/s. */
  baselineRatio?: number
  serviceToBaseline?: number
  target?: BenchRequest['target']
  /** Each half of the target, and both. */
  ratioHolds?: boolean
  p99Holds?: boolean
  holds?: boolean
}

export interface LoadOptions {
  seconds: number
  connections: number
  /** Rounds: echo, service and baseline are driven in turn, once each per round. */
  rounds: number
  /** Process counts to measure: 1 and the core count by default. */
  workers: number[]
  only?: RegExp
  /** The baseline build's dist folder (bench/baseline.ts). */
  baselineDist?: string
}

export const defaultLoadOptions = (): LoadOptions => ({
  seconds: Number(process.env.BENCH_SECONDS ?? 5),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  workers: process.env.BENCH_WORKERS ? process.env.BENCH_WORKERS.split(',').map(Number) : [...new Set([1, availableParallelism()])],
  only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined,
})

/** A body whose `vary` field grows by one on each request (BenchRequest.vary), from where the last run left it. */
let varied = 0
function varying(body: Record<string, unknown>, field: string): () => string {
  const start = Number(body[field])
  return () => JSON.stringify({ ...body, [field]: start + varied++ })
}

async function drive(url: string, body: string | (() => string), headers: Record<string, string>, seconds: number, connections: number, warm = true): Promise<Measured> {
  const fixed = { url, method: 'POST' as const, headers: { 'content-type': 'application/json', ...headers }, connections }
  const options = typeof body === 'string' ? { ...fixed, body } : { ...fixed, requests: [{ setupRequest: (request: object) => ({ ...request, body: body() }) }] }
  if (warm) await autocannon({ ...options, duration: 1 }) // warm-up: JIT, connection set-up
  const r = await autocannon({ ...options, duration: seconds })
  // Answers with a 2xx only, as ab-bench counts: a server that answers errors quickly is not fast.
  return { rps: r['2xx'] / (r.duration || seconds), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts }
}

/** The round of median req/s stands for the target; every round is kept. */
function medianRound(rounds: Measured[]): Rounds {
  const sorted = [...rounds].sort((a, b) => a.rps - b.rps)
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, rounds }
}

async function post(url: string, key: string, body: string): Promise<{ status: number; text: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body })
  return { status: r.status, text: await r.text() }
}

/**
 * For each endpoint class: the bare echo, the service and the baseline build's service, each driven
 * in turn in every round (as /work/shared/tools/ab-bench.mjs does), so that a burst of other work
 * lands on all of them alike; each reports its median round.
 */
export async function loadBench(options: LoadOptions = defaultLoadOptions(), log: (line: string) => void = () => {}): Promise<LoadRow[]> {
  const rows: LoadRow[] = []
  for (const workers of options.workers) {
    // Whatever started is stopped, even when a later server fails to start.
    let echo: Running | undefined, service: Running | undefined, baseline: Running | undefined
    try {
      echo = await startEcho(workers)
      service = await startService(workers)
      baseline = options.baselineDist ? await startService(workers, [], false, {}, options.baselineDist) : undefined
      for (const request of BENCH_REQUESTS) {
        if (options.only && !options.only.test(request.name)) continue
        const body = JSON.stringify(request.body)
        const sample = await post(service.url + request.path, service.key, body)
        if (sample.status !== 200) throw new Error(`${request.name}: the service answered ${sample.status}`)
        const bytes = sample.text.length
        // A baseline that refuses the request (a field it did not know yet) has no figure for this class.
        const before = baseline ? await post(baseline.url + request.path, baseline.key, body) : undefined
        if (before && before.status !== 200) log(`  ${request.name}: the baseline answered ${before.status}; no baseline figure`)
        const targets = [
          { who: 'echo', url: `${echo.url}/echo?bytes=${bytes}`, headers: {} as Record<string, string>, runs: [] as Measured[] },
          { who: 'service', url: service.url + request.path, headers: { 'x-api-key': service.key }, runs: [] as Measured[] },
          ...(baseline && before?.status === 200 ? [{ who: 'baseline', url: baseline.url + request.path, headers: { 'x-api-key': baseline.key }, runs: [] as Measured[] }] : []),
        ]
        const where = `${request.name}, ${workers} process${workers > 1 ? 'es' : ''}`
        for (let round = 1; round <= options.rounds; round++) {
          for (const t of targets) {
            log(`  ${where}, round ${round}: ${t.who}…`)
            t.runs.push(await drive(t.url, request.vary ? varying(request.body, request.vary) : body, t.headers, options.seconds, options.connections, round === 1))
          }
        }
        const [e, s, b] = targets.map((t) => medianRound(t.runs))
        const row: LoadRow = { name: request.name, workers, echo: e!, service: s!, ratio: s!.rps / e!.rps, p99Multiple: s!.p99 / Math.max(e!.p99, 1) }
        if (b) {
          row.baseline = b
          row.baselineRatio = b.rps / e!.rps
          row.serviceToBaseline = s!.rps / b.rps
        }
        // The issue's targets are for one process.
        if (request.target && workers === 1) {
          row.target = request.target
          row.ratioHolds = row.ratio >= request.target.minRatio
          row.p99Holds = row.p99Multiple <= request.target.maxP99Multiple
          row.holds = row.ratioHolds && row.p99Holds && s!.non2xx === 0 && s!.errors === 0
        }
        rows.push(row)
      }
    } finally {
      await baseline?.stop()
      await service?.stop()
      await echo?.stop()
    }
  }
  return rows
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length))
const num = (n: number, digits = 0) => n.toFixed(digits)
const pct = (n: number | undefined) => (n === undefined ? '' : `${num(n * 100)}%`)

export function formatLoad(rows: LoadRow[], options: LoadOptions): string {
  const lines = [
    `Load: autocannon, ${options.connections} connections, ${options.rounds} rounds of ${options.seconds} s per server (echo, service, baseline in turn; 1 s warm-up in the first), loopback; ${availableParallelism()} cores; each figure the round of median req/s`,
    '',
    `${pad('endpoint class', 28)} ${pad('procs', 5)} ${pad('echo rps', 8)} ${pad('p50/p99', 8)} ${pad('svc rps', 8)} ${pad('p50/p99', 8)} ${pad('base rps', 8)} ${pad('p50/p99', 8)} ${pad('svc/echo', 8)} ${pad('base/echo', 9)} ${pad('svc/base', 8)} ${pad('p99 ×echo', 9)} ${pad('≥70% echo', 9)} ${pad('p99 ≤1.5×', 9)}`,
  ]
  const verdict = (v: boolean | undefined) => (v === undefined ? '' : v ? 'pass' : 'FAIL')
  for (const r of rows) {
    const faults = [r.service, r.baseline].map((m, i) => (m && (m.non2xx || m.errors) ? `  (${i ? 'baseline' : 'service'}: ${m.non2xx} non-2xx, ${m.errors} errors)` : '')).join('')
    lines.push(
      `${pad(r.name, 28)} ${pad(String(r.workers), 5)} ${pad(num(r.echo.rps), 8)} ${pad(`${r.echo.p50}/${r.echo.p99}`, 8)} ${pad(num(r.service.rps), 8)} ${pad(`${r.service.p50}/${r.service.p99}`, 8)} ` +
        `${pad(r.baseline ? num(r.baseline.rps) : '', 8)} ${pad(r.baseline ? `${r.baseline.p50}/${r.baseline.p99}` : '', 8)} ${pad(pct(r.ratio), 8)} ${pad(pct(r.baselineRatio), 9)} ${pad(r.serviceToBaseline === undefined ? '' : num(r.serviceToBaseline, 2), 8)} ` +
        `${pad(num(r.p99Multiple, 2), 9)} ${pad(verdict(r.ratioHolds), 9)} ${pad(verdict(r.p99Holds), 9)}${faults}`,
    )
  }
  return lines.join('\n')
}

export interface MixedRow {
  /** How the QTIP requests are answered: on the pool's thread, or on the request's own thread. */
  qtip: 'worker thread' | 'in-process'
  /** State requests alone, then with QTIP requests sent beside them. */
  stateAlone: Measured
  stateBeside: Measured
  qtipBeside: Measured
}

/**
 * Cheap and heavy requests together, one process: state requests at the usual concurrency, alone
 * and then beside a few connections of QTIP searches, with the QTIP endpoint on the evaluation pool
 * and (EVALUATION_THREADS=0) on the event loop. Whether a search collapses the latency of cheap
 * requests shows in the state p99.
 */
export async function mixedBench(options: LoadOptions = defaultLoadOptions(), log: (line: string) => void = () => {}): Promise<MixedRow[]> {
  const state = BENCH_REQUESTS.find((r) => r.path === '/estate/calculate-state-tax')!
  const qtip = BENCH_REQUESTS.find((r) => r.path === '/estate/optimize-qtip-election')!
  const rows: MixedRow[] = []
  for (const [label, threads] of [['worker thread', '1'], ['in-process', '0']] as const) {
    const service = await startService(1, [], false, { EVALUATION_THREADS: threads })
    try {
      const headers = { 'x-api-key': service.key }
      // One search first: the pool's thread has loaded its catalog and is warm before anything is timed.
      await fetch(service.url + qtip.path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(qtip.body) })
      log(`  mixed, QTIP ${label}: state alone…`)
      const stateAlone = await drive(service.url + state.path, JSON.stringify(state.body), headers, options.seconds, options.connections)
      log(`  mixed, QTIP ${label}: state beside QTIP…`)
      const [stateBeside, qtipBeside] = await Promise.all([
        drive(service.url + state.path, JSON.stringify(state.body), headers, options.seconds, options.connections),
        drive(service.url + qtip.path, JSON.stringify(qtip.body), headers, options.seconds, 4),
      ])
      rows.push({ qtip: label, stateAlone, stateBeside, qtipBeside })
    } finally {
      await service.stop()
    }
  }
  return rows
}

export function formatMixed(rows: MixedRow[], options: LoadOptions): string {
  const lines = [
    `Mixed: state requests (${options.connections} connections) alone, then beside QTIP searches (4 connections); one process`,
    '',
    `${pad('QTIP answered on', 16)} ${pad('state alone rps', 15)} ${pad('p50/p99 ms', 11)} ${pad('state beside rps', 16)} ${pad('p50/p99 ms', 11)} ${pad('QTIP rps', 8)} QTIP p50/p99 ms`,
  ]
  for (const r of rows) {
    lines.push(
      `${pad(r.qtip, 16)} ${pad(num(r.stateAlone.rps), 15)} ${pad(`${r.stateAlone.p50}/${r.stateAlone.p99}`, 11)} ${pad(num(r.stateBeside.rps), 16)} ${pad(`${r.stateBeside.p50}/${r.stateBeside.p99}`, 11)} ${pad(num(r.qtipBeside.rps, 1), 8)} ${r.qtipBeside.p50}/${r.qtipBeside.p99}`,
    )
  }
  return lines.join('\n')
}

export interface AuthRow {
  alone: Measured
  beside: Measured
  flood: Measured
  /** Authenticated req/s beside the flood ÷ alone (target: at least 0.9). */
  ratio: number
  holds: boolean
}

/**
 * Authenticated state requests alone, then beside a flood of requests with well-formed but wrong
 * keys (20 connections), one process. The failed-auth limit is off for this run
 * (AUTH_FAILURES_PER_MINUTE=0): every client here is 127.0.0.1, and what is measured is what a
 * refused key costs the server, not the limit.
 */
export async function authBench(options: LoadOptions = defaultLoadOptions(), log: (line: string) => void = () => {}): Promise<AuthRow> {
  const state = BENCH_REQUESTS.find((r) => r.path === '/estate/calculate-state-tax')!
  const service = await startService(1, [], false, { AUTH_FAILURES_PER_MINUTE: '0', EVALUATION_THREADS: '0' })
  try {
    const body = JSON.stringify(state.body)
    // Alone and beside the flood in alternating rounds, the median round of each: the load generator
    // shares the machine's cores, and one pair of runs swings by half either way.
    const rounds: { alone: Measured; beside: Measured; flood: Measured }[] = []
    for (let round = 0; round < 5; round++) {
      log(`  auth, round ${round + 1}: authenticated requests alone, then beside a bad-key flood…`)
      const alone = await drive(service.url + state.path, body, { 'x-api-key': service.key }, options.seconds, options.connections)
      const [beside, flood] = await Promise.all([
        drive(service.url + state.path, body, { 'x-api-key': service.key }, options.seconds, options.connections),
        drive(service.url + state.path, body, { 'x-api-key': `kNoSuchKey.${'A'.repeat(43)}` }, options.seconds, 20),
      ])
      rounds.push({ alone, beside, flood })
    }
    const median = (pick: (r: (typeof rounds)[number]) => Measured) => [...rounds].sort((a, b) => pick(a).rps - pick(b).rps)[Math.floor(rounds.length / 2)]!
    const alone = median((r) => r.alone).alone
    const { beside, flood } = median((r) => r.beside)
    const ratio = beside.rps / alone.rps
    return { alone, beside, flood, ratio, holds: ratio >= 0.9 }
  } finally {
    await service.stop()
  }
}

export function formatAuth(row: AuthRow): string {
  return [
    'Authentication: state requests with a good key alone, then beside a flood of wrong keys (20 connections); one process; the median of 5 alternating rounds',
    `alone ${num(row.alone.rps)} req/s (p99 ${row.alone.p99} ms); beside the flood ${num(row.beside.rps)} req/s (p99 ${row.beside.p99} ms); ` +
      `the flood got ${num(row.flood.rps)} answers/s (all 401); ratio ${num(row.ratio * 100)}% (target ≥ 90%: ${row.holds ? 'holds' : 'MISSED'})`,
  ].join('\n')
}
