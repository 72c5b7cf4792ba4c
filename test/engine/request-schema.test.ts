// A manifest's request schema filled in from its rule set's inputs: the manifest writes only what
// the inputs cannot say.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import type { ValueType } from '../../engine/functions/spec.js'
import { enumsFromTables, requestSchema, responseSchema } from '../../service/request-schema.js'
import type { TableEntry } from '../../engine/data/tables.js'
import type { InputSpec } from '../../engine/model/rule-set.js'

const test = suite('engine/request-schema: requestSchema')
const inputs: Record<string, InputSpec> = {
  gross_estate: { type: 'amount' },
  tax_year: { type: 'integer', default: new Dec(2026) },
  date_of_death: { type: 'date' },
  filing_status: { type: 'text', default: 'single' },
  beneficiaries: { type: 'list', default: [], items: { type: 'object', fields: { relationship: { type: 'text' }, inheritance_amount: { type: 'amount' } } } },
}

test('types, formats, defaults and closed objects come from the inputs, in the order a person writes them', () => {
  const filled = requestSchema(
    {
      required: ['gross_estate'],
      properties: {
        gross_estate: { minimum: 0, description: 'Gross estate.' },
        tax_year: { description: 'Year of death.' },
        date_of_death: { description: 'Date of death.' },
        filing_status: { enum: ['single', 'married'] },
        beneficiaries: { description: 'Who receives what.', items: { required: ['relationship'], properties: { relationship: { enum: ['child'] }, inheritance_amount: { minimum: 0 } } } },
      },
    },
    inputs,
  )
  assert.equal(JSON.stringify(filled), JSON.stringify({
    type: 'object',
    additionalProperties: false,
    required: ['gross_estate'],
    properties: {
      gross_estate: { type: 'number', minimum: 0, description: 'Gross estate.' },
      tax_year: { type: 'integer', default: 2026, description: 'Year of death.' },
      date_of_death: { type: 'string', format: 'date', description: 'Date of death.' },
      filing_status: { type: 'string', enum: ['single', 'married'], default: 'single' },
      beneficiaries: {
        type: 'array',
        default: [],
        description: 'Who receives what.',
        items: { type: 'object', additionalProperties: false, required: ['relationship'], properties: { relationship: { type: 'string', enum: ['child'] }, inheritance_amount: { type: 'number', minimum: 0 } } },
      },
    },
  }))
})

test('what the manifest writes wins over what the inputs would give', () => {
  const filled = requestSchema({ properties: { tax_year: { type: 'number', default: 2025 } } }, inputs)
  assert.equal((filled.properties as Record<string, unknown>).tax_year, { type: 'number', default: 2025 })
})

test('enum_from takes the keys of a one-key lookup; another table is a problem', () => {
  const lookup = {
    kind: 'lookup', id: 'demo.states', name: 'states', label: 'x', file: 'x', as_of: '2026-01-01', references: [], keys: ['state'],
    history: [{ from: '2026-01-01', references: [], value: new Map([['NY', { state: 'NY' }], ['CT', { state: 'CT' }]]) }],
  } as unknown as TableEntry
  const problems: string[] = []
  const out = enumsFromTables({ properties: { state: { type: 'string', enum_from: 'demo.states', description: 'd' } } }, (id) => (id === 'demo.states' ? lookup : undefined), problems)
  assert.equal(JSON.stringify(out), JSON.stringify({ properties: { state: { type: 'string', enum: ['CT', 'NY'], description: 'd' } } }))
  assert.equal(problems, [])
  enumsFromTables({ enum_from: 'demo.nothing' }, () => undefined, problems)
  assert.equal(problems, ['enum_from names "demo.nothing", which is not a lookup table with one key column'])
})

test('maximum_from and minimum_from take the last value of a parameter; another table is a problem', () => {
  const limit = {
    kind: 'parameter', id: 'demo.limit', name: 'limit', label: 'x', file: 'x', as_of: '2026-01-01', references: [], unit: '/1',
    history: [{ from: '1990-01-01', references: [], value: new Dec(0.1) }, { from: '2000-01-01', references: [], value: new Dec(0.2) }],
  } as unknown as TableEntry
  const problems: string[] = []
  const out = enumsFromTables({ minimum_from: 'demo.limit', maximum_from: 'demo.limit', description: 'd' }, (id) => (id === 'demo.limit' ? limit : undefined), problems)
  assert.equal(out, { minimum: 0.2, maximum: 0.2, description: 'd' })
  assert.equal(problems, [])
  enumsFromTables({ maximum_from: 'demo.nothing' }, () => undefined, problems)
  assert.equal(problems, ['maximum_from names "demo.nothing", which is not a parameter with a numeric value'])
})

test("a response schema takes its types from the rule set's result type, and closes its objects", () => {
  const output = { record: { tax: 'amount', region: 'text', years: { list: { record: { year: 'integer' } } }, section: { record: 'open' } } } as const
  const filled = responseSchema(
    { properties: { tax: { description: 't' }, region: { type: ['string', 'null'] }, years: { items: { properties: { year: {} } } }, section: { description: 's' } } },
    output as unknown as ValueType,
  )
  assert.equal(JSON.stringify(filled), JSON.stringify({
    type: 'object',
    additionalProperties: false,
    properties: {
      tax: { type: 'number', description: 't' },
      region: { type: ['string', 'null'] },
      years: { type: 'array', items: { type: 'object', additionalProperties: false, properties: { year: { type: 'integer' } } } },
      section: { type: 'object', additionalProperties: false, description: 's' },
    },
  }))
})

test.run()
