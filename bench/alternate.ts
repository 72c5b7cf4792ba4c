/**
 * @module This build's engine and a baseline's, answering the same requests in turn in one process:
 * the per-evaluation cost of issue 24 (SSDI, the 83(b) example, state NY), as the CPU time of the
 * process per `answer()`, in batches of some 10 ms, the two builds' batches in turn.
 *
 * CPU time, not wall time: on a machine shared by many processes (a load average of 10 on two
 * cores) the wall time of a call measures the queue for the processor more than the call, while
 * the process's own CPU time moves much less; both builds are timed in the same rounds, so what
 * moves both (frequency, caches) cancels in the ratio.
 *
 *   BENCH_BASELINE=<git revision> [BENCH_ROUNDS=15] [BENCH_MS=4000] [BENCH_ONLY=regex] node dist/bench/alternate.js
 *
 * The baseline is checked out and built as bench/run.ts does (bench/baseline.ts). Each request's
 * answers from the two builds are compared first: a row whose answers differ is reported, not timed.
 */
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { answer, loadCatalog, type Catalog } from '../service/index.js'
import { readGolden } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { prepareBaseline } from './baseline.js'

interface Engine {
  catalog: Catalog
  answer: typeof answer
}

/** The requests timed: a golden case by file and part of its name, or an endpoint's documented example. */
const ROWS: { name: string; file?: string; caseName?: string; example?: string }[] = [
  { name: 'SSDI estimate, 7-year record, two children, offset', file: 'test/golden/social_security/ssdi_estimate.yaml', caseName: 'two children and workers' },
  { name: 'SSDI work credits, 20/40 rule', file: 'test/golden/social_security/work_credits.yaml', caseName: 'A 40-year-old with steady recent work' },
  { name: 'state NY near its cliff', file: 'test/golden/estate/state/ny.yaml', caseName: 'One dollar beyond 105%' },
  { name: 'example analyze_83b_election', example: 'analyze_83b_election' },
  { name: 'Social Security filing strategy, couple 97 × 97', file: 'test/golden/social_security/filing_strategy.yaml', caseName: 'all 97 × 97 pairs' },
  { name: 'example optimize_ss_filing_strategy', example: 'optimize_ss_filing_strategy' },
]

const cpu = () => {
  const u = process.cpuUsage()
  return u.user + u.system
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

async function main(): Promise<void> {
  const baseline = prepareBaseline((line) => console.error(line))
  if (!baseline) throw new Error('bench: alternate needs BENCH_BASELINE (a git revision)')
  const rounds = Number(process.env.BENCH_ROUNDS ?? 15)
  const ms = Number(process.env.BENCH_MS ?? 4000)
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined
  const base = (await import(pathToFileURL(join(baseline.dist, 'service', 'index.js')).href)) as { loadCatalog: typeof loadCatalog; answer: typeof answer }
  const engines: [string, Engine][] = [
    ['ours', { catalog: loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR }), answer }],
    ['base', { catalog: base.loadCatalog({ rulesDir: join(baseline.dir, 'rules'), tablesDir: join(baseline.dir, 'tables') }), answer: base.answer }],
  ]
  const { files } = readGolden(GOLDEN_DIR, ROOT)
  const load = loadavg()
  console.log(`baseline ${baseline.rev} (${baseline.commit.slice(0, 12)}), ${rounds} rounds, load average ${load.map((l) => l.toFixed(2)).join(' ')}`)
  for (const row of ROWS) {
    if (only && !only.test(row.name)) continue
    const calls = engines.map(([, e]) => {
      const endpoint = e.catalog.endpoints.find((x) => (row.example ? x.operation_id === row.example : x.operation_id === files.find((f) => f.file === row.file)?.endpoint))
      const input = row.example ? endpoint?.example : files.find((f) => f.file === row.file)?.cases.find((c) => c.name.includes(row.caseName!))?.input
      if (!endpoint || input === undefined) throw new Error(`bench: no request for ${row.name}`)
      return () => e.answer(e.catalog, endpoint, input)
    })
    const answers = await Promise.all(calls.map((c) => c()))
    if (!isDeepStrictEqual(answers[0], answers[1])) {
      console.log(`${row.name}: the two builds answer differently; not timed`)
      continue
    }
    // A batch of about 10 ms of CPU, so the clock's resolution does not matter.
    const t0 = cpu()
    await calls[0]!()
    const batch = Math.max(1, Math.round(10_000 / Math.max(1, cpu() - t0)))
    // Batch by batch in turn, so that what the machine does meanwhile falls on both builds alike.
    const samples: number[][] = [[], []]
    const ratios: number[] = []
    for (let r = 0; r <= rounds; r++) {
      const until = Date.now() + ms / rounds
      do {
        const pair: number[] = []
        for (let i = 0; i < calls.length; i++) {
          const c = cpu()
          for (let b = 0; b < batch; b++) await calls[i]!()
          pair.push((cpu() - c) / batch)
        }
        // The first round warms both builds up and is not kept.
        if (r === 0) continue
        samples[0]!.push(pair[0]!)
        samples[1]!.push(pair[1]!)
        ratios.push(pair[0]! / pair[1]!)
      } while (Date.now() < until)
    }
    const [ours, theirs] = samples.map(median) as [number, number]
    const unit = ours > 10_000 ? (x: number) => `${(x / 1000).toFixed(1)} ms` : (x: number) => `${x.toFixed(0)} µs`
    console.log(`${row.name}: ${unit(ours)} against ${unit(theirs)}, ratio of medians ${(ours / theirs).toFixed(2)}, median of the pairs' ratios ${median(ratios).toFixed(2)} (${ratios.length} pairs of batches of ${batch})`)
  }
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
}

await main()
