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
import type { Problem } from '../errors.js'
import type { Value } from '../model/types.js'
import { readRows, type ColumnType, type DatasetDescriptor } from './rows.js'

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
}

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

function typed(columns: Record<string, ColumnType>, raw: Record<string, string | null>): Record<string, Value> {
  const out: Record<string, Value> = {}
  for (const [name, type] of Object.entries(columns)) {
    const text = raw[`c_${name}`] ?? null
    out[name] = text === null ? null : NUMERIC.has(type) ? new Dec(text) : type === 'boolean' ? text === 'true' : text
  }
  return out
}

/** The cache file's name: a hash of every descriptor and data file, so any change makes a new one. */
function fingerprint(files: DatasetFile[]): string {
  const hash = createHash('sha256')
  hash.update('datasets/1\n')
  for (const f of files) {
    hash.update(`${f.id}\n${JSON.stringify(f.descriptor)}\n`)
    hash.update(readFileSync(f.path))
  }
  return hash.digest('hex').slice(0, 32)
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
      const insert = db.prepare(
        `INSERT INTO ${table} (line${names.map((n) => `, ${col(n)}`).join('')}${d.band ? ', band_lower' : ''}) VALUES (?${names.map(() => ', ?').join('')}${d.band ? ', ?' : ''})`,
      )
      db.transaction(() => {
        for (const row of rows) {
          const values: (string | number | null)[] = [row.line, ...names.map((n) => cellText(d.columns[n]!, row.cells[n] ?? null))]
          if (d.band) values.push(row.cells[d.band.lower] === null ? null : Number(row.cells[d.band.lower]))
          insert.run(...values)
        }
      })()
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
export function openDatasets(files: DatasetFile[], cacheDir: string, problems: Problem[]): Map<string, DatasetStore> {
  const stores = new Map<string, DatasetStore>()
  if (files.length === 0) return stores
  mkdirSync(cacheDir, { recursive: true })
  const target = join(cacheDir, `datasets-${fingerprint(files)}.sqlite`)
  if (!existsSync(target) && !build(target, files, problems)) return stores
  const db = new Database(target, { readonly: true, fileMustExist: true })
  files.forEach((f, i) => stores.set(f.id, queries(db, `d${i}`, f.descriptor)))
  return stores
}

function queries(db: Database.Database, table: string, d: DatasetDescriptor): DatasetStore {
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
  const missing = (what: string): never => {
    throw new Error(`this data set declares no ${what}`)
  }
  return {
    rows: (key) => rowsOf((byKey ?? missing('key')).all(...key.map(keyText))),
    history: (key) => rowsOf((history ?? missing('history')).all(...key.map(keyText))),
    keyValues: () => {
      const type = d.columns[d.key?.[0] ?? ''] ?? 'text'
      return ((keyValues ?? missing('one-column key')).all() as string[]).map((k) => (NUMERIC.has(type) ? new Dec(k) : type === 'boolean' ? k === 'true' : k))
    },
    count: () => count.get() as number,
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
