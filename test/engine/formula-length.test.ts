// Formulas an analyst can read (issue 25): the load warns, naming file:line, about any formula,
// condition, list or function body over FORMULA_LENGTH characters, and the project's rules/ hold none.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { formatProblem, loadLaw } from '../../engine/index.js'
import { FORMULA_LENGTH } from '../../engine/compile/compiler.js'
import { ROOT } from '../../service/project/paths.js'
import { catalog, FIXTURES } from '../helpers.js'

const test = suite('engine/compile: formula length')

const long = `amount + ${Array.from({ length: 60 }, () => 'amount').join(' + ')}`
const said = `a formula of ${long.length} characters, over ${FORMULA_LENGTH}: name its parts (formulas, functions) or declare its texts (text:, texts:)`

/** The lists fixture with a rule set holding a long function body, formula and output. */
function withLongFormulas(): string {
  const dir = mkdtempSync(join(tmpdir(), 'formula-length-'))
  cpSync(join(FIXTURES, 'lists'), dir, { recursive: true })
  writeFileSync(
    join(dir, 'rules', 'demo', 'texts.yaml'),
    `formula_version: "2026.1"
kind: rule_set
title: A long formula
inputs:
  amount: { type: amount }
functions:
  many:
    params: { amount: amount }
    formula: "${long}"
formulas:
  short:
    formula: "many(amount)"
  long:
    formula: "${long}"
outputs:
  long: long
  short: short
  in_place: "${long}"
`,
  )
  return dir
}

test('a formula over the length is a warning at its file:line, and the rule set still loads', () => {
  assert.ok(long.length > FORMULA_LENGTH)
  const cwd = process.cwd()
  process.chdir(withLongFormulas())
  try {
    const loaded = loadLaw({ rulesDir: 'rules', tablesDir: 'tables', dataCacheDir: 'cache' })
    assert.ok(loaded.ruleSets.has('demo.texts'))
    assert.equal((loaded.warnings ?? []).map(formatProblem), [9, 14, 18].map((line) => `rules/demo/texts.yaml:${line}:${line === 18 ? 13 : 14}: ${said}`))
  } finally {
    process.chdir(cwd)
  }
})

test('the rule check reports the warnings and passes', () => {
  const dir = withLongFormulas()
  const run = spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', 'check-rules.js'), '--rules', 'rules', '--tables', 'tables', '--endpoints', 'endpoints'], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
  assert.is(run.status, 0, run.stderr)
  assert.ok(run.stderr.includes(`warning: rules/demo/texts.yaml:14:14: ${said}`), run.stderr)
  assert.match(run.stdout, /no problems, 3 warning\(s\)/)
})

test(`no formula in rules/ is over ${FORMULA_LENGTH} characters`, () => {
  const long = (catalog().warnings ?? []).filter((w) => w.message.startsWith('a formula of ')).map(formatProblem)
  assert.equal(long, [])
})

test.run()
