// Decisions: json-rules-engine with decimal operators, and no silent first-wins; the compiled fast
// path agrees with json-rules-engine itself, operator by operator and on random condition trees.
import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Decision, OPERATORS, type DecisionRule, type Outcome } from '../../engine/compile/decisions.js'
import { Dec } from '../../engine/values/decimal.js'
import type { Value } from '../../engine/model/types.js'

const test = suite('engine/decide: Decision.decide')

test('compares exact decimals, including values a float would blur', () => {
  const d = new Decision('d', [{ conditions: { all: [{ fact: 'v', operator: 'gt', value: '0.3' }] }, outcome: 'yes', references: [] }], 'no')
  assert.is(d.decide({ v: new Dec('0.1').plus('0.2') }).outcome, 'no')
  assert.is(d.decide({ v: new Dec('0.30000000000000000001') }).outcome, 'yes')
})

test('two rules of the same priority that both match are an error', () => {
  const d = new Decision(
    'clash',
    [
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'a', references: [] },
      { conditions: { all: [{ fact: 'v', operator: 'lte', value: '1' }] }, outcome: 'b', references: [] },
    ],
    undefined,
  )
  assert.throws(() => d.decide({ v: new Dec(1) }), /^decision clash: rules for a and b both match at priority 1$/)
})

test('a higher priority wins, and its citation comes with it', () => {
  const d = new Decision(
    'p',
    [
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'low', references: [] },
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'high', priority: 2, references: [{ title: 'Act § 2' }] },
    ],
    undefined,
  )
  assert.equal(d.decide({ v: new Dec(5) }), { outcome: 'high', references: [{ title: 'Act § 2' }] })
})

test('a decimal operator orders two ISO dates as a formula does', () => {
  const d = new Decision('d', [{ conditions: { all: [{ fact: 'born', operator: 'lt', value: '2026-01-01' }] }, outcome: 'before', references: [] }], 'not before')
  assert.is(d.decide({ born: '2025-12-31' }).outcome, 'before')
  assert.is(d.decide({ born: '2026-01-01' }).outcome, 'not before')
})

test('eq and neq answer a null (a figure that does not apply) as a formula does: equal to null only', () => {
  const d = (operator: string) => new Decision('d', [{ conditions: { all: [{ fact: 'v', operator, value: '5' }] }, outcome: 'yes', references: [] }], 'no')
  assert.is(d('eq').decide({ v: null }).outcome, 'no')
  assert.is(d('neq').decide({ v: null }).outcome, 'yes')
  assert.throws(() => d('lt').decide({ v: null }), /operator lt compares amounts, got null and 5/)
})

test('a decimal operator on something that is not an amount is an error', () => {
  const d = new Decision('d', [{ conditions: { all: [{ fact: 'v', operator: 'lt', value: '1' }] }, outcome: 'yes', references: [] }], 'no')
  assert.throws(() => d.decide({ v: 'text' }), /operator lt compares amounts, got text and 1/)
})

test('what the fast path does not compile is refused at load, not run differently', () => {
  const make = (conditions: unknown) => () => new Decision('d', [{ conditions, outcome: 'x', references: [] }], 'no')
  assert.throws(make({ all: [{ condition: 'shared' }] }), /named conditions/)
  assert.throws(make({ all: [{ fact: 'r', path: '$.a', operator: 'equal', value: 1 }] }), /path into a fact/)
  assert.throws(make({ all: [{ fact: 'a', operator: 'equal', value: { fact: 'r', path: '$.a' } }] }), /path into a fact/)
})

// ---- The fast path against json-rules-engine ----

type Result = { outcome: Outcome } | { error: true }

async function both(decision: Decision, facts: Record<string, Value>): Promise<[Result, Result]> {
  let fast: Result
  try {
    fast = { outcome: decision.decide(facts) }
  } catch {
    fast = { error: true }
  }
  let reference: Result
  try {
    reference = { outcome: await decision.decideByEngine(facts) }
  } catch {
    reference = { error: true }
  }
  return [fast, reference]
}

const FACT_VALUES: Record<string, Value> = {
  amount: new Dec('7350000'),
  fraction: new Dec('0.3675'),
  negative: new Dec('-2'),
  text: 'spouse',
  exactText: '1.5',
  yes: true,
  no: false,
  nothing: null,
  names: ['spouse', 'child'],
  amounts: [new Dec(1), new Dec(2)],
  record: { basis: 'separate' },
  day: '2026-01-01',
}

