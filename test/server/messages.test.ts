// Every message says what to write (issue 26, item 5): ten mistakes callers make, each answered with
// the fix, over HTTP as a caller meets them.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { post, startService, type Service } from '../helpers.js'

const test = suite('server: messages that say what to write')
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const STATE = '/estate/calculate-state-tax'
const LICENSE = '/credentials/verify'
const license = { name: 'Elise Hiza', state: 'NC', profession: 'physician', as_of: '2026-11-27' }

/** The one detail of a 400, its field and message. */
async function refused(path: string, body: unknown, field: string): Promise<{ field: string; message: string; whole: string }> {
  const r = await post(service, path, body)
  assert.is(r.status, 400, r.text)
  const detail = (r.json.error.details as { field: string; message: string }[]).find((d) => d.field === field)
  assert.ok(detail, r.text)
  return { ...detail!, whole: r.json.error.message as string }
}

const mistakes: [string, string, unknown, string, RegExp][] = [
  ['a date written the US way', LICENSE, { ...license, as_of: '11/27/2026' }, 'as_of', /YYYY-MM-DD \("11\/27\/2026" is 2026-11-27\)/],
  ['a date in words', LICENSE, { ...license, as_of: 'tomorrow' }, 'as_of', /YYYY-MM-DD/],
  ['a state by its name', STATE, { state: 'North Carolina', tax_year: 2026, gross_estate: 1 }, 'state', /write NC for North Carolina/],
  ['a state by its name in lower case', STATE, { state: 'new york', tax_year: 2026, gross_estate: 1 }, 'state', /write NY for new york/],
  ['a state code with a slip', STATE, { state: 'NYY', tax_year: 2026, gross_estate: 1 }, 'state', /did you mean NY\?/],
  ['a field by its first words', '/social-security/estimate', { date_of_birth: '1964-03-10', calculation_year: 2026, claim_age: 67 }, 'claim_age', /did you mean claim_age_months\?/],
  ['a field misspelt', STATE, { state: 'NY', tax_year: 2026, gros_estate: 1 }, 'gros_estate', /did you mean gross_estate\?/],
  ['a year not supported', STATE, { state: 'NY', tax_year: 2019, gross_estate: 1 }, 'tax_year', /supported: 2022, 2023, 2024, 2025, 2026/],
  ['JSON with a trailing comma', STATE, '{"state": "NY",\n "tax_year": 2026,\n}', 'body', /at position \d+ \(line 3, column 1\)/],
  ['JSON cut short', STATE, '{"state": "NY", "tax_year": 2026', 'body', /after property value at position 32 \(line 1, column 33\)/],
]

for (const [what, path, body, field, fix] of mistakes) {
  test(`${what}: the message names the fix`, async () => {
    const d = await refused(path, body, field)
    assert.match(d.message, fix)
    // The top-level message says it too, for a caller who reads only that (when it is the only fault).
    if (!/fields are invalid/.test(d.whole)) assert.match(d.whole, fix)
  })
}

test('a long enum is not printed whole: its size, a few values, and where the list is', async () => {
  const d = await refused(STATE, { state: 'Nowhere', tax_year: 2026, gross_estate: 1 }, 'state')
  assert.match(d.message, /one of the 51 values the request schema lists \(AK, AL, AR, AZ, CA, …\)/)
  assert.ok(d.message.length < 200, d.message)
})

test.run()
