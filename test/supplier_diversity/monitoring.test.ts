// The monitoring rules' expiry logic, which the real Maryland extract (no end dates) cannot exercise:
// a scratch copy of the catalog with the data set replaced by a labelled fixture of four made-up firms
// (test/fixtures/supplier_diversity/firms-with-end-dates.csv) with end dates before, inside and after
// the window, and one without.
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadCatalog } from '../../service/index.js'
import { ROOT } from '../../service/project/paths.js'
import { run } from '../../tools/golden.js'

const test = suite('supplier_diversity/monitoring: expiring and expired from published end dates (fixture)')

function fixtureCatalog() {
  const dir = mkdtempSync(join(tmpdir(), 'supplier-fixture-'))
  cpSync(join(ROOT, 'rules'), join(dir, 'rules'), { recursive: true })
  cpSync(join(ROOT, 'tables'), join(dir, 'tables'), { recursive: true })
  cpSync(join(ROOT, 'endpoints'), join(dir, 'endpoints'), { recursive: true })
  cpSync(join(ROOT, 'test', 'fixtures', 'supplier_diversity', 'firms-with-end-dates.csv'), join(dir, 'tables', 'supplier_diversity', 'md_mdot_directory', 'firms.csv'))
  return loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables'), dataCacheDir: join(dir, 'cache') })
}

type Cert = { firm_key: string; program: string; end_date: string | null; status: string }
type Result = {
  expiring_within_window: Cert[]
  expired_since_previous_check: Cert[]
  no_end_date_published: Cert[]
  not_found: string[]
  firms: { business_name: string; status: string }[]
}

test('an end date inside the window is expiring, one since the previous check expired, an older one neither, none undated', async () => {
  const catalog = fixtureCatalog()
  const firms = ['Fixture Expiring Firm', 'Fixture Lapsed Firm', 'Fixture Long Ago Firm', 'Fixture Undated Firm', 'Nobody Of That Name'].map((business_name) => ({ business_name }))
  const out = await run(catalog, 'check_supplier_diversity_monitoring', { firms, as_of: '2026-11-27', window_days: 90, previous_check_date: '2026-08-27' })
  assert.ok(out.ok, JSON.stringify(out))
  if (!out.ok) return
  const r = out.envelope.result as unknown as Result
  // 2026-12-31 is after 2026-11-27 and on or before 2027-02-25.
  assert.equal(r.expiring_within_window.map((c) => [c.firm_key, c.program, c.end_date]), [['MD|99-001|FIXTURE EXPIRING FIRM', 'DBE', '2026-12-31']])
  // 2026-10-01 is after 2026-08-27 and on or before 2026-11-27 (MBE and SBE); 2026-05-01 is before the previous check.
  assert.equal(r.expired_since_previous_check.map((c) => [c.program, c.end_date]), [['MBE', '2026-10-01'], ['SBE', '2026-10-01']])
  assert.equal(r.no_end_date_published.map((c) => c.firm_key), ['MD|99-004|FIXTURE UNDATED FIRM'])
  assert.equal(r.not_found, ['Nobody Of That Name'])
  assert.equal(r.firms.map((f) => f.status), ['listed', 'listed', 'listed', 'listed', 'not_found'])
})

test('without a previous check date every end date on or before as_of counts as expired', async () => {
  const catalog = fixtureCatalog()
  const out = await run(catalog, 'check_supplier_diversity_monitoring', { firms: [{ business_name: 'Fixture Long Ago Firm' }], as_of: '2026-11-27' })
  assert.ok(out.ok)
  if (!out.ok) return
  const r = out.envelope.result as unknown as Result
  assert.equal(r.expired_since_previous_check.map((c) => c.end_date), ['2026-05-01'])
})

test.run()
