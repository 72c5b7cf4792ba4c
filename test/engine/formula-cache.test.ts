// Parsed formulas kept between processes: the tree read back is jsep's own, a formula that does not
// parse is refused every time and never kept.
import { readFileSync } from 'node:fs'
import jsep from 'jsep'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { compileExpression } from '../../engine/compile/expression.js'
import { FILE, parseFormula, saveFormulas } from '../../engine/load/formula-cache.js'

const test = suite('engine/formula-cache: parseFormula')

// Texts no other test writes, so the first parse below is jsep's and the file gains them.
const probe = `${process.pid} * 3 + filter(items, x => x.amount > ${Date.now()}).length`

test('a kept tree is the one jsep gives, arrow functions included', () => {
  compileExpression('1', { hasValue: () => false, table: () => undefined }) // registers jsep's arrow plugin
  const first = parseFormula(probe)
  saveFormulas()
  const kept = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>
  assert.ok(probe in kept, 'the new formula is in the file')
  assert.equal(JSON.parse(kept[probe]!), jsep(probe))
  assert.equal(parseFormula(probe), first)
  assert.is.not(parseFormula(probe), parseFormula(probe), 'each use gets its own tree')
})

test('a formula that does not parse throws every time and is not kept', () => {
  const bad = `(${Date.now()} + `
  assert.throws(() => parseFormula(bad))
  assert.throws(() => parseFormula(bad))
  saveFormulas()
  const kept = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>
  assert.not.ok(bad in kept)
})

test.run()
