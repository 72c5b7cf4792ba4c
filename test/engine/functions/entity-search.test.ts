// entity_search: a name against the rows of a list, through the blocking index, with the rarity of
// words in the list (issue 32, items 6 and 7; issue 29, item 4). The index finding what a scan finds
// on the real data sets is checked in test/matching/evaluation.test.ts.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CompileError } from '../../../engine/compile/expression.js'
import { entitySearch } from '../../../engine/functions/matching.js'
import { loadCatalog } from '../../../service/index.js'
import type { LookupEntry, TableEntry } from '../../../engine/data/tables.js'
import type { Value } from '../../../engine/model/types.js'
import { Dec } from '../../../engine/values/decimal.js'
import { formula, show } from './formula.js'

const test = suite('engine/functions/matching: entity_search')

const catalog = loadCatalog({ rulesDir: 'rules', tablesDir: 'tables' })
const words = catalog.tables.get('matching.entity.name_words')! as LookupEntry
const wordRows = words.history[words.history.length - 1]!.value
const tables: Record<string, TableEntry> = { words }

// A list where "laboratories" is generic (held by 12 of the 16 names) and each firm has a rare word.
const firms = ['Acme', 'Bolt', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Garnet', 'Harbor', 'Iris', 'Juniper', 'Kestrel', 'Lumen']
const rows: Value[] = [
  ...firms.map((f, i) => ({ company: `${f} Laboratories, Inc.`, id: `L-${i}` })),
  { company: 'Elanco Animal Health', id: 'E-1' },
  { company: 'Sun Pharmaceutical Industries Ltd.', id: 'S-1' },
  { company: 'Zenith Vapor', id: 'Z-1' },
  { company: 'Nova Foods', id: 'N-1' },
]
const search = (name: string, least = '0.90', ids: Value = null) =>
  formula("entity_search(words, name, rows, 'company', least, ids)", { name, rows, least: new Dec(least), ids }, tables) as { row: Record<string, Value>; match: Record<string, Value> }[]
const names = (found: { row: Record<string, Value> }[]) => found.map((f) => f.row.company)

test('a name finds its firm at full confidence, with the row and entity_match\'s record', () => {
  const found = search('Cobalt Labs')
  assert.equal(names(found), ['Cobalt Laboratories, Inc.'])
  assert.is(show(found[0]!.match.confidence!), '"1"')
  assert.is(found[0]!.match.normalized_candidate, 'cobalt laboratory')
})

test('generic words alone list no one: a word held by most names of the list is no lead', () => {
  assert.equal(search('Laboratories Inc'), [])
  assert.equal(search('Laboratories International'), [])
  // Listed below the possible-match threshold only, capped at generic_cap.
  const low = search('Laboratory', '0.5')
  assert.ok(low.length >= 12)
  assert.ok(low.every((f) => (f.match.confidence as Dec).lte('0.85')), show(low.map((f) => f.match.confidence!)))
})

test('a short name for a longer one, sharing a rare word, is a lead; a rare word one name lacks is never a match', () => {
  const elanco = search('Elanco')
  assert.equal(names(elanco), ['Elanco Animal Health'])
  assert.is(show(elanco[0]!.match.confidence!), '"0.91"')
  const sun = search('Pharmaceutical Industries', '0.5')
  assert.ok(sun.every((f) => (f.match.confidence as Dec).lt('0.98')))
})

test('identifiers are found through the index whatever the name, and a different one is no match', () => {
  const byId = search('Something Else Entirely', '0.90', { id: 'N-1' })
  assert.equal(names(byId), ['Nova Foods'])
  assert.is(show(byId[0]!.match.confidence!), '"1"')
  // Nova Foods' own id differs: not listed; the row holding L-3 is, by its identifier.
  assert.equal(names(search('Nova Foods', '0.90', { id: 'L-3' })), ['Delta Laboratories, Inc.'])
})

test('the index finds what a scan finds, and a least confidence at or below generic_cap scans', () => {
  for (const q of ['Cobalt Labs', 'Elanco', 'Laboratories', 'Zenit Vapour', 'Nova', 'Sun Pharma Industries', 'Juniper Laboratories Limited Liability Company']) {
    for (const least of ['0.90', '0.98', '0.86']) {
      const a = entitySearch(wordRows, q, rows, 'company', new Dec(least), null)
      const b = entitySearch(wordRows, q, rows, 'company', new Dec(least), null, { scan: true })
      assert.equal(show(a as unknown as Value), show(b as unknown as Value), `${q} at ${least}`)
    }
  }
  assert.ok(entitySearch(wordRows, 'Laboratories', rows, 'company', new Dec('0.85'), null).length >= 12)
})

test('the rows come back in the list\'s order, and the work is counted', () => {
  const found = search('Acme Laboratories', '0.5')
  const at = found.map((f) => rows.indexOf(f.row))
  assert.equal(at, [...at].sort((x, y) => x - y))
  let steps = 0
  entitySearch(wordRows, 'Acme Laboratories', rows, 'company', new Dec('0.9'), null, { charge: (items, chars) => (steps += items + chars) })
  assert.ok(steps > 0)
})

test('a words table without the settings is refused at load', () => {
  const history = words.history.map((h) => ({ ...h, value: new Map([...h.value].filter(([, r]) => r.role !== 'setting')) }))
  const bare: LookupEntry = { ...words, id: 'demo.bare', history }
  assert.throws(() => formula("entity_search(bare, 'a', [], 'company', 0.9)", {}, { bare }), (e: unknown) => e instanceof CompileError && /lacks the setting/.test((e as Error).message))
})

test.run()
