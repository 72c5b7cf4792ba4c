// The matcher's measurement: tools/matcher-evaluation.ts run on the labelled pairs gives exactly the
// block docs/decisions/compliance_data.md records, precision at the match threshold stays at least what docs/decisions/compliance_data.md states, and
// the pairs are real names of the data set, each label with its reason.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { ROOT } from '../../service/project/paths.js'
import { BLOCK_END, BLOCK_START, currentBlock, evaluateMatcher, readPairs, renderBlock, replaceBlock, SWEEP } from '../../tools/matcher-evaluation.js'

const test = suite('matching/evaluation: the labelled pairs and the thresholds')
const evaluation = evaluateMatcher()
const rules = readFileSync(join(ROOT, 'docs', 'decisions', 'compliance_data.md'), 'utf8')

test('docs/decisions/compliance_data.md holds the block the evaluation computes (run the tool with --write after a change)', () => {
  const recorded = currentBlock(rules)
  assert.ok(recorded !== null, 'docs/decisions/compliance_data.md has no matcher-evaluation block')
  assert.fixture(recorded!, renderBlock(evaluation))
})

test('precision at the match threshold is at least the figure docs/decisions/compliance_data.md records, recall at the possible threshold too', () => {
  const section = rules.slice(rules.indexOf('## Entity matching: the labelled pairs and the thresholds (2026.1)'))
  const stated = /falls below the (0\.\d+) recorded here/.exec(section)
  assert.ok(stated, 'docs/decisions/compliance_data.md states no precision floor')
  assert.ok(Number(evaluation.atMatch.precision) >= Number(stated![1]), `precision ${evaluation.atMatch.precision} < ${stated![1]}`)
  assert.ok(Number(evaluation.atMatch.recall) >= 0.95, `recall at the match threshold ${evaluation.atMatch.recall}`)
  assert.ok(Number(evaluation.atPossible.recall) >= Number(evaluation.atMatch.recall))
})

test('at least 250 labelled pairs, matches and near-misses both, every label with its reason', () => {
  const pairs = readPairs()
  assert.ok(pairs.length >= 250, String(pairs.length))
  assert.ok(evaluation.matches >= 100 && evaluation.nonMatches >= 100)
  const keys = new Set<string>()
  for (const p of pairs) {
    assert.ok(p.reason.length > 20, p.reason)
    assert.ok(p.name_a !== p.name_b, `a pair of one name: ${p.name_a}`)
    const k = [p.name_a, p.name_b].sort().join('\u0000')
    assert.ok(!keys.has(k), `pair twice: ${p.name_a} / ${p.name_b}`)
    keys.add(k)
  }
})

test('every name is a company of the warning-letter data set as FDA lists it', () => {
  const letters = parse(readFileSync(join(ROOT, 'tables', 'fda', 'warning_letters', 'letters.csv'), 'utf8'), { columns: true }) as Record<string, string>[]
  const companies = new Set(letters.map((r) => r.company!))
  for (const p of readPairs()) {
    for (const [name, source] of [[p.name_a, p.source_a], [p.name_b, p.source_b]] as const) {
      assert.is(source, 'fda_warning_letters')
      assert.ok(companies.has(name), `not a company of the data set: ${name}`)
    }
  }
})

test('the sweep runs 0.70 to 0.98, and --write replaces only the marked block', () => {
  assert.equal([SWEEP[0], SWEEP[SWEEP.length - 1]], ['0.70', '0.98'])
  assert.equal(evaluation.sweep.map((m) => m.threshold), SWEEP)
  const doc = `# A\n\n${BLOCK_START}\nold\n${BLOCK_END}\n\nafter\n`
  assert.is(replaceBlock(doc, 'new'), `# A\n\n${BLOCK_START}\nnew\n${BLOCK_END}\n\nafter\n`)
  assert.is(currentBlock(replaceBlock(doc, 'new')), 'new')
  assert.throws(() => replaceBlock('# no markers', 'x'), /no <!-- matcher-evaluation:start -->/)
})

test.run()
