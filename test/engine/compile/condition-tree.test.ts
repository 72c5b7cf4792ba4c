// A decision rule's `when`: each part of the formula syntax becomes its json-rules-engine condition,
// what a tree would decide differently from the formula is refused with what to write instead, and
// every tree decides as the same text does as a formula, and as json-rules-engine itself does.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { conditionTree } from '../../../engine/compile/condition-tree.js'
import { Decision } from '../../../engine/compile/decisions.js'
import { Dec } from '../../../engine/values/decimal.js'
import { CompileError, compileExpression } from '../../../engine/compile/expression.js'
import type { Runtime, Value } from '../../../engine/model/types.js'

const test = suite('engine/compile/condition-tree: conditionTree')
const resolver = { hasValue: () => true, table: () => undefined }
const tree = (text: string) => conditionTree(compileExpression(text, resolver).ast!, text)
const leaf = (text: string) => (tree(text) as { all: unknown[] }).all[0]

test('each comparison with a written amount is a decimal operator, its value the exact text', () => {
  assert.equal(leaf('a < 1'), { fact: 'a', operator: 'lt', value: '1' })
  assert.equal(leaf('a <= 0.3675'), { fact: 'a', operator: 'lte', value: '0.3675' })
  assert.equal(leaf('a > -2'), { fact: 'a', operator: 'gt', value: '-2' })
  assert.equal(leaf('a >= 15000000'), { fact: 'a', operator: 'gte', value: '15000000' })
  assert.equal(leaf('a == 5'), { fact: 'a', operator: 'eq', value: '5' })
  assert.equal(leaf('a != 5'), { fact: 'a', operator: 'neq', value: '5' })
})

test('a date is ordered against a written date or another date, as a formula orders it', () => {
  assert.equal(leaf("born < '2026-01-01'"), { fact: 'born', operator: 'lt', value: '2026-01-01' })
  assert.equal(leaf('born >= died'), { fact: 'born', operator: 'gte', value: { fact: 'died' } })
})

test('a written value on the left is moved right, the comparison mirrored', () => {
  assert.equal(leaf('0 < a'), { fact: 'a', operator: 'gt', value: '0' })
  assert.equal(leaf("'spouse' == a"), { fact: 'a', operator: 'equal', value: 'spouse' })
})

test('text, true, false and null compare with equal and notEqual', () => {
  assert.equal(leaf("a == 'spouse'"), { fact: 'a', operator: 'equal', value: 'spouse' })
  assert.equal(leaf("a != 'spouse'"), { fact: 'a', operator: 'notEqual', value: 'spouse' })
  assert.equal(leaf('a == false'), { fact: 'a', operator: 'equal', value: false })
  assert.equal(leaf('a != null'), { fact: 'a', operator: 'notEqual', value: null })
})

test('two names are ordered with { fact } as the value; a bare name or field holds when true', () => {
  assert.equal(leaf('estate <= cliff'), { fact: 'estate', operator: 'lte', value: { fact: 'cliff' } })
  assert.equal(leaf('flags.exempt'), { fact: 'flags.exempt', operator: 'equal', value: true })
})

test('contains() is in over a written list, contains over a list name', () => {
  assert.equal(leaf("contains(['estate', 'charity'], kind)"), { fact: 'kind', operator: 'in', value: ['estate', 'charity'] })
  assert.equal(leaf("contains(names, 'spouse')"), { fact: 'names', operator: 'contains', value: 'spouse' })
})

test('&& is all, || is any, ! is not; a chain of one operator is one group', () => {
  assert.equal(tree("a > 0 && !(b || kind == 'x') && c"), {
    all: [
      { fact: 'a', operator: 'gt', value: '0' },
      { not: { any: [{ fact: 'b', operator: 'equal', value: true }, { fact: 'kind', operator: 'equal', value: 'x' }] } },
      { fact: 'c', operator: 'equal', value: true },
    ],
  })
  assert.equal(tree('a || b && !c'), {
    any: [{ fact: 'a', operator: 'equal', value: true }, { all: [{ fact: 'b', operator: 'equal', value: true }, { not: { fact: 'c', operator: 'equal', value: true } }] }],
  })
  assert.equal(tree('!a'), { not: { fact: 'a', operator: 'equal', value: true } })
})

