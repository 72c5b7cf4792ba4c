// Generic entry by drug name (issue 29 item 5): with a products file loaded, a trade name or an active
// ingredient finds its application through the words index (search: [trade_name, ingredient]) and the
// answer names the drug. The shipped extract has no products.txt, so this runs on a copy of tables/
// with a FIXTURE products file: the rows below are test fixtures in the products file's shape (the
// application numbers are the extract's, so its patents and exclusivities answer), not data.
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, InputError, loadCatalog, type Catalog } from '../../service/index.js'
import { ENDPOINTS_DIR, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'

const test = suite('pharma/generic entry by drug name (fixture products file)')
const HEADER = 'application,appl_type,appl_no,product_no,ingredient,dosage_form_route,trade_name,applicant,strength,te_code,approval_date,approved_before_1982,rld,rs,type,applicant_full_name,source_url,retrieved'
const fixture = (application: string, product: string, ingredient: string, trade: string, strength: string) =>
  [application, application[0], application.slice(1), product, ingredient, 'TABLET;ORAL', trade, 'FIXTURE', strength, '', '2002-11-15', 'false', 'true', 'false', 'RX', 'FIXTURE APPLICANT', 'https://example.invalid/fixture', '2026-11-28'].join(',')

let catalog: Catalog
test.before(() => {
  const tables = join(mkdtempSync(join(tmpdir(), 'drug-name-')), 'tables')
  cpSync(TABLES_DIR, tables, { recursive: true })
  writeFileSync(
    join(tables, 'pharma', 'orange_book', 'products.csv'),
    [HEADER, fixture('N021436', '001', 'ARIPIPRAZOLE', 'ABILIFY', '2MG'), fixture('N021436', '002', 'ARIPIPRAZOLE', 'ABILIFY', '5MG'), fixture('N021164', '001', 'FIXTURE INGREDIENT', 'FIXTURE TRADE', '1MG'), fixture('N207500', '001', 'FIXTURE INGREDIENT', 'OTHER TRADE', '1MG')].join('\n') + '\n',
  )
  catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: tables, endpointsDir: ENDPOINTS_DIR, dataCacheDir: join(tables, '..', 'cache') })
})
const endpoint = () => catalog.endpoints.find((e) => e.operation_id === 'get_generic_entry_date')!

test('a trade name, in any case, finds its application and the answer names the drug', async () => {
  const byName = (await answer(catalog, endpoint(), { drug: 'abilify' })).result as Record<string, unknown>
  const byNumber = (await answer(catalog, endpoint(), { application_number: 'N021436' })).result as Record<string, unknown>
  assert.is(byName.application_number, 'N021436')
  assert.equal(byName.product, { found: true, trade_names: ['ABILIFY', 'ABILIFY'], ingredients: ['ARIPIPRAZOLE', 'ARIPIPRAZOLE'], message: 'from the products file' })
  // The same dates as asked by number: the name only chooses the application.
  for (const field of ['earliest_submission_date', 'earliest_approval_date', 'barriers', 'found']) assert.equal(byName[field], byNumber[field], field)
})

test('an active ingredient finds it too; a part of a name is not a name', async () => {
  assert.is(((await answer(catalog, endpoint(), { drug: 'Aripiprazole' })).result as Record<string, unknown>).application_number, 'N021436')
  const partial = (await answer(catalog, endpoint(), { drug: 'Abil' })).result as Record<string, unknown>
  assert.is(partial.application_number, null)
  assert.match(String(partial.message), 'No product named Abil in the Orange Book products file of this service (4 products')
})

test('a name listed under several applications is refused, listing them', async () => {
  try {
    await answer(catalog, endpoint(), { drug: 'fixture ingredient' })
    assert.unreachable('refused')
  } catch (error) {
    assert.instance(error, InputError)
    const e = error as InputError
    assert.is(e.details[0]!.field, 'drug')
    assert.match(e.details[0]!.message, 'N021164 FIXTURE TRADE 1MG')
    assert.match(e.details[0]!.message, 'N207500 OTHER TRADE 1MG')
  }
})

test.run()
