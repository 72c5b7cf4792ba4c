/**
 * @module Where data sets live once loaded: one SQLite database file (better-sqlite3) holding every
 * data set, built at load from the checked rows and opened read-only, so that the cluster's worker
 * processes share its pages through the operating system's cache instead of each holding a copy in
 * its heap. The file's name is a hash of the descriptors and the data files: a worker that finds
 * it built by another skips the import (and the row checks that passed when it was built); a
 * changed row makes a new file. It is written under a temporary name and renamed into place, so no
 * process ever opens a half-written one.
 *
 * Queries are prepared statements, run synchronously (evaluation stays synchronous). Amounts are
 * stored as their exact text and become decimals when read; a band's bounds are also stored as
 * numbers, only to find the candidates, and the band is then chosen by exact comparison.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import Database from 'better-sqlite3'
import { Dec, parseExact } from '../values/decimal.js'
import { identifierForm } from '../functions/entity-index.js'
import type { Problem } from '../errors.js'
import type { Value } from '../model/types.js'
import { readRows, type ColumnType, type DatasetDescriptor } from './rows.js'
import { averageSize, idf, indexTotals, rank } from './bm25.js'

/** A data set to load: its descriptor, its data file, and the name problems give it. */
export interface DatasetFile {
  id: string
  descriptor: DatasetDescriptor
  path: string
  shown: string
}

/** The queries of one data set. @api private */
export interface DatasetStore {
  /** Every row whose key columns equal `key`, in file order. */
  rows(key: Value[]): Record<string, Value>[]
  /** The row whose band holds `value` (lower inclusive, upper exclusive or open), if any. */
  band(value: Dec): Record<string, Value> | undefined
  /** The rows of a key in order of effective date. */
  history(key: Value[]): Record<string, Value>[]
  /** The row of a key in force on `date`: the latest effective on or before it. */
  inForce(key: Value[], date: string): Record<string, Value> | undefined
  /** The distinct values of a one-column key, sorted (the airport codes a near miss is matched against). */
  keyValues(): Value[]
  /** How many rows the data set holds (what a coverage statement reports). */
  count(): number
  /** The rows whose identifier column holds `value` (compared in identifierForm), in file order. */
  withIdentifier(column: string, value: Value): Record<string, Value>[]
  /** The rows counted by the distinct values of some columns, sorted by them (each { ...values, rows }). */
  counts(columns: string[]): Record<string, Value>[]
  /**
   * The rows whose search columns share words with `text`, best first (FTS5's BM25 rank), at most
   * `limit`; none for a text without words.
   */
  search(text: string, limit: number): Record<string, Value>[]
  /** The FTS5 expression a search of `text` ranks by (its order is FTS5's `ORDER BY rank, rowid`), if it has words. @api private */
  searchExpression(text: string): string | undefined
}

/** A word of the index and how many rows hold it. */
interface Word {
  term: string
  rows: number
}
/** A word of a text as the query holds it: one word, or the words it begins (OR). */
interface Term {
  text: string
  rows: number
  words: Word[]
}
/** What a search asks: see `plan` in `queries`. */
interface SearchPlan {
  expression: string
  match: string
  phrases: Word[]
}

/**
 * A text's words as the index holds them (unicode61: letters and digits, lower case, without
 * accents), each once, at most MAX_SEARCH_WORDS, so a long text costs no more than a name does.
 */
export function searchWords(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  return [...new Set(words.map((w) => w.normalize('NFD').replace(/\p{M}/gu, '')))].filter((w) => w !== '').slice(0, MAX_SEARCH_WORDS)
}
/** The most words of a text a search looks for (a setting of the engine, not law). */
export const MAX_SEARCH_WORDS = 16
/**
 * A word held by more rows than this share (and more than SEARCH_COMMON_FLOOR rows) is common: a
 * search ranks only the rows holding one of its rarer words (or, when all are common, both of the
 * two rarest), so it ranks a few thousand rows however large the data set (settings, not law).
 */
export const SEARCH_COMMON_SHARE = 0.0005
export const SEARCH_COMMON_FLOOR = 500
/** A word held by more than this share of the rows does not rank them (a setting, not law). */
export const SEARCH_RANKING_SHARE = 0.05
/** A word the index does not hold is looked for as the beginning of one, or by this many first letters (a typo after them). */
export const SEARCH_PREFIX_LETTERS = 4
/** The most words a word the index lacks is read as (the commonest of those it begins). */
export const SEARCH_PREFIX_WORDS = 8

