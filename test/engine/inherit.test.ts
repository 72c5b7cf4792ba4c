// outputs_like: a rule set's result shape merged from another's, field by field, in reading order.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { mergeOutputs } from '../../engine/load/inherit.js'

const test = suite('engine/inherit: mergeOutputs')
const base = {
  estate_tax: { applies: 'false', taxable_estate: 'tentative_taxable_estate', exemption: 'null', tax: '0', cliff: 'null' },
  inheritance_tax: { applies: 'false', beneficiaries: '[]', total: '0' },
}

test('what the rule set writes replaces the shared field; what it does not write is inherited', () => {
  const merged = mergeOutputs(base, { inheritance_tax: { applies: 'true', total: { formula: 'total', round: 'cent' } } })
  assert.equal(merged, {
    estate_tax: base.estate_tax,
    inheritance_tax: { applies: 'true', beneficiaries: '[]', total: { formula: 'total', round: 'cent' } },
  })
})

test('a field only this rule set writes stands after the field it follows here', () => {
  const merged = mergeOutputs(base, { estate_tax: { applies: 'true', exemption: 'x', tax_before_credit: 't', applicable_credit: 'c', tax: 'tax', gifts_added_back: 'g' } })
  assert.equal(Object.keys(merged.estate_tax as object), ['applies', 'taxable_estate', 'exemption', 'tax_before_credit', 'applicable_credit', 'tax', 'gifts_added_back', 'cliff'])
  assert.equal(Object.keys(merged), ['estate_tax', 'inheritance_tax'])
})

test('null removes a field; a leaf ({formula, round} or {when, then}) replaces, never merges', () => {
  const merged = mergeOutputs({ a: { formula: 'x', round: 'cent' }, b: '1', c: { when: 'p', then: 'q' } }, { a: { formula: 'y' }, b: null, c: { when: 'r', then: 's' } })
  assert.equal(merged, { a: { formula: 'y' }, c: { when: 'r', then: 's' } })
})

test.run()