/** The message and the offset in the text of a refused `when`. */
function refusal(text: string): [string, number] {
  try {
    tree(text)
  } catch (error) {
    if (error instanceof CompileError) return [error.message, error.index]
    throw error
  }
  throw new Error(`${text} was not refused`)
}

test('what a tree would decide otherwise than the formula is refused where it stands, saying what to write', () => {
  assert.equal(refusal('a > 0 && count(items) > 1'), ['the left of > compares names and values; give the computed part a name of its own under formulas: and compare that name', 9])
  assert.equal(refusal('a == b'), [
    '== between two names cannot tell amounts (compared by value) from text; compare amounts with <= and >=, or give the comparison a name of its own under formulas: and write that name',
    0,
  ])
  assert.equal(refusal('a < true'), ['< compares amounts or dates, not true', 4])
  assert.equal(refusal('contains([1, 2], a)'), ['a list in a condition holds written texts, true or false (an amount is compared by value: write x == 1 || x == 2)', 10])
  assert.equal(refusal('contains(names, other)'), ['contains() on a list name looks for a written text, true or false; for anything else give the test a name of its own under formulas:', 16])
  assert.equal(refusal('1 < 2'), ['< compares two written values, which decides nothing; compare a name with a value', 0])
  assert.equal(refusal('a && true'), ["a rule whose condition is the value true decides nothing; write what it holds for, and the decision's default for what it does not", 5])
  assert.equal(refusal('a ? b : c'), ['a condition compares names and values; give the computed part a name of its own under formulas: and compare that name', 0])
})

// ---- Each tree decides as its text does as a formula, and as json-rules-engine does ----

const FACTS: Record<string, Value>[] = [
  { a: new Dec('0.3'), b: true, c: false, kind: 'x', names: ['spouse'], estate: new Dec('7350000'), cliff: new Dec('7350000'), born: '1950-02-28', died: '2026-01-01' },
  { a: new Dec('0.1').plus('0.2'), b: false, c: true, kind: 'estate', names: [], estate: new Dec('7350001'), cliff: new Dec('7350000'), born: '2026-01-01', died: '2026-01-01' },
  { a: new Dec('-2'), b: false, c: false, kind: 'charity', names: ['child', 'spouse'], estate: new Dec('0'), cliff: new Dec('7350000'), born: '2026-03-01', died: '2026-01-01' },
]
const WHENS = [
  'a == 0.3',
  'a != 0.3',
  'a > 0 && b',
  "!(b || kind == 'x') && c",
  "a < 0 || contains(['estate', 'charity'], kind) && !c",
  "contains(names, 'spouse') && estate <= cliff",
  '!(estate > cliff) || a >= 1',
  "kind != 'x' && !contains(['estate'], kind)",
  "born < '2026-01-01' || born >= died && a <= 0.3",
]

/** What a decision answers, or 'error'. */
async function answers(decide: () => Promise<string> | string): Promise<string> {
  try {
    return await decide()
  } catch {
    return 'error'
  }
}

async function agree(texts: string[], facts: Record<string, Value>[]) {
  for (const text of texts) {
    const formula = compileExpression(text, resolver)
    const decision = new Decision('d', [{ conditions: conditionTree(formula.ast!, text), outcome: 'yes', references: [] }], 'no')
    for (const f of facts) {
      const expected = await answers(() => (formula.run({ get: (n: string) => f[n]! } as unknown as Runtime) ? 'yes' : 'no'))
      assert.is(await answers(() => decision.decide(f).outcome), expected, `${text} on ${JSON.stringify(f)}`)
      assert.is(await answers(async () => (await decision.decideByEngine(f)).outcome), expected, `${text} through json-rules-engine`)
    }
  }
}

test('every tree decides as the same text does as a formula, and as json-rules-engine does', async () => {
  await agree(WHENS, FACTS)
})

test('a null (a figure that does not apply) equals null only, and cannot be ordered, as in a formula', async () => {
  await agree(['a == 0.3', 'a != 0.3', 'a == null', 'a != null', 'a < 1'], [{ a: null }, { a: new Dec('0.3') }])
})

test.run()
