/**
 * @module `npm run soak` (not in CI): 60 seconds of mixed valid and invalid requests at fixed
 * concurrency on loopback against one service process. Reports requests served by status class (there
 * must be no 5xx) and the live heap after a garbage collection at the start and at the end (it must
 * not grow beyond noise). Exits 1 when either fails.
 *
 * Environment: SOAK_SECONDS (60), SOAK_CONNECTIONS (32).
 */
import autocannon from 'autocannon'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { startService } from './processes.js'
import { BAD_REQUESTS, BENCH_REQUESTS } from './requests.js'

const seconds = Number(process.env.SOAK_SECONDS ?? 60)
const connections = Number(process.env.SOAK_CONNECTIONS ?? 32)
/** Heap growth from start to end that still counts as noise: 10%, and at least 4 MiB. */
const NOISE = { fraction: 0.1, bytes: 4 * 1024 * 1024 }

const probe = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'memory-probe.js')).href
const service = await startService(1, ['--expose-gc', '--import', probe], true)

interface Memory {
  heapUsed: number
  rss: number
}
const memory = () =>
  new Promise<Memory>((resolve) => {
    service.child.once('message', (m) => resolve(m as Memory))
    service.child.send('memory')
  })
const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`

// Each connection walks this list in turn: every calculator (the light ones four times, so that the
// heavy QTIP search does not set the pace alone), then every kind of bad request.
const requests: autocannon.Request[] = [
  ...BENCH_REQUESTS.flatMap((r) => Array<typeof r>(/QTIP/.test(r.name) ? 1 : 4).fill(r)).map((r) => ({ method: 'POST' as const, path: r.path, body: JSON.stringify(r.body), headers: { 'content-type': 'application/json', 'x-api-key': service.key } })),
  ...BAD_REQUESTS.map((r) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...r.headers }
    if (r.key !== null) headers['x-api-key'] = r.key ?? service.key
    return { method: r.method, path: r.path, headers, ...(r.body === undefined ? {} : { body: r.body }) }
  }),
]

try {
  // Warm-up, so the start figure is the steady state, not the first JIT and cache fills.
  await autocannon({ url: service.url, connections, duration: 5, requests })
  const start = await memory()
  console.log(`soak: ${seconds} s, ${connections} connections, ${requests.length} requests in the cycle (${requests.length - BAD_REQUESTS.length} valid, ${BAD_REQUESTS.length} invalid)`)
  console.log(`memory at start (after GC): heap ${mib(start.heapUsed)}, rss ${mib(start.rss)}`)
  const samples: Memory[] = [start]
  const run = autocannon({ url: service.url, connections, duration: seconds, requests })
  const timer = setInterval(() => void memory().then((m) => samples.push(m)), 10_000)
  const result = await run
  clearInterval(timer)
  const end = await memory()
  samples.push(end)

  const byStatus = Object.entries(result.statusCodeStats ?? {})
    .map(([code, s]) => `${code}: ${(s as { count: number }).count}`)
    .join(', ')
  const served = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx']
  console.log(`requests served: ${served} (${(served / seconds).toFixed(0)}/s); 2xx ${result['2xx']}, 4xx ${result['4xx']}, 5xx ${result['5xx']}; by status: ${byStatus}`)
  console.log(`connection errors: ${result.errors}, timeouts: ${result.timeouts}`)
  console.log(`heap after GC every 10 s: ${samples.map((s) => mib(s.heapUsed)).join(' → ')}`)
  console.log(`memory at end (after GC): heap ${mib(end.heapUsed)}, rss ${mib(end.rss)}`)
  const growth = end.heapUsed - start.heapUsed
  const flat = growth <= Math.max(NOISE.bytes, start.heapUsed * NOISE.fraction)
  console.log(`heap growth: ${mib(growth)}: ${flat ? 'flat (within noise)' : 'GROWING'}`)
  const ok = result['5xx'] === 0 && result.errors === 0 && flat
  console.log(ok ? 'soak: passed (zero 5xx, flat memory)' : 'soak: FAILED')
  process.exitCode = ok ? 0 : 1
} finally {
  await service.stop()
}
