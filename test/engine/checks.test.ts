// Checks made once per item of a list (`for_each`): each failing item is a fault of its own, named
// by the path of the field at fault (heirs[1].share), with a message about that item; and the load
// check holds a check's field to the request's fields.
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate, InputError, loadCatalog } from '../../service/index.js'
import { FIXTURES, fixtureWith, loadProblems } from '../helpers.js'

const test = suite('engine/checks: for_each')
const catalog = loadCatalog({ rulesDir: join(FIXTURES, 'lists', 'rules'), tablesDir: join(FIXTURES, 'lists', 'tables') })

async function refusal(input: Record<string, unknown>): Promise<InputError> {
  try {
    await evaluate(catalog, 'demo.heirs', input)
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('the request was answered')
}

const heir = (name: string, share: number, more: Record<string, unknown> = {}) => ({ name, share, ...more })

test('each failing item is named by its index, with its own values in the message', async () => {
  const error = await refusal({ estate: 100, heirs: [heir('Ann', 50), heir('Ben', 150)] })
  assert.equal(error.details, [
    { field: 'estate', message: 'is less than the shares, $200' },
    { field: 'heirs[1].share', message: 'is $150, more than the estate of $100 (Ben)' },
  ])
  assert.is(error.code, 'validation_error')
})

test('items are listed in index order (heirs[2] before heirs[10]), each check in the order written', async () => {
  const heirs = Array.from({ length: 11 }, (_, k) => heir(`H${k}`, 0))
  heirs[2] = heir('H2', 500, { minor: true })
  heirs[10] = heir('H10', 0, { minor: true })
  heirs[0] = heir('H0', 0, { minor: true })
  const error = await refusal({ estate: 400, heirs })
  assert.equal(
    error.details.map((d) => d.field),
    ['estate', 'heirs[2].guardian', 'heirs[2].share', 'heirs[10].guardian'],
  )
  assert.is(error.details[1]!.message, 'is required for H2, a minor after the first heir')
})

test('a list whose items all pass raises nothing', async () => {
  const { result } = await evaluate(catalog, 'demo.heirs', { estate: 100, heirs: [heir('Ann', 40, { minor: true }), heir('Ben', 60, { minor: true, guardian: 'Cy' })] })
  assert.is(result.shares, 100)
})

test("the load check refuses a check's field that is no request field, and a for_each field without the item's index", () => {
  assert.equal(loadProblems(fixtureWith('check-field-unknown', 'rules/demo/flat.yaml').dir), [
    "rules/demo/flat.yaml:18:12: 'amont' is not a request field of this rule set: a check names the input at fault",
  ])
  assert.equal(loadProblems(fixtureWith('check-each-without-index', 'rules/demo/flat.yaml').dir), [
    "rules/demo/flat.yaml:23:12: a check made for each item names the item's field by its index, as parts[{k}].<field>, not 'parts'",
    "rules/demo/flat.yaml:25:15: the item's index is named 'i', which is also a field of the items; name the index otherwise with index:",
    "rules/demo/flat.yaml:32:12: 'parts[{k}].valeu' is not a request field of this rule set: a check names the input at fault, an item's as parts[{k}].<field>",
  ])
})

test("a for_each condition is type-checked with the item's fields", () => {
  assert.equal(loadProblems(fixtureWith('check-each-type', 'rules/demo/flat.yaml').dir), [
    'rules/demo/flat.yaml:21:11: the left of > must be an amount (or both sides dates), not text',
  ])
})

test.run()

const calls = suite('engine/checks: a called rule set refuses')

async function callRefusal(input: Record<string, unknown>): Promise<InputError> {
  try {
    await evaluate(catalog, 'demo.caller', input)
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('the request was answered')
}

calls("naming the caller's input where the call passed it under another name (year: tax_year)", async () => {
  // The caller never sent `year`: a refusal naming it would point at no field of the request.
  const error = await callRefusal({ price: 1, tax_year: 1999 })
  assert.equal(error.details, [{ field: 'tax_year', message: 'is before 2000' }])
  assert.is(error.message, 'tax_year is before 2000')
})

calls('keeping its own field where the call passed a formula of several inputs', async () => {
  const error = await callRefusal({ price: -5, tax_year: 2020 })
  assert.equal(error.details, [{ field: 'amount', message: 'is negative' }])
})

calls.run()
