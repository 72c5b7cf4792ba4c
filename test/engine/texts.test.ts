// Declared texts (engine/compile/texts.ts): a formula whose value is the texts whose `when` holds
// (`texts:`), the first of them (`text:` with a list), or one template (`text:`), written in the
// notes' template language and type-checked at load as notes are.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate, EvaluationError, loadLaw } from '../../engine/index.js'
import { FIXTURES, loadProblems } from '../helpers.js'

const test = suite('engine/compile/texts')
const catalog = loadLaw({ rulesDir: join(FIXTURES, 'lists', 'rules'), tablesDir: join(FIXTURES, 'lists', 'tables') })

test('texts: every text whose condition holds, in order, its values printed as a note prints them', async () => {
  const { result } = await evaluate(catalog, 'demo.texts', { amount: 1234.5, late: true, late_since: '2026-05-01', year: 2026 })
  assert.equal(result.required_actions, [
    'Pay $123.45 by 15 April 2027 (the payer).',
    'Add the late-payment charge of 0.1 since 2026-05-01.',
    'Keep the return for 3 years.',
  ])
  assert.is(result.status, 'Late: $123.45 is due.')
  assert.is(result.summary, 'the payer owes $123.45 (3 actions).')
})

test('texts whose conditions fail are left out; text: with a list is null when none holds', async () => {
  const { result } = await evaluate(catalog, 'demo.texts', { amount: 0, year: 2026 })
  assert.equal(result.required_actions, ['Keep the return for 3 years.'])
  assert.is(result.status, 'Nothing is due.')
  const { result: paid } = await evaluate(catalog, 'demo.texts', { amount: 10, year: 2026 })
  assert.is(paid.status, null)
})

test('a placeholder without a value is a defect of the rules, not the word null', async () => {
  try {
    await evaluate(catalog, 'demo.texts', { amount: 10, late: true, year: 2026 })
    assert.unreachable('the text was printed')
  } catch (error) {
    assert.instance(error, EvaluationError)
    assert.is((error as Error).message, "'required_actions' prints {late_since}, which is null")
  }
})

test('an explanation shows declared texts as written', async () => {
  const { explanation } = await evaluate(catalog, 'demo.texts', { amount: 0, year: 2026 }, { explain: true })
  const step = explanation!.find((s) => s.step === 'status')!
  assert.is(step.formula, 'text: when tax == 0: "Nothing is due."; when late: "Late: {$tax} is due."')
})

/** The lists fixture with `rules/demo/texts.yaml` replaced by `yaml`: its load problems. */
function problemsOf(yaml: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'texts-'))
  cpSync(join(FIXTURES, 'lists'), dir, { recursive: true })
  writeFileSync(join(dir, 'rules', 'demo', 'texts.yaml'), yaml)
  return loadProblems(dir)
}

const HEAD = `formula_version: "2026.1"
kind: rule_set
title: Bad texts
inputs:
  amount: { type: amount }
formulas:
`

test('the load check holds a condition to true or false, as a note\'s', () => {
  assert.equal(
    problemsOf(`${HEAD}  actions:
    texts:
      - when: "amount"
        text: "Pay {amount}."
outputs:
  actions: actions
`),
    ['rules/demo/texts.yaml:9:16: the condition of a text must be true or false, not an amount'],
  )
})

test('the load check refuses an unknown name in a placeholder', () => {
  assert.equal(
    problemsOf(`${HEAD}  actions:
    text: "Pay {amont}."
outputs:
  actions: actions
`),
    ["rules/demo/texts.yaml:8:12: unknown name 'amont'"],
  )
})

test('a formula is one of formula, text and texts', () => {
  const found = problemsOf(`${HEAD}  actions:
    formula: "'x'"
    text: "y"
outputs:
  actions: actions
`)
  assert.ok(found.length > 0 && found.every((p) => p.startsWith('rules/demo/texts.yaml:')), found.join('\n'))
})

test.run()
