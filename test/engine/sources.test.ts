// The registry of sources (tables/sources.yaml): a reference names a source by key, written once;
// one address has one key; an unknown key is refused where it is written.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { formatProblem, loadCatalog } from '../../service/index.js'
import { address } from '../../engine/load/sources.js'
import { fixtureWith, loadProblems } from '../helpers.js'

const test = suite('engine/load/sources: the registry of sources')

function problems(name: string, target: string): string[] {
  return loadProblems(fixtureWith(name, target).dir)
}

test('two keys for one address are refused, however the address is spelled', () => {
  assert.equal(problems('duplicate-source', 'tables/sources.yaml'), [
    'tables/sources.yaml:11:11: the_demo_act has the address of demo_act (https://Example.org/demo-act/): one address is one source with one key',
  ])
})

test('an unknown key is refused where it is written, in either form', () => {
  assert.equal(problems('unknown-source', 'tables/demo/flat.yaml'), [
    "tables/demo/flat.yaml:10:26: unknown source 'demo_acts': tables/sources.yaml has no such key",
    "tables/demo/flat.yaml:17:27: unknown source 'demo_atc': tables/sources.yaml has no such key",
  ])
})

test('a key gives the title and address written in the registry, a pinpoint added to the title', () => {
  const { dir } = fixtureWith('source-written-out', 'tables/demo/flat.yaml')
  const cwd = process.cwd()
  process.chdir(dir)
  try {
    const catalog = loadCatalog({ rulesDir: 'rules', tablesDir: 'tables', dataCacheDir: 'cache' })
    const rate = catalog.tables.get('demo.flat.rate')!
    const exemption = catalog.tables.get('demo.flat.exemption')!
    if (rate.kind !== 'parameter' || exemption.kind !== 'parameter') throw new Error('not parameters')
    const href = 'https://example.org/demo-act'
    // A subsection follows the title directly; any other pinpoint after a comma.
    assert.equal(rate.references, [{ title: 'Demo Act § 1(a)', href }])
    assert.equal(rate.history[0]!.references, [{ title: 'Demo Act § 1, as amended in 2026', href }])
    assert.equal(exemption.history[0]!.references, [{ title: 'Demo Act § 1', href }])
    // An address the registry holds, written out by hand, loads but is warned of, naming the key.
    assert.equal((catalog.warnings ?? []).map(formatProblem), [
      'tables/demo/flat.yaml:17:47: the address of source demo_act written out by hand: write `source: demo_act` (its title and address are in tables/sources.yaml)',
    ])
  } finally {
    process.chdir(cwd)
  }
})

test('a source no rule or table cites is warned of', () => {
  const { dir } = fixtureWith(undefined)
  const cwd = process.cwd()
  process.chdir(dir)
  try {
    const catalog = loadCatalog({ rulesDir: 'rules', tablesDir: 'tables', dataCacheDir: 'cache' })
    assert.equal((catalog.warnings ?? []).map(formatProblem), ['tables/sources.yaml:6:5: source demo_act is cited by no rule or table'])
  } finally {
    process.chdir(cwd)
  }
})

test('addresses are compared after trivial normalisation: scheme, host case, trailing slash', () => {
  assert.is(address('http://WWW.Example.org/a/'), 'https://www.example.org/a')
  assert.is(address('https://www.example.org/a/#b'), 'https://www.example.org/a#b')
  assert.is(address(' https://www.example.org/A '), 'https://www.example.org/A')
  assert.is.not(address('https://www.example.org/a'), address('https://www.example.org/a#b'))
})

test.run()
