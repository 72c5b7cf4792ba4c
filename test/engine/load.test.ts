// The rule check: each broken fixture (test/fixtures/rule-check/bad/<what is wrong>.yaml, written over
// one file of a good project) fails with the exact message at the exact file:line:column.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { fixtureWith, loadProblems } from '../helpers.js'

const test = suite('engine/load: loadCatalog')

function problems(name: string | undefined, target = ''): string[] {
  return loadProblems(fixtureWith(name, target).dir)
}

test('the good fixture loads with no problem', () => {
  assert.equal(problems(undefined), [])
})

test('a YAML syntax error is reported where it stands', () => {
  assert.equal(problems('syntax-error', 'rules/demo/flat.yaml')[0], 'rules/demo/flat.yaml:7:1: Flow map in block collection must be sufficiently indented and end with a }')
})

test('an input\'s date default is a date written YYYY-MM-DD, not a formula', () => {
  assert.equal(problems('date-default-formula', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:8:35: a date default is written YYYY-MM-DD: "date(2026, 1, 1)" is not a date written YYYY-MM-DD'])
})

test('one slip in a table file\'s YAML is one problem, not one per rule that reads its tables', () => {
  const found = problems('table-syntax-slip', 'tables/demo/flat.yaml')
  assert.is(found.length, 1, found.join('\n'))
  assert.match(found[0]!, /^tables\/demo\/flat\.yaml:\d+:\d+: /)
})

test('an unknown name is reported where it stands in its formula, not at the formula\'s start', () => {
  assert.equal(problems('unknown-name', 'rules/demo/flat.yaml'), ["rules/demo/flat.yaml:11:30: unknown name 'exemptoin'"])
})

test('a type error (text plus an amount) is reported at the offending operand', () => {
  assert.equal(problems('type-mismatch', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:15:26: the left of + must be an amount, not text'])
})

test('an impossible date is reported where it is written', () => {
  assert.equal(problems('impossible-date', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:15:43: 2026-02-30 is not a date: 2026-02 has 28 days'])
})

test('a call with the wrong number of arguments is reported at the function', () => {
  assert.equal(problems('wrong-argument-count', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:12:30: pow() takes 2 argument(s), got 1'])
})

test('a field read of an amount is reported at the field', () => {
  assert.equal(problems('field-of-amount', 'rules/demo/flat.yaml'), ["rules/demo/flat.yaml:12:29: cannot read 'value' of an amount"])
})

test('a cycle is reported once, with its path', () => {
  assert.equal(problems('cycle', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:11:5: cycle: taxable → tax → taxable'])
})

test('a parameter without a citation is refused', () => {
  assert.equal(problems('missing-citation', 'tables/demo/flat.yaml')[0], "tables/demo/flat.yaml:7:5: tables.rate: missing required key 'reference'")
})

test('a parameter with no value on a covered date is refused', () => {
  assert.equal(problems('no-value-on-date', 'tables/demo/flat.yaml'), [
    'tables/demo/flat.yaml:19:7: demo.flat.exemption has no value in force on 2026-01-01, which demo_flat_tax covers (read by demo.flat)',
  ])
})

test('a bare YAML number (a binary float) is refused as an amount', () => {
  assert.match(problems('float-amount', 'tables/demo/flat.yaml')[0]!, /^tables\/demo\/flat\.yaml:12:30: tables\.rate\.values\.2026-01-01\.value: must be a string such as "0\.16"/)
})

test('a file stamped with another formula version is refused', () => {
  assert.equal(problems('version-mismatch', 'rules/demo/flat.yaml')[0], 'rules/demo/flat.yaml:2:18: formula_version "2025.9" does not match the service\'s "2026.1" (rules/service.yaml)')
})

test('a schedule base amount that disagrees with its brackets is refused', () => {
  assert.equal(problems('schedule-base-mismatch', 'tables/demo/flat.yaml'), [
    'tables/demo/flat.yaml:28:54: base amount 110_000 does not match the brackets below it, which sum to 100000',
  ])
})

test('an unknown keyword in a request schema (a description cut short by a comma) is refused', () => {
  assert.equal(problems('schema-description-cut-by-comma', 'endpoints/demo.yaml'), [
    'endpoints/demo.yaml:11:3: request schema: strict mode: unknown keyword: "in dollars"',
  ])
})

test("a decision rule that compares a computed value is refused at that value, saying what to write", () => {
  assert.equal(problems('condition-computed', 'rules/demo/flat.yaml'), [
    'rules/demo/flat.yaml:22:32: the left of < compares names and values; give the computed part a name of its own under formulas: and compare that name',
  ])
})

test("a decision rule's condition must be true or false, as a check's must", () => {
  assert.equal(problems('condition-not-boolean', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:21:18: the condition of a decision rule must be true or false, not an amount'])
})

test('a decision rule written as a json-rules-engine tree is refused: conditions are written as `when` expressions', () => {
  assert.equal(problems('condition-tree-form', 'rules/demo/flat.yaml').slice(0, 2), [
    "rules/demo/flat.yaml:22:11: formulas.sign.decision.rules.0: missing required key 'when'",
    "rules/demo/flat.yaml:22:23: formulas.sign.decision.rules.0: unknown key 'conditions'",
  ])
})

test("a check's condition must be true or false", () => {
  assert.equal(problems('check-not-boolean', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:17:11: the condition of a check must be true or false, not an amount'])
})

test('an income year from 1 July needs figures in force on the 1 July it starts', () => {
  const found = problems('fiscal-year-uncovered', 'endpoints/demo.yaml')
  assert.ok(found.length > 0)
  for (const p of found) assert.match(p, /has no value in force on 2025-07-01, which demo_flat_tax covers/)
})

test('an endpoint in a currency the service does not declare is refused', () => {
  assert.equal(problems('unknown-currency', 'endpoints/demo.yaml'), ['endpoints/demo.yaml:11:11: unknown currency AUD; declare it under currencies: in rules/service.yaml'])
})

test('an endpoint names a suite the service declares', () => {
  assert.equal(problems('unknown-suite', 'endpoints/demo.yaml'), ['endpoints/demo.yaml:8:8: unknown suite estate_taxes; the suites are compliance_data (rules/service.yaml)'])
})

test("a field read of a called rule set's result must be one of its outputs", () => {
  assert.equal(problems('unknown-field-of-call', 'rules/demo/caller.yaml'), ["rules/demo/caller.yaml:15:13: no field 'taks' here; the fields are tax"])
})


test('a true/false default written in quotes is refused (quoted, it is text, and text is true in a condition)', () => {
  assert.equal(problems('quoted-boolean-default', 'rules/demo/flat.yaml'), ['rules/demo/flat.yaml:8:38: a true/false default is written bare (true or false), not "false"'])
})

test.run()
