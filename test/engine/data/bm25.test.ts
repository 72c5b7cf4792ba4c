// engine/data/bm25.ts: FTS5's rank computed outside FTS5. Its order against FTS5's own is tested in
// search.test.ts; here, the pieces FTS5 hands it.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { averageSize, idf, indexTotals, rank } from '../../../engine/data/bm25.js'

const test = suite('engine/data/bm25')

test('indexTotals reads the rows and tokens of FTS5\'s averages record (SQLite varints)', () => {
  // The record of the million-row bench's index: 1,000,000 rows holding 2,765,060 tokens.
  assert.equal(indexTotals(Buffer.from('BD844081A8E204', 'hex')), { rows: 1_000_000, tokens: 2_765_060 })
  // One byte each; two columns' tokens add up.
  assert.equal(indexTotals(Uint8Array.from([3, 5, 7])), { rows: 3, tokens: 12 })
  assert.throws(() => indexTotals(Uint8Array.from([0x81])), /cut short/)
})

test('averageSize counts a table of no rows as one row, as FTS5 does', () => {
  assert.is(averageSize({ rows: 4, tokens: 10 }), 2.5)
  assert.is(averageSize({ rows: 0, tokens: 0 }), 0)
})

test('idf floors a phrase held by half the rows or more at 1e-6; rank is minus the sum', () => {
  assert.is(idf(-0.3), 1e-6)
  assert.is(idf(0), 1e-6)
  assert.is(idf(2), 2)
  // One phrase once in a row of average size: idf × (1 × 2.2) / (1 + 1.2) = idf.
  assert.is(rank([1], [3], 4, 4), -3)
  // A phrase the row does not hold adds nothing; a longer row scores lower.
  assert.is(rank([1, 0], [3, 5], 4, 4), -3)
  assert.ok(rank([1], [3], 8, 4) > rank([1], [3], 4, 4))
})

test.run()
