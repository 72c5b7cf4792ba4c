// Decisions: json-rules-engine with decimal operators, and no silent first-wins.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Decision } from '../../engine/decide.js'
import { Dec } from '../../engine/decimal.js'

const test = suite('engine/decide: Decision.decide')

test('compares exact decimals, including values a float would blur', async () => {
  const d = new Decision('d', [{ conditions: { all: [{ fact: 'v', operator: 'gt', value: '0.3' }] }, outcome: 'yes', references: [] }], 'no')
  assert.is((await d.decide({ v: new Dec('0.1').plus('0.2') })).outcome, 'no')
  assert.is((await d.decide({ v: new Dec('0.30000000000000000001') })).outcome, 'yes')
})

test('two rules of the same priority that both match are an error', async () => {
  const d = new Decision(
    'clash',
    [
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'a', references: [] },
      { conditions: { all: [{ fact: 'v', operator: 'lte', value: '1' }] }, outcome: 'b', references: [] },
    ],
    undefined,
  )
  let message = ''
  await d.decide({ v: new Dec(1) }).catch((e: Error) => (message = e.message))
  assert.is(message, 'decision clash: rules for a and b both match at priority 1')
})

test('a higher priority wins, and its citation comes with it', async () => {
  const d = new Decision(
    'p',
    [
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'low', references: [] },
      { conditions: { all: [{ fact: 'v', operator: 'gte', value: '1' }] }, outcome: 'high', priority: 2, references: [{ title: 'Act § 2' }] },
    ],
    undefined,
  )
  const out = await d.decide({ v: new Dec(5) })
  assert.equal(out, { outcome: 'high', references: [{ title: 'Act § 2' }] })
})

test.run()
