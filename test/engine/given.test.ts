// Formulas given values (engine/given.ts, through evaluate's `given`): the value stands in for the
// formula, what reads it follows, a decision given is not decided, the rule sets it calls are not
// touched, and a name or a value that does not fit is refused naming both.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate, EvaluationError, loadLaw } from '../../engine/index.js'
import { RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'

const test = suite('engine/given')
const catalog = loadLaw({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
const NY = { state: 'NY', tax_year: 2026 }

async function refused(given: Record<string, unknown>): Promise<string> {
  try {
    await evaluate(catalog, 'estate.state.ny', NY, { given })
  } catch (error) {
    if (error instanceof EvaluationError) return error.message
    throw error
  }
  throw new Error('the evaluation was answered')
}

test('a given formula is not computed: the formulas that read it follow, and the named ones are returned', async () => {
  const { result, formulas } = await evaluate(catalog, 'estate.state.ny', NY, {
    given: { new_york_taxable_estate: '7_500_000' },
    formulas: ['phase_out_base', 'credit_region', 'new_york_taxable_estate'],
  })
  assert.is((result.estate_tax as { tax: number }).tax, 386400)
  assert.equal(Object.keys(formulas!), ['phase_out_base', 'credit_region', 'new_york_taxable_estate'])
  assert.is(String(formulas!.phase_out_base), '4350000')
  assert.is(formulas!.credit_region, 'phase_out')
  assert.is(String(formulas!.new_york_taxable_estate), '7500000')
})

test('a decision given an outcome is not decided: its value is the one given', async () => {
  const { result } = await evaluate(catalog, 'estate.state.ny', NY, { given: { new_york_taxable_estate: 7000000, credit_region: 'beyond_cliff' } })
  const tax = result.estate_tax as { tax: number; applicable_credit: number; cliff: { region: string } }
  assert.is(tax.cliff.region, 'beyond_cliff')
  assert.is(tax.applicable_credit, 0)
  assert.is(tax.tax, 638000)
})

test('a given name is the rule set\'s own: a rule set it calls computes its formula of that name', async () => {
  const input = { gross_estate: 7500000, state_of_domicile: 'NY', decedent_year_of_death: 2026 }
  const { result, formulas } = await evaluate(catalog, 'estate.federal', input, { given: { tentative_taxable_estate: 1 }, formulas: ['tentative_taxable_estate'] })
  assert.is(String(formulas!.tentative_taxable_estate), '1')
  assert.is((result.state_estate_tax as { taxable_estate: number }).taxable_estate, 7500000)
})

test('without given or formulas the answer has no formulas field', async () => {
  const evaluated = await evaluate(catalog, 'estate.state.ny', { ...NY, tentative_taxable_estate: 7500000 })
  assert.is(evaluated.formulas, undefined)
})

test('an unknown name, an input, and a value not of the formula\'s type are refused, naming both', async () => {
  assert.is(await refused({ new_york_taxable_estat: 1 }), "estate.state.ny has no formula 'new_york_taxable_estat' to give a value to")
  assert.is(await refused({ gross_estate: 1 }), "estate.state.ny: 'gross_estate' is an input; it is given as an input, not in place of a formula")
  assert.is(await refused({ new_york_taxable_estate: 'seven million' }), `estate.state.ny: the value given to 'new_york_taxable_estate' is "seven million", not an amount`)
  assert.is(await refused({ credit_region: 3 }), "estate.state.ny: the value given to 'credit_region' is 3, not text")
})

test.run()
