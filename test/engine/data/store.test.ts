// The data set store: one SQLite file built once, reused while nothing changes, rebuilt when a row
// does, and opened by any number of processes.
import { spawnSync } from 'node:child_process'
import { appendFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../../service/index.js'
import { copyFixture, load } from './fixture.js'

const test = suite('engine/data/store: openDatasets')
const files = (cache: string) => readdirSync(cache).filter((f) => f.endsWith('.sqlite'))

test('the store is built once and reused while the data files do not change', () => {
  const dir = copyFixture()
  const cache = join(dir, 'cache')
  load(dir, cache)
  const first = files(cache)
  assert.is(first.length, 1)
  load(dir, cache)
  assert.equal(files(cache), first)
})

test('a changed row makes a new store, and the answer follows it', async () => {
  const dir = copyFixture()
  const cache = join(dir, 'cache')
  const before = await evaluate(load(dir, cache), 'demo.sites', { site: 'north', spaces: 10, region: 'east', on: '2026-03-01' })
  appendFileSync(join(dir, 'tables', 'demo', 'inspections.csv'), 'north,2026-02-01,blocked ramp,400\n')
  const after = await evaluate(load(dir, cache), 'demo.sites', { site: 'north', spaces: 10, region: 'east', on: '2026-03-01' })
  assert.is(files(cache).length, 2)
  assert.is(before.result.fines, 250)
  assert.is(after.result.fines, 650)
})

test('other processes open the same store and answer alike', () => {
  const dir = copyFixture()
  const cache = join(dir, 'cache')
  load(dir, cache)
  const engine = new URL('../../../service/index.js', import.meta.url).href
  const script = `
    const { loadCatalog, evaluate } = await import(${JSON.stringify(engine)})
    const c = loadCatalog({ rulesDir: ${JSON.stringify(join(dir, 'rules'))}, tablesDir: ${JSON.stringify(join(dir, 'tables'))}, dataCacheDir: ${JSON.stringify(cache)} })
    const r = await evaluate(c, 'demo.sites', { site: 'south', spaces: 120, region: 'west', on: '2026-01-01' })
    console.log(JSON.stringify(r.result))`
  const outputs = [0, 1].map(() => spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))
  for (const out of outputs) {
    assert.is(out.status, 0, out.stderr)
    const result = JSON.parse(out.stdout) as Record<string, unknown>
    assert.is(result.accessible_spaces, 5)
    assert.is(result.fines, 1500.5)
    assert.is(result.hourly_minimum, 16.5)
  }
  assert.is(files(cache).length, 1)
})

test.run()
