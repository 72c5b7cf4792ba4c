// search_rows' index: a data set's search columns indexed by their words (SQLite FTS5), so a name is
// compared with the rows sharing its words instead of every row.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openDatasets, searchWords, MAX_SEARCH_WORDS } from '../../../engine/data/store.js'
import type { Problem } from '../../../engine/errors.js'

const test = suite('engine/data/store: search')
const dir = mkdtempSync(join(tmpdir(), 'search-'))
// Test fixture names (not data): each row's words, chosen to show the ranking (BM25 weighs a word
// by how rare it is, so the fixture holds more rows without the searched words than with them).
writeFileSync(join(dir, 'names.csv'), ['id,name,city', '1,Acme Laboratories Inc,Boston', '2,Acme Rockets,Denver', '3,Zenith Laboratories,Boston', '4,Société Générale Ça Va,Paris', '5,Acme,Boston', '6,Northwind Traders,Seattle', '7,Globex Corporation,Springfield', '8,Initech,Austin', '9,Umbrella Pharma,Raccoon', '10,Stark Industries,Malibu', '11,Wayne Enterprises,Gotham'].join('\n') + '\n')
const problems: Problem[] = []
const store = openDatasets([{ id: 'names', path: join(dir, 'names.csv'), shown: 'names.csv', descriptor: { file: 'names.csv', format: 'csv', columns: { id: 'integer', name: 'text', city: 'text' }, key: ['id'], search: ['name'] } }], join(dir, 'cache'), problems).get('names')!

test('the rows sharing words with a text, the best first, at most the limit', () => {
  assert.equal(problems, [])
  const ids = (text: string, limit = 10) => store.search(text, limit).map((r) => Number(r.id))
  // Both words of "acme laboratories" on row 1; one of them on 2, 3 and 5.
  assert.is(ids('Acme Laboratories')[0], 1)
  assert.equal(new Set(ids('Acme Laboratories')), new Set([1, 2, 3, 5]))
  assert.equal(ids('acme laboratories', 2).length, 2)
  assert.equal(ids('Rockets'), [2])
  // Case, accents and punctuation do not matter; a word absent everywhere finds nothing.
  assert.equal(ids('SOCIETE generale!'), [4])
  assert.equal(ids('Nowhere'), [])
  // Only the search columns are indexed: a city is no word of the name.
  assert.equal(ids('Denver'), [])
})

test('a text without words, or with operators, is only words', () => {
  assert.equal(store.search('  ---  ', 10), [])
  assert.equal(searchWords('"Acme" OR NOT x*'), ['acme', 'or', 'not', 'x'])
  assert.equal(store.search('acme NEAR(x)', 10).map((r) => Number(r.id)).sort(), [1, 2, 5])
  const many = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ')
  assert.is(searchWords(many).length, MAX_SEARCH_WORDS)
  // A word with a typo at its end is looked for by its first letters.
  assert.equal(store.search('Zenith Laboratorys', 10).map((r) => Number(r.id)).sort(), [1, 3])
})

test.run()
