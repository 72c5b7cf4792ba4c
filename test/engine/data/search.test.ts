// search_rows' index: a data set's search columns indexed by their words (SQLite FTS5), so a name is
// compared with the rows sharing its words instead of every row.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import Database from 'better-sqlite3'
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

// The store ranks the rows a search matched itself (engine/data/bm25.ts) instead of asking FTS5 to,
// and must give FTS5's own order: the same rows, the same ranks, ties by line. A generated set of
// words (not data) large enough for every kind of query: words held by more than 500 rows (common),
// words ranking but not rare (above 500 rows, at most 5 % of 12,000), rare words, initials, a word
// twice in a row, accented words, and words typed short or mistyped.
test('the order of a search is FTS5\'s ORDER BY rank, line, for every kind of query', () => {
  let seed = 29
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const syllables = ['al', 'ben', 'cor', 'da', 'el', 'fin', 'gar', 'ho', 'is', 'jan', 'ka', 'lor', 'mi', 'nor', 'os', 'pé', 'qui', 'ra', 'sten', 'tor']
  const pool = Array.from({ length: 2000 }, (_, n) => {
    let w = ''
    for (let k = n + 400; k > 0; k = Math.floor(k / 20)) w += syllables[k % 20]
    return w
  })
  const weights: number[] = []
  pool.forEach((_, k) => weights.push((weights[k - 1] ?? 0) + 1 / (k + 1)))
  const word = () => {
    const x = random() * weights[weights.length - 1]!
    return pool[weights.findIndex((c) => c >= x)]!
  }
  const names: string[] = []
  for (let i = 0; i < 12_000; i++) {
    const parts = [word(), word(), ...(random() < 0.5 ? [word()] : [])]
    if (random() < 0.3) parts.splice(1, 0, String.fromCharCode(65 + Math.floor(random() * 26)))
    if (random() < 0.05) parts.push(parts[0]!)
    names.push(parts.join(' ').replace(/^./, (c) => c.toUpperCase()))
  }
  const big = mkdtempSync(join(tmpdir(), 'search-order-'))
  writeFileSync(join(big, 'words.csv'), ['id,name', ...names.map((n, i) => `${i + 1},${n}`)].join('\n') + '\n')
  const found: Problem[] = []
  const cache = join(big, 'cache')
  const words = openDatasets([{ id: 'words', path: join(big, 'words.csv'), shown: 'words.csv', descriptor: { file: 'words.csv', format: 'csv', columns: { id: 'integer', name: 'text' }, search: ['name'] } }], cache, found).get('words')!
  assert.equal(found, [])
  const db = new Database(join(cache, readdirSync(cache).find((f) => f.endsWith('.sqlite'))!), { readonly: true })
  const fts5 = db.prepare('SELECT t.c_id FROM d0_search s JOIN d0 t ON t.line = s.rowid WHERE d0_search MATCH ? ORDER BY s.rank, t.line LIMIT ?').pluck()
  const texts = names.filter((_, i) => i % 97 === 0).flatMap((n) => [n, n.toLowerCase().slice(0, -1), n.split(' ').slice(0, 2).join(' ')])
  texts.push(`${pool[0]} ${pool[1]}`, `${pool[0]} ${pool[1]} ${pool[8]}`, pool[0]!, 'b', `${pool[3]!.slice(0, 5)} ${pool[0]}`, 'Pe', 'pe ben')
  const kinds = new Set<string>()
  for (const text of texts) {
    const expression = words.searchExpression(text)
    if (expression === undefined) continue
    kinds.add(expression.includes(') AND (') ? 'ranked by more words' : expression.includes('" AND "') ? 'two common words' : expression.includes(' OR ') ? 'any rare word' : 'one word')
    for (const limit of [50, 1000]) assert.equal(words.search(text, limit).map((r) => Number(r.id)), (fts5.all(expression, limit) as number[]).map(Number), `${text} (${expression}), ${limit}`)
  }
  assert.equal([...kinds].sort(), ['any rare word', 'one word', 'ranked by more words', 'two common words'])
  db.close()
  rmSync(big, { recursive: true, force: true })
})

test.run()