test('each operator agrees with json-rules-engine on every kind of fact and value', async () => {
  const values: unknown[] = ['7350000', '0.3675', 7350000, 1.5, 'spouse', 'child', true, false, null, ['spouse', 'estate'], [], 'spo', '2026-01-01', '2025-12-31', ...Object.keys(FACT_VALUES).map((fact) => ({ fact }))]
  for (const operator of OPERATORS) {
    for (const fact of Object.keys(FACT_VALUES)) {
      for (const value of values) {
        const d = new Decision('op', [{ conditions: { all: [{ fact, operator, value }] }, outcome: 'hit', references: [] }], 'miss')
        const [fast, reference] = await both(d, FACT_VALUES)
        assert.equal(fast, reference, `${fact} ${operator} ${JSON.stringify(value)}`)
      }
    }
  }
})

const factName = fc.constantFrom(...Object.keys(FACT_VALUES), 'undefined_fact')
const priority = fc.integer({ min: 1, max: 3 })
/** Mostly well-typed comparisons (so that most trees decide), sometimes anything at all (so that errors are compared too). */
const leaf = fc.oneof(
  { arbitrary: fc.record({ fact: fc.constantFrom('amount', 'fraction', 'negative', 'exactText'), operator: fc.constantFrom('lt', 'lte', 'gt', 'gte', 'eq', 'neq'), value: fc.constantFrom<unknown>('0', '0.3675', '7350000', '-2', 1, 2.5, { fact: 'amount' }, { fact: 'fraction' }), priority }, { requiredKeys: ['fact', 'operator', 'value'] }), weight: 4 },
  { arbitrary: fc.record({ fact: fc.constantFrom('text', 'yes', 'no', 'nothing'), operator: fc.constantFrom('equal', 'notEqual', 'in', 'notIn'), value: fc.constantFrom<unknown>('spouse', true, false, null, ['spouse', 'child'], ['estate'], { fact: 'names' }, { fact: 'text' }), priority }, { requiredKeys: ['fact', 'operator', 'value'] }), weight: 4 },
  { arbitrary: fc.record({ fact: fc.constantFrom('names', 'amounts', 'text'), operator: fc.constantFrom('contains', 'doesNotContain'), value: fc.constantFrom<unknown>('spouse', 'estate', { fact: 'text' }), priority }, { requiredKeys: ['fact', 'operator', 'value'] }), weight: 2 },
  {
    arbitrary: fc.record(
      {
        fact: factName,
        operator: fc.constantFrom(...OPERATORS),
        value: fc.oneof(fc.constantFrom<unknown>('0', '1', '0.3675', 'spouse', 1, 2.5, true, false, null, ['spouse', 'child']), factName.map((fact) => ({ fact }))),
        priority,
      },
      { requiredKeys: ['fact', 'operator', 'value'] },
    ),
    weight: 1,
  },
)
const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ all: fc.array(tie('tree'), { maxLength: 4 }), priority }, { requiredKeys: ['all'] }),
    fc.record({ any: fc.array(tie('tree'), { maxLength: 4 }), priority }, { requiredKeys: ['any'] }),
    fc.record({ not: tie('tree') }),
  ),
}))
const root = fc.oneof(
  fc.array(tree, { maxLength: 4 }).map((all) => ({ all })),
  fc.array(tree, { maxLength: 4 }).map((any) => ({ any })),
  tree.map((not) => ({ not })),
)
const rules = fc.array(fc.record({ conditions: root, priority }), { minLength: 1, maxLength: 4 })

test('random condition trees decide as json-rules-engine decides them (outcome, clash or error)', async () => {
  const seen = { matched: 0, default: 0, error: 0 }
  await fc.assert(
    fc.asyncProperty(rules, fc.boolean(), async (raw, withDefault) => {
      const written: DecisionRule[] = raw.map((r, i) => ({ conditions: structuredClone(r.conditions), outcome: `rule${i}`, priority: r.priority, references: [{ title: `§ ${i}` }] }))
      const d = new Decision('random', written, withDefault ? 'default' : undefined)
      const [fast, reference] = await both(d, FACT_VALUES)
      assert.equal(fast, reference, JSON.stringify(raw))
      if ('error' in fast) seen.error++
      else seen[fast.outcome.outcome === 'default' ? 'default' : 'matched']++
    }),
    { numRuns: 1500 },
  )
  // Not vacuous: the trees reach every kind of answer, and errors (clashes among them) are compared too.
  for (const [kind, n] of Object.entries(seen)) assert.ok(n >= 50, `only ${n} trees ended ${kind}: ${JSON.stringify(seen)}`)
})

test.run()
