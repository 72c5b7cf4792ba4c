/**
 * @module `node dist/bench/auth-flood.js` (by hand, not in CI): good keys beside a bad-key flood.
 *
 * One service process (`npm start` with WORKERS=1, TRUST_PROXY=1, EVALUATION_THREADS=0). Good traffic (the state endpoint,
 * a valid key) runs alone and beside a flood of wrong keys from another client address in turn, in
 * rounds, each phase for the same time and in the same run; the figure is the good traffic's rate
 * beside the flood over the mean of its rates alone just before and after, the median of the rounds
 * (target: at least 90 %). The flood is driven from a child
 * process of its own, so the two load generators do not share an event loop; its address is another
 * X-Forwarded-For entry behind the one trusted proxy, as clients behind an ingress are.
 *
 * Environment: FLOOD_SECONDS (4, a phase), FLOOD_ROUNDS (5), FLOOD_WARMUP (10 s), GOOD_CONNECTIONS (10), FLOOD_CONNECTIONS (10).
 */
import autocannon from 'autocannon'
import { fork } from 'node:child_process'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { startService } from './processes.js'

const seconds = Number(process.env.FLOOD_SECONDS ?? 4)
const rounds = Number(process.env.FLOOD_ROUNDS ?? 5)
const warmup = Number(process.env.FLOOD_WARMUP ?? 10)
const goodConnections = Number(process.env.GOOD_CONNECTIONS ?? 10)
const floodConnections = Number(process.env.FLOOD_CONNECTIONS ?? 10)
const PATH = '/estate/calculate-state-tax'
const BODY = JSON.stringify({ state: 'NY', tax_year: 2026, gross_estate: 7650000 })

interface FloodResult {
  rps: number
  statuses: Record<string, number>
}

/** In the child: flood `url` with wrong keys (a fresh id per request would only add key-id entries; one id is the usual guesser). */
async function flood(url: string): Promise<void> {
  const r = await autocannon({
    url: url + PATH,
    method: 'POST',
    body: BODY,
    connections: floodConnections,
    duration: seconds,
    headers: { 'content-type': 'application/json', 'x-api-key': `kGuesser.${'A'.repeat(43)}`, 'x-forwarded-for': '192.0.2.66' },
  })
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, (s as { count: number }).count]))
  process.send!({ rps: r.requests.average, statuses } satisfies FloodResult)
}

async function good(url: string, key: string): Promise<{ rps: number; p99: number; non2xx: number }> {
  const r = await autocannon({ url: url + PATH, method: 'POST', body: BODY, connections: goodConnections, duration: seconds, headers: { 'content-type': 'application/json', 'x-api-key': key } })
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx }
}

async function main(): Promise<void> {
  // No evaluation threads: the state endpoint does not use them, and a thread loading its catalog
  // after the service listens took the first minute's CPU at a load of 20 (the good rate rose 20-fold
  // over the rounds).
  const service = await startService(1, [], false, { TRUST_PROXY: '1', LOG_LEVEL: 'warn', EVALUATION_THREADS: '0' })
  try {
    console.log(`auth flood: ${seconds} s a phase, good ${goodConnections} connections, flood ${floodConnections}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
    // A long warm-up: on a loaded machine the first seconds run far below the steady rate (JIT), which
    // would make the first rounds compare a cold phase with a warm one.
    await autocannon({ url: service.url + PATH, method: 'POST', body: BODY, connections: goodConnections, duration: warmup, headers: { 'content-type': 'application/json', 'x-api-key': service.key } })
    // Alone and beside the flood in turn, `rounds` times, ending alone: each phase beside the flood is
    // compared with the phases alone on either side of it, so a change in the machine's load between
    // phases moves both; the figure is the median of the rounds.
    let alone = await good(service.url, service.key)
    console.log(`good alone:        ${alone.rps.toFixed(0)} req/s, p99 ${alone.p99} ms, non-2xx ${alone.non2xx}`)
    const ratios: number[] = []
    for (let round = 0; round < rounds; round++) {
      const child = fork(fileURLToPath(import.meta.url), ['flood', service.url], { env: { ...process.env } })
      const flooded = new Promise<FloodResult>((resolve) => child.once('message', (m) => resolve(m as FloodResult)))
      const during = await good(service.url, service.key)
      const floodResult = await flooded
      console.log(`good beside flood: ${during.rps.toFixed(0)} req/s, p99 ${during.p99} ms, non-2xx ${during.non2xx}; flood ${floodResult.rps.toFixed(0)} req/s, statuses ${JSON.stringify(floodResult.statuses)}`)
      const next = await good(service.url, service.key)
      console.log(`good alone:        ${next.rps.toFixed(0)} req/s, p99 ${next.p99} ms, non-2xx ${next.non2xx}`)
      ratios.push(during.rps / ((alone.rps + next.rps) / 2))
      alone = next
    }
    const ratio = ratios.sort((a, b) => a - b)[Math.floor(ratios.length / 2)]!
    console.log(`rounds: ${ratios.map((r) => `${(r * 100).toFixed(0)} %`).join(', ')}; load average now ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
    console.log(`good traffic beside the flood: ${(ratio * 100).toFixed(0)} % of its rate alone, median of ${rounds} rounds (target >= 90 %): ${ratio >= 0.9 ? 'holds' : 'does not hold'}`)
  } finally {
    await service.stop()
  }
}

if (process.argv[2] === 'flood') await flood(process.argv[3]!)
else await main()
