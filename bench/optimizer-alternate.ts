/**
 * @module Two builds answering the same requests in one process, alternately: the before-and-after of
 * one change on a shared machine, where only figures taken side by side compare.
 *
 *   node dist/bench/optimizer-alternate.js <other checkout> [rounds] [calls a round]
 *
 * The other checkout (an earlier commit, built with its own `npm run build`) and this one each load
 * their rules; the filing-strategy optimizer's example, the bench's couple (its golden case) and the
 * grid fixture (test/fixtures/grid) are answered by both, in rounds that alternate which goes first,
 * after one untimed call each. (bench/alternate.ts times the example and the couple too, in batches
 * against a BENCH_BASELINE revision; this one also times the grid fixture, from any built checkout.) Each answer is compared first (a change that moves an answer is not a
 * speed-up). Printed: the median wall time and the median CPU time of the process (user + system,
 * process.cpuUsage) of a call, for each build, and their ratio, with the load average at the start
 * and the end: CPU time moves less than wall time when other work shares the cores.
 */
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT } from '../service/project/paths.js'

type Call = () => Promise<unknown>

/** The couple of the bench's row "Social Security filing strategy, couple 97 × 97" (its golden case). */
const COUPLE = { calculation_date: '2026-01-15', person: { date_of_birth: '1966-03-02', pia: 2400, sex: 'male' }, spouse: { date_of_birth: '1967-08-02', pia: 1100, sex: 'female' } }

interface ServiceModule {
  loadCatalog(o: { rulesDir: string; tablesDir: string; endpointsDir?: string }): { endpoints: { operation_id: string; example?: unknown }[] }
  answer(c: unknown, e: unknown, body: unknown): Promise<{ result: unknown }>
  evaluate(c: unknown, id: string, input: Record<string, unknown>): Promise<{ result: unknown }>
}

/** The three calls of one checkout, each answering through its own build. */
async function calls(dir: string): Promise<Record<string, Call>> {
  const svc = (await import(pathToFileURL(join(dir, 'dist', 'service', 'index.js')).href)) as ServiceModule
  const catalog = svc.loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables'), endpointsDir: join(dir, 'endpoints') })
  const endpoint = catalog.endpoints.find((e) => e.operation_id === 'optimize_ss_filing_strategy')!
  const fixture = join(dir, 'test', 'fixtures', 'grid')
  const grid = svc.loadCatalog({ rulesDir: join(fixture, 'rules'), tablesDir: join(fixture, 'tables') })
  return {
    'example optimize_ss_filing_strategy': () => svc.answer(catalog, endpoint, endpoint.example),
    'filing strategy, couple 97 × 97': () => svc.answer(catalog, endpoint, COUPLE),
    "couple's claiming-age grid (fixture)": () => svc.evaluate(grid, 'couple.grid', { first_benefit: 2000, second_benefit: 1200 }),
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  const [other, roundsText = '6', perText = '4'] = process.argv.slice(2)
  if (!other) throw new Error('usage: node dist/bench/optimizer-alternate.js <other checkout> [rounds] [calls a round]')
  const rounds = Number(roundsText)
  const per = Number(perText)
  const before = loadavg()[0]!
  const base = await calls(other)
  const mine = await calls(ROOT)
  console.log(`${other} (base) against ${ROOT}, ${rounds} rounds of ${per} calls each, load ${before.toFixed(1)} at the start`)
  console.log('row | wall base | wall here | ÷ | CPU base | CPU here | ÷')
  for (const name of Object.keys(mine)) {
    const [a, b] = [base[name]!, mine[name]!]
    const same = JSON.stringify(((await a()) as { result: unknown }).result) === JSON.stringify(((await b()) as { result: unknown }).result)
    if (!same) throw new Error(`${name}: the two builds answer differently`)
    const wall: [number[], number[]] = [[], []]
    const cpu: [number[], number[]] = [[], []]
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
        const f = k === 0 ? a : b
        for (let i = 0; i < per; i++) {
          const c0 = process.cpuUsage()
          const t0 = performance.now()
          await f()
          wall[k].push(performance.now() - t0)
          const c = process.cpuUsage(c0)
          cpu[k].push((c.user + c.system) / 1000)
        }
      }
    }
    const [wa, wb, ca, cb] = [median(wall[0]), median(wall[1]), median(cpu[0]), median(cpu[1])]
    console.log(`${name} | ${wa.toFixed(1)} ms | ${wb.toFixed(1)} ms | ${(wb / wa).toFixed(2)} | ${ca.toFixed(1)} ms | ${cb.toFixed(1)} ms | ${(cb / ca).toFixed(2)}`)
  }
  console.log(`load ${loadavg()[0]!.toFixed(1)} at the end`)
}

await main()