/** How much of the store's file is read through a memory map (address space, not memory; a setting). */
export const STORE_MAP_BYTES = 2 ** 30

/** Where the store is built when the loader is given no folder: shared by every process of the machine. */
export const DATASET_CACHE_DIR = join(tmpdir(), 'rules-as-code-datasets')

const NUMERIC = new Set<ColumnType>(['amount', 'integer', 'rate'])

/** A column's name in SQL: its own name cannot collide with ours (`line`) or be a keyword. */
const col = (name: string) => `"c_${name}"`

/** A key value as stored: amounts by their canonical text, so 1.50 and 1.5 are one key. */
function keyText(v: Value): string | null {
  if (v === null) return null
  if (v instanceof Dec) return v.toString()
  return String(v)
}

function cellText(type: ColumnType, text: string | null): string | null {
  if (text === null) return null
  return NUMERIC.has(type) ? parseExact(text).toString() : text
}

/** A stored cell as a value of its column's type. */
const cellValue = (type: ColumnType, text: string | null): Value => (text === null ? null : NUMERIC.has(type) ? new Dec(text) : type === 'boolean' ? text === 'true' : text)

function typed(columns: Record<string, ColumnType>, raw: Record<string, string | null>): Record<string, Value> {
  const out: Record<string, Value> = {}
  for (const [name, type] of Object.entries(columns)) out[name] = cellValue(type, raw[`c_${name}`] ?? null)
  return out
}

/** The cache file's name: a hash of every descriptor and data file, so any change makes a new one. */
function fingerprint(files: DatasetFile[]): string {
  const hash = createHash('sha256')
  hash.update('datasets/4\n')
  for (const f of files) {
    hash.update(`${f.id}\n${JSON.stringify(f.descriptor)}\n`)
    hash.update(readFileSync(f.path))
  }
  return hash.digest('hex').slice(0, 32)
}

/**
 * The identifier columns' index: one row per (column, identifier form, line), its own table so the
 * data set's table and words index stay as they are.
 */
function buildIdentifiers(db: Database.Database, table: string, d: DatasetDescriptor, rows: { line: number; cells: Record<string, string | null> }[]): void {
  db.exec(`CREATE TABLE ${table}_ids (col TEXT NOT NULL, form TEXT NOT NULL, line INTEGER NOT NULL)`)
  const insert = db.prepare(`INSERT INTO ${table}_ids (col, form, line) VALUES (?, ?, ?)`)
  db.transaction(() => {
    for (const row of rows) {
      for (const c of d.identifiers!) {
        const v = row.cells[c]
        if (v !== null && v !== undefined && identifierForm(v) !== '') insert.run(c, identifierForm(v), row.line)
      }
    }
  })()
  db.exec(`CREATE INDEX ${table}_ids_form ON ${table}_ids (col, form, line)`)
  db.exec(`CREATE INDEX IF NOT EXISTS ${table}_line ON ${table} (line)`)
}

