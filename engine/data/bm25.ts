/**
 * @module FTS5's own BM25 rank (SQLite's `bm25()`, ext/fts5/fts5_aux.c), computed here over the rows a
 * search matched. Asked to order by rank, FTS5 first counts the rows holding each phrase of the query
 * by reading that phrase's whole posting list, on every search: for a name with a common word
 * ("hospital", held by 3 % of a million rows) that reading was most of the search's time. The store
 * keeps those counts (its words table), so the rank needs only each matched row's tokens.
 *
 * The arithmetic is fts5Bm25GetData's and fts5Bm25Function's, operation for operation and in the same
 * order (k1 = 1.2, b = 0.75 are FTS5's constants, not settings of ours), so each score is the same
 * double FTS5 computes and the order of the rows is the same; the logarithm is SQLite's own `ln()`
 * (the C library's `log`, as FTS5 calls it), asked of the database. test/engine/data/search.test.ts
 * compares the order with FTS5's `ORDER BY rank` on searches of every kind. One caveat, checked only on
 * x86-64: where SQLite's C compiler fuses a multiply and an add (possible on arm64), FTS5's score can
 * differ from this one in its last bit, which could only swap two rows whose scores differ by that bit.
 */

/** FTS5's bm25 constants (fts5_aux.c), named as there. */
const k1 = 1.2
const b = 0.75

/** What FTS5's averages record holds: the rows indexed and the tokens of all of them. @api private */
export interface IndexTotals {
  rows: number
  tokens: number
}

/**
 * Read FTS5's averages record (the `%_data` row with id 1): a varint of the rows, then a varint of
 * each column's tokens, in SQLite's varint format (big-endian groups of 7 bits, a ninth byte of 8).
 * @api private
 */
export function indexTotals(block: Uint8Array): IndexTotals {
  let at = 0
  const varint = (): number => {
    let v = 0
    for (let i = 0; i < 9; i++) {
      if (at >= block.length) throw new Error('the FTS5 averages record is cut short')
      const byte = block[at++]!
      if (i === 8) return v * 256 + byte
      v = v * 128 + (byte & 0x7f)
      if ((byte & 0x80) === 0) return v
    }
    return v
  }
  const rows = varint()
  let tokens = 0
  while (at < block.length) tokens += varint()
  return { rows, tokens }
}

/**
 * The IDF of a phrase held by `hits` of `rows` rows, as fts5Bm25GetData computes it, given the natural
 * logarithm of `(rows - hits + 0.5) / (hits + 0.5)`, which the store asks SQLite for. @api private
 */
export function idf(logarithm: number): number {
  // FTS5: an IDF of zero or below (a phrase in more than half the rows) counts as 1e-6.
  return logarithm <= 0.0 ? 1e-6 : logarithm
}

/** The average row's size in tokens, as fts5Bm25GetData divides it (a table of no rows counts one). @api private */
export function averageSize(totals: IndexTotals): number {
  const rows = totals.rows <= 0 ? 1 : totals.rows
  return totals.tokens / rows
}

/**
 * A row's rank: minus its BM25 score, the sum over the query's phrases (in the query's order) of
 * each phrase's IDF times its weighted frequency in the row, whose size is `size` tokens. Lower is
 * better, as FTS5's `rank`. @api private
 */
export function rank(frequencies: readonly number[], idfs: readonly number[], size: number, averageSize: number): number {
  let score = 0.0
  for (let i = 0; i < idfs.length; i++) {
    const f = frequencies[i]!
    score += idfs[i]! * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * size) / averageSize)))
  }
  return -1.0 * score
}
