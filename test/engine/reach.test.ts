// An answer's data date is never empty: one that read no table (fuzz review 2026-11-27, defect 11:
// an ADA toilet room answered `data_as_of: ""`, which the envelope's schema refuses) is dated by the
// tables its rule set is built on, fixed at load, never by a clock.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer, evaluate } from '../../service/index.js'
import { fallbackDataDate } from '../../engine/check/reach.js'
import { catalog } from '../helpers.js'

const test = suite('engine/reach: fallbackDataDate')

const newestOf = (prefix: string) => [...catalog().tables.values()].filter((t) => t.id.startsWith(prefix)).reduce((d, t) => (t.as_of > d ? t.as_of : d), '')

test('an ADA toilet room reads no table and is dated by the ADA tables', async () => {
  const { data_as_of } = await evaluate(catalog(), 'ada.requirements', { toilet_rooms: [{}] })
  assert.match(data_as_of, /^\d{4}-\d{2}-\d{2}$/)
  assert.is(data_as_of, newestOf('ada.'))
  assert.is(fallbackDataDate(catalog().ruleSets.get('ada.requirements')!, catalog().ruleSets, catalog().tables.values()), data_as_of)
})

test('the same request through the endpoint answers the same date', async () => {
  const ada = catalog().endpoints.find((e) => e.operation_id === 'check_ada_requirements' || e.paths.includes('/ada/requirements'))!
  const envelope = await answer(catalog(), ada, { toilet_rooms: [{}] })
  assert.is(envelope.data_as_of, newestOf('ada.'))
})

test('every rule set has a data date to fall back on', () => {
  for (const rs of catalog().ruleSets.values()) {
    assert.match(fallbackDataDate(rs, catalog().ruleSets, catalog().tables.values()), /^\d{4}-\d{2}-\d{2}$/, rs.id)
  }
})

test.run()