function build(target: string, files: DatasetFile[], problems: Problem[]): boolean {
  const before = problems.length
  const checked = files.map((f) => ({ f, rows: readRows(f.path, f.shown, f.descriptor, problems) }))
  if (problems.length > before) return false
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`
  const db = new Database(temporary)
  try {
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    checked.forEach(({ f, rows }, i) => {
      const d = f.descriptor
      const table = `d${i}`
      const names = Object.keys(d.columns)
      const band = d.band ? ', band_lower REAL' : ''
      db.exec(`CREATE TABLE ${table} (line INTEGER NOT NULL${names.map((n) => `, ${col(n)} TEXT`).join('')}${band})`)
      if (d.key) db.exec(`CREATE INDEX ${table}_key ON ${table} (${d.key.map(col).join(', ')}, line)`)
      if (d.history) db.exec(`CREATE INDEX ${table}_history ON ${table} (${[...d.history.key, d.history.effective].map(col).join(', ')})`)
      if (d.band) db.exec(`CREATE INDEX ${table}_band ON ${table} (band_lower)`)
      if (d.search) {
        // The words of the search columns, by line: contentless, so the text is stored once (in the table).
        db.exec(`CREATE INDEX ${table}_line ON ${table} (line)`)
        db.exec(`CREATE VIRTUAL TABLE ${table}_search USING fts5(words, content='', tokenize='unicode61 remove_diacritics 2')`)
      }
      const insert = db.prepare(
        `INSERT INTO ${table} (line${names.map((n) => `, ${col(n)}`).join('')}${d.band ? ', band_lower' : ''}) VALUES (?${names.map(() => ', ?').join('')}${d.band ? ', ?' : ''})`,
      )
      const words = d.search ? db.prepare(`INSERT INTO ${table}_search (rowid, words) VALUES (?, ?)`) : undefined
      db.transaction(() => {
        for (const row of rows) {
          const values: (string | number | null)[] = [row.line, ...names.map((n) => cellText(d.columns[n]!, row.cells[n] ?? null))]
          if (d.band) values.push(row.cells[d.band.lower] === null ? null : Number(row.cells[d.band.lower]))
          insert.run(...values)
          if (words) words.run(row.line, d.search!.map((c) => row.cells[c] ?? '').join(' '))
        }
      })()
      if (d.search) {
        // How many rows hold each word, counted once here (fts5vocab reads the whole index).
        db.exec(`CREATE VIRTUAL TABLE temp.${table}_vocab USING fts5vocab(main, ${table}_search, row)`)
        db.exec(`CREATE TABLE ${table}_words (term TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID`)
        db.exec(`INSERT INTO ${table}_words SELECT term, doc FROM temp.${table}_vocab`)
        db.exec(`DROP TABLE temp.${table}_vocab`)
        // Each row's tokens as FTS5 made them (its own tokenizer, read back from the index): a search
        // ranks its matched rows from them (engine/data/bm25.ts) instead of asking FTS5, whose rank
        // reads every phrase's whole posting list again on each search.
        db.exec(`CREATE VIRTUAL TABLE temp.${table}_instances USING fts5vocab(main, ${table}_search, instance)`)
        db.exec(`CREATE TABLE ${table}_tokens (line INTEGER PRIMARY KEY, tokens TEXT NOT NULL)`)
        db.exec(`INSERT INTO ${table}_tokens SELECT doc, group_concat(term, ' ') FROM temp.${table}_instances GROUP BY doc`)
        db.exec(`DROP TABLE temp.${table}_instances`)
      }
      if (d.identifiers) buildIdentifiers(db, table, d, rows)
    })
    db.close()
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
  return true
}

/**
 * Open the store of these data sets, building it first unless a process already did; the map is
 * each data set's queries by id (empty when a row problem stopped the build). @api private
 */
export function openDatasets(files: DatasetFile[], cacheDir: string, problems: Problem[], builtIn: string[] = []): Map<string, DatasetStore> {
  const stores = new Map<string, DatasetStore>()
  if (files.length === 0) return stores
  const name = `datasets-${fingerprint(files)}.sqlite`
  // A store another process built where every process reads (the update command's, in
  // DATA_DIR/datasets/.store, a volume the pods mount read-only) is opened as it is; else this
  // machine's cache holds it, built once.
  const prebuilt = builtIn.map((dir) => join(dir, name)).find((path) => existsSync(path))
  const target = prebuilt ?? join(cacheDir, name)
  if (!prebuilt) mkdirSync(cacheDir, { recursive: true })
  if (!existsSync(target) && !build(target, files, problems)) return stores
  const db = new Database(target, { readonly: true, fileMustExist: true })
  // Pages read through a memory map: shared with every process in the operating system's cache and
  // read without a system call each (a search reads a few hundred scattered pages). The store is
  // never written once renamed into place, so the map cannot change under a reader.
  db.pragma(`mmap_size = ${STORE_MAP_BYTES}`)
  files.forEach((f, i) => stores.set(f.id, queries(db, `d${i}`, f.descriptor)))
  return stores
}

/**
 * How many rows the answers of a data set's key and history queries may hold in memory together (a
 * setting of the engine, not law). A store never changes once opened (an update opens a new one), so
 * the rows of a key read once are the rows of every later request: a request that reads a state's
 * thousand firms, or every office's warning letters, gets the same lists again without SQLite and
 * without making a decimal of every amount again. A single answer larger than the budget is not kept.
 * The budget is per data set and per evaluating thread: 50,000 rows of some twenty columns is of the
 * order of 50 MB, so a few data sets at full size stay within a worker's memory; the data sets shipped
 * (at most a few thousand rows a key) are kept whole.
 */
export const KEPT_ROWS = 50_000

/** The answers of a store's queries by their key text, least recently used first out. @api private */
export class KeptAnswers {
  private readonly answers = new Map<string, Record<string, Value>[]>()
  private held = 0
  constructor(private readonly budget: number) {}
  get(key: string, read: () => Record<string, Value>[]): Record<string, Value>[] {
    const known = this.answers.get(key)
    if (known) {
      // Map order is insertion order: taking it out and in again makes it the most recently used.
      this.answers.delete(key)
      this.answers.set(key, known)
      return known
    }
    const rows = read()
    if (rows.length > this.budget) return rows
    // Values are never changed once made, so one frozen list serves every request that asks.
    Object.freeze(rows)
    this.answers.set(key, rows)
    this.held += rows.length
    for (const [old, list] of this.answers) {
      if (this.held <= this.budget) break
      this.answers.delete(old)
      this.held -= list.length
    }
    return rows
  }
}

function queries(db: Database.Database, table: string, d: DatasetDescriptor): DatasetStore {
  const kept = new KeptAnswers(KEPT_ROWS)
  const keyOf = (query: string, key: Value[]) => `${query}\u0000${key.map((k) => keyText(k) ?? '\u0001').join('\u0000')}`
  const where = (columns: string[]) => columns.map((c) => `${col(c)} IS ?`).join(' AND ')
  const rowsOf = (raw: unknown[]) => raw.map((r) => typed(d.columns, r as Record<string, string | null>))
  const byKey = d.key ? db.prepare(`SELECT * FROM ${table} WHERE ${where(d.key)} ORDER BY line`) : undefined
  const keyValues = d.key?.length === 1 ? db.prepare(`SELECT DISTINCT ${col(d.key[0]!)} AS k FROM ${table} WHERE k IS NOT NULL ORDER BY k`).pluck() : undefined
  const history = d.history ? db.prepare(`SELECT * FROM ${table} WHERE ${where(d.history.key)} ORDER BY ${col(d.history.effective)}, line`) : undefined
  const inForce = d.history
    ? db.prepare(`SELECT * FROM ${table} WHERE ${where(d.history.key)} AND ${col(d.history.effective)} <= ? ORDER BY ${col(d.history.effective)} DESC LIMIT 1`)
    : undefined
  // Candidates by the numeric lower bound (a float, only to narrow); the band is chosen exactly.
  const bands = d.band ? db.prepare(`SELECT * FROM ${table} WHERE band_lower <= ? ORDER BY band_lower DESC, line LIMIT 4`) : undefined
  const count = db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck()
  // The rows an expression matches with their tokens (FTS5 decides the match; the rank is ours),
  // then the best of them read whole by line.
  const matched = d.search
    ? db.prepare(`SELECT k.line, k.tokens FROM ${table}_search s JOIN ${table}_tokens k ON k.line = s.rowid WHERE ${table}_search MATCH ?`).raw()
    : undefined
  // The best rows in one statement, in the order given (a JSON array of lines): a third of the time of one query each.
  const names = Object.keys(d.columns)
  const byLines = d.search ? db.prepare(`SELECT ${names.map((n) => `t.${col(n)}`).join(', ')} FROM json_each(?) j JOIN ${table} t ON t.line = j.value ORDER BY j.key`).raw() : undefined
  /** Rows read as arrays of the columns in order (a row object per row costs more than the search's SQL). */
  const rowsOfCells = (raw: unknown[]) =>
    raw.map((cells) => {
      const out: Record<string, Value> = {}
      names.forEach((n, i) => (out[n] = cellValue(d.columns[n]!, (cells as (string | null)[])[i] ?? null)))
      return out
    })
  // FTS5's rank inputs: its averages record, and the logarithm as SQLite computes it (see bm25.ts).
  const totals = d.search ? db.prepare(`SELECT block FROM ${table}_search_data WHERE id = 1`).pluck() : undefined
  const logarithm = d.search ? db.prepare('SELECT ln((? - ? + 0.5) / (? + 0.5))').pluck() : undefined
  // How many rows hold a word, and words beginning with some letters: the words table written with
  // the index (reading fts5vocab at query time would read a common word's whole posting list).
  const frequency = d.search
    ? {
        word: db.prepare(`SELECT rows FROM ${table}_words WHERE term = ?`).pluck(),
        beginning: db.prepare(`SELECT term, rows FROM ${table}_words WHERE term >= ? AND term < ? ORDER BY rows DESC, term LIMIT ${SEARCH_PREFIX_WORDS}`),
      }
    : undefined
  /** The commonest words of the index beginning with some letters (FTS5's own prefix query scans them all). */
  const beginningWith = (start: string): Word[] => {
    const end = start.slice(0, -1) + String.fromCodePoint(start.codePointAt(start.length - 1)! + 1)
    return frequency!.beginning.all(start, end) as Word[]
  }
  /**
   * The query of a text: its rarer words (a word the index lacks as the words it begins), any of
   * them, ranked by every word not held by a large share of the rows. `expression` is what FTS5
   * would rank (its phrases, in order, are `phrases`); `match` matches the same rows, more cheaply
   * where the ranking words cannot narrow them.
   */
  const plan = (text: string): SearchPlan | undefined => {
    const terms: Term[] = []
    for (const w of searchWords(text)) {
      const rows = frequency!.word.get(w) as number | undefined
      if (rows !== undefined) {
        terms.push({ text: `"${w}"`, rows, words: [{ term: w, rows }] })
        continue
      }
      if (w.length < SEARCH_PREFIX_LETTERS) continue
      // A word typed short ("labora"), else one mistyped after its first letters ("laboratorys").
      let words = beginningWith(w)
      if (words.length === 0 && w.length > SEARCH_PREFIX_LETTERS) words = beginningWith(w.slice(0, SEARCH_PREFIX_LETTERS))
      if (words.length > 0) terms.push({ text: `(${words.map((x) => `"${x.term}"`).join(' OR ')})`, rows: words.reduce((n, x) => n + x.rows, 0), words })
    }
    if (terms.length === 0) return undefined
    terms.sort((a, b) => a.rows - b.rows)
    const common = Math.max(SEARCH_COMMON_FLOOR, countRows() * SEARCH_COMMON_SHARE)
    const any = (list: Term[]) => list.map((t) => t.text).join(' OR ')
    // The candidates: the rows holding a rare word; when every word is common, those holding the
    // two rarest. They are ranked by every word of the text (BM25 sums each word a row holds).
    const rare = terms.filter((t) => t.rows <= common)
    const chosen = rare.length > 0 ? rare : terms.slice(0, 2)
    const candidates = rare.length > 0 ? any(rare) : chosen.map((t) => t.text).join(' AND ')
    // A word held by a large share of the rows (an initial, "LLC") ranks nothing and costs the most to read.
    const ranking = terms.filter((t) => t.rows <= countRows() * SEARCH_RANKING_SHARE)
    const phrases = (list: Term[]) => list.flatMap((t) => t.words)
    if (ranking.length <= rare.length) return { expression: candidates, match: candidates, phrases: phrases(chosen) }
    // Every candidate holds a ranking word already when the words that make it one all rank (any
    // rare word; else either of the two rarest, both held): then the ranking part narrows nothing.
    const narrowsNothing = rare.length > 0 ? rare.every((t) => ranking.includes(t)) : chosen.some((t) => ranking.includes(t))
    const expression = `(${candidates}) AND (${any(ranking)})`
    return { expression, match: narrowsNothing ? candidates : expression, phrases: [...phrases(chosen), ...phrases(ranking)] }
  }
  // FTS5's totals and each IDF by the rows holding a word, read once per process (the store is read-only).
  let rankInputs: { rows: number; averageSize: number; idfs: Map<number, number> } | undefined
  const inputs = () =>
    (rankInputs ??= (() => {
      const t = indexTotals(totals!.get() as Uint8Array)
      return { rows: t.rows <= 0 ? 1 : t.rows, averageSize: averageSize(t), idfs: new Map<number, number>() }
    })())
  const idfOf = (hits: number): number => {
    const { rows, idfs } = inputs()
    let value = idfs.get(hits)
    if (value === undefined) idfs.set(hits, (value = idf(logarithm!.get(rows, hits, hits) as number)))
    return value
  }
  /** The lines of the `limit` best rows an expression matches: by FTS5's rank, then by line, as `ORDER BY rank, line`. */
  const best = (p: SearchPlan, limit: number): number[] => {
    const idfs = p.phrases.map((w) => idfOf(w.rows))
    const average = inputs().averageSize
    // Each word's phrases (a word can be two: a rare word also ranks).
    const phrasesOf = new Map<string, number[]>()
    p.phrases.forEach((w, i) => phrasesOf.set(w.term, [...(phrasesOf.get(w.term) ?? []), i]))
    const rows = matched!.all(p.match) as [number, string][]
    const ranks = new Float64Array(rows.length)
    const frequencies = new Array<number>(idfs.length)
    rows.forEach(([, text], r) => {
      const tokens = text.split(' ')
      frequencies.fill(0)
      for (const token of tokens) for (const i of phrasesOf.get(token) ?? []) frequencies[i]! += 1
      ranks[r] = rank(frequencies, idfs, tokens.length, average)
    })
    const order = Array.from(rows.keys()).sort((a, b) => ranks[a]! - ranks[b]! || rows[a]![0] - rows[b]![0])
    return order.slice(0, limit).map((r) => rows[r]![0])
  }
  let rowCount: number | undefined
  const countRows = () => (rowCount ??= count.get() as number)
  const missing = (what: string): never => {
    throw new Error(`this data set declares no ${what}`)
  }
  const identified = d.identifiers
    ? db.prepare(`SELECT t.* FROM ${table}_ids i JOIN ${table} t ON t.line = i.line WHERE i.col = ? AND i.form = ? ORDER BY t.line`)
    : undefined
  // A grouped count reads every row once; the store never changes once opened, so it is kept.
  const counted = new Map<string, Record<string, Value>[]>()
  const counts = (columns: string[]): Record<string, Value>[] => {
    const id = columns.join('\u0000')
    const known = counted.get(id)
    if (known) return known
    const list = columns.map(col).join(', ')
    const raw = db.prepare(`SELECT ${columns.map((c) => `${col(c)} AS "c_${c}"`).join(', ')}, COUNT(*) AS n FROM ${table} GROUP BY ${list} ORDER BY ${list}`).all() as Record<string, string | number | null>[]
    const picked = Object.fromEntries(columns.map((c) => [c, d.columns[c]!]))
    const out = raw.map((r) => Object.freeze({ ...typed(picked, r as Record<string, string | null>), rows: new Dec(r.n as number) }))
    Object.freeze(out)
    counted.set(id, out)
    return out
  }
  return {
    rows: (key) => kept.get(keyOf('rows', key), () => rowsOf((byKey ?? missing('key')).all(...key.map(keyText)))),
    history: (key) => kept.get(keyOf('history', key), () => rowsOf((history ?? missing('history')).all(...key.map(keyText)))),
    keyValues: () => {
      const type = d.columns[d.key?.[0] ?? ''] ?? 'text'
      return ((keyValues ?? missing('one-column key')).all() as string[]).map((k) => (NUMERIC.has(type) ? new Dec(k) : type === 'boolean' ? k === 'true' : k))
    },
    count: () => countRows(),
    withIdentifier: (column, value) =>
      kept.get(keyOf(`ids:${column}`, [value]), () => rowsOf((identified ?? missing('identifiers')).all(column, identifierForm(value)))),
    counts,
    search: (text, limit) => {
      if (!matched) return missing('search')
      const p = limit < 1 ? undefined : plan(text)
      return p === undefined ? [] : rowsOfCells(byLines!.all(JSON.stringify(best(p, limit))))
    },
    searchExpression: (text) => (matched ? plan(text)?.expression : missing('search')),
    inForce: (key, date) => {
      const raw = (inForce ?? missing('history')).get(...key.map(keyText), date)
      return raw ? typed(d.columns, raw as Record<string, string | null>) : undefined
    },
    band: (value) => {
      const { lower, upper } = d.band ?? missing('band')
      // A float may round a bound a hair either way: ask a little above, then compare exactly.
      const near = value.toNumber()
      for (const row of rowsOf((bands ?? missing('band')).all(near + Math.abs(near) * 1e-12 + 1e-12))) {
        const from = row[lower] as Dec | null
        const to = row[upper] as Dec | null
        if (from !== null && from.lte(value) && (to === null || value.lt(to))) return row
      }
      return undefined
    },
  }
}
