// The evaluation pool: the QTIP optimizer (execution: worker) answered on a worker thread gives the
// same bytes as in-process, its errors the same bodies, and a cheap request is not held behind it.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer } from '../../service/index.js'
import { EvaluationPool } from '../../server/pool.js'
import { readGolden } from '../../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { catalog, post, startServiceWith, type Service } from '../helpers.js'

const test = suite('server/pool: heavy endpoints on worker threads')
const { files } = readGolden(GOLDEN_DIR, ROOT)
const qtip = files.find((f) => f.file === join('test', 'golden', 'estate_planning', 'qtip_election.yaml'))!

test("the manifests put the searches (QTIP, the 83(b) break-even, the couple's 97 × 97 claiming ages, the pension's implied rate, a supplier list matched against a directory, the FDA letters and supplier directories searched by name, the violation classifier) and the terms-of-service clause engine (a 512 KiB text), and only heavy endpoints, on the pool", () => {
  const heavy = catalog().endpoints.filter((e) => e.execution === 'worker').map((e) => e.operation_id).sort()
  assert.equal(heavy, ['analyze_83b_election', 'analyze_tos_text', 'check_supplier_diversity_monitoring', 'classify_fda_violations', 'compare_pension_lump_sum', 'get_fda_enforcement_history', 'optimize_qtip_election', 'optimize_ss_filing_strategy', 'search_fda_enforcement', 'verify_supplier_diversity_certification'])
})

// One pool of one thread and its service for both tests: each pool's thread loads the whole catalog
// (seconds of CPU). The second test sends its cheap request behind four searches it queues itself,
// after the first has had every answer, so the thread it meets is as idle as a new one, and warm.
let pool: EvaluationPool
let service: Service
test.before(async () => {
  pool = new EvaluationPool({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, limits: catalog().service.limits }, 1)
  service = await startServiceWith({ pool })
})
test.after(async () => {
  await service.close()
  await pool.close()
})

test('every QTIP golden case answers the same bytes on a thread as in-process, errors included', async () => {
  const endpoint = catalog().endpoints.find((e) => e.operation_id === 'optimize_qtip_election')!
  assert.ok(qtip.cases.length >= 5)
  for (const c of qtip.cases) {
    const res = await post(service, endpoint.paths[0]!, c.input)
    let expected: string
    try {
      expected = JSON.stringify(await answer(catalog(), endpoint, c.input))
      assert.is(res.status, 200, c.name)
    } catch (error) {
      const e = error as { code: string; message: string; details: unknown }
      expected = JSON.stringify({ error: { code: e.code, message: e.message, details: e.details } })
      assert.is(res.status, 400, c.name)
    }
    assert.is(res.text, expected, c.name)
  }
})

test('a cheap request sent while optimizers run on the pool is answered before them', async () => {
  // Warm the thread, then queue four searches and send a state request behind them.
  await post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 20_000_000 })
  const order: string[] = []
  const searches = [0, 1, 2, 3].map(() => post(service, '/estate/optimize-qtip-election', { state_of_domicile: 'NY', gross_estate: 30_000_000 }).then(() => order.push('qtip')))
  const cheap = post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 7_500_000 }).then((r) => {
    order.push('state')
    return r
  })
  const res = await cheap
  await Promise.all(searches)
  assert.is(res.status, 200)
  assert.is(order[0], 'state', `answered in the order ${order.join(', ')}`)
})

test.run()
