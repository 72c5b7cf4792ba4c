/**
 * @module The load bench: for each endpoint class, the bare Koa echo and then the service, driven in
 * turn by autocannon at fixed concurrency on loopback, in the same run, so the ratio holds on a
 * noisy machine. Single process and all cores.
 */
import autocannon from 'autocannon'
import { availableParallelism } from 'node:os'
import { startEcho, startService } from './processes.js'
import { BENCH_REQUESTS, type BenchRequest } from './requests.js'

export interface Measured {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
}

export interface LoadRow {
  name: string
  workers: number
  echo: Measured
  service: Measured
  /** Service req/s ÷ echo req/s. */
  ratio: number
  /** Service p99 ÷ echo p99. */
  p99Multiple: number
  target?: BenchRequest['target']
  holds?: boolean
}

export interface LoadOptions {
  seconds: number
  connections: number
  /** Process counts to measure: 1 and the core count by default. */
  workers: number[]
  only?: RegExp
}

export const defaultLoadOptions = (): LoadOptions => ({
  seconds: Number(process.env.BENCH_SECONDS ?? 10),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
  workers: [...new Set([1, availableParallelism()])],
  only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined,
})

async function drive(url: string, body: string, headers: Record<string, string>, seconds: number, connections: number): Promise<Measured> {
  const options = { url, method: 'POST' as const, body, headers: { 'content-type': 'application/json', ...headers }, connections }
  await autocannon({ ...options, duration: 1 }) // warm-up: JIT, connection set-up
  const r = await autocannon({ ...options, duration: seconds })
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts }
}

export async function loadBench(options: LoadOptions = defaultLoadOptions(), log: (line: string) => void = () => {}): Promise<LoadRow[]> {
  const rows: LoadRow[] = []
  for (const workers of options.workers) {
    const echo = await startEcho(workers)
    const service = await startService(workers)
    try {
      for (const request of BENCH_REQUESTS) {
        if (options.only && !options.only.test(request.name)) continue
        const body = JSON.stringify(request.body)
        const sample = await fetch(service.url + request.path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': service.key }, body })
        const bytes = (await sample.text()).length
        if (sample.status !== 200) throw new Error(`${request.name}: the service answered ${sample.status}`)
        log(`  ${request.name}, ${workers} process${workers > 1 ? 'es' : ''}: echo…`)
        const e = await drive(`${echo.url}/echo?bytes=${bytes}`, body, {}, options.seconds, options.connections)
        log(`  ${request.name}, ${workers} process${workers > 1 ? 'es' : ''}: service…`)
        const s = await drive(service.url + request.path, body, { 'x-api-key': service.key }, options.seconds, options.connections)
        const ratio = s.rps / e.rps
        const p99Multiple = s.p99 / Math.max(e.p99, 1)
        const row: LoadRow = { name: request.name, workers, echo: e, service: s, ratio, p99Multiple }
        // The issue's targets are for one process.
        if (request.target && workers === 1) {
          row.target = request.target
          row.holds = ratio >= request.target.minRatio && p99Multiple <= request.target.maxP99Multiple && s.non2xx === 0 && s.errors === 0
        }
        rows.push(row)
      }
    } finally {
      await service.stop()
      await echo.stop()
    }
  }
  return rows
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length))
const num = (n: number, digits = 0) => n.toFixed(digits)

export function formatLoad(rows: LoadRow[], options: LoadOptions): string {
  const lines = [
    `Load: autocannon, ${options.connections} connections, ${options.seconds} s per run after a 1 s warm-up, loopback; ${availableParallelism()} cores`,
    '',
    `${pad('endpoint class', 30)} ${pad('procs', 5)} ${pad('echo rps', 9)} ${pad('echo p50/p99 ms', 15)} ${pad('svc rps', 9)} ${pad('svc p50/p99 ms', 15)} ${pad('ratio', 6)} ${pad('p99 ×', 6)} target`,
  ]
  for (const r of rows) {
    const target = r.target ? `≥${num(r.target.minRatio * 100)}%, p99 ≤${r.target.maxP99Multiple}×: ${r.holds ? 'holds' : 'MISSED'}` : ''
    const faults = r.service.non2xx || r.service.errors ? `  (${r.service.non2xx} non-2xx, ${r.service.errors} errors)` : ''
    lines.push(
      `${pad(r.name, 30)} ${pad(String(r.workers), 5)} ${pad(num(r.echo.rps), 9)} ${pad(`${r.echo.p50}/${r.echo.p99}`, 15)} ${pad(num(r.service.rps), 9)} ${pad(`${r.service.p50}/${r.service.p99}`, 15)} ${pad(`${num(r.ratio * 100)}%`, 6)} ${pad(num(r.p99Multiple, 2), 6)} ${target}${faults}`,
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
