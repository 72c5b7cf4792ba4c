/**
 * @module Reading a data set's file (CSV or JSON Lines) into rows of text, each with its line, and
 * checking every row against the descriptor: a type per column, no unknown or missing column, no
 * duplicate (key, effective date) in a history, no overlapping bands. Each problem names the
 * file's `line:column`; a data set with one is refused at load like any other rule file.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'csv-parse/sync'
import { isoDateProblem } from '../values/calendar.js'
import { isExactText, parseExact } from '../values/decimal.js'
import type { Problem } from '../errors.js'

export type ColumnType = 'amount' | 'integer' | 'rate' | 'text' | 'date' | 'boolean'

/** A data set as its tables file declares it (validated by engine/load/schemas.ts). */
export interface DatasetDescriptor {
  file: string
  format: 'csv' | 'jsonl'
  columns: Record<string, ColumnType>
  /** The columns `rows()` looks up by: several rows may share a key. */
  key?: string[]
  /** A value history per key: one row per key and effective date. */
  history?: { key: string[]; effective: string }
  /** A range lookup: lower bound inclusive, upper exclusive; an empty upper is open-ended. */
  band?: { lower: string; upper: string }
  /** Text columns indexed by their words, for `search_rows()`: the rows sharing words with a text, best first. */
  search?: string[]
  /**
   * Columns holding identifiers (a number, a licence code), each indexed in the form entity_match
   * compares identifiers in (upper case, without spaces, hyphens, dots or slashes), for
   * `rows_with(set, column, value)`: the rows of an identifier however it is written.
   */
  identifiers?: string[]
}

/** One row: each column's value as written (an empty cell is null), and the line it stands on. */
export interface TextRow {
  line: number
  cells: Record<string, string | null>
}

const INTEGER = /^-?[0-9]+$/

/** Why a cell's text is not of its column's type, or undefined. */
function cellProblem(type: ColumnType, text: string): string | undefined {
  switch (type) {
    case 'amount':
    case 'rate':
      return isExactText(text) ? undefined : `is not an exact amount (write it as 1234.56, without separators): ${JSON.stringify(text)}`
    case 'integer':
      return INTEGER.test(text) ? undefined : `is not a whole number: ${JSON.stringify(text)}`
    case 'date':
      return isoDateProblem(text)
    case 'boolean':
      return text === 'true' || text === 'false' ? undefined : `is not true or false: ${JSON.stringify(text)}`
    case 'text':
      return undefined
  }
}

/** The rows of the file as text, with problems for rows that do not parse. */
function readRaw(path: string, shown: string, format: DatasetDescriptor['format'], problems: Problem[]): { line: number; record: Record<string, unknown> }[] {
  const text = readFileSync(path, 'utf8')
  if (format === 'jsonl') {
    const out: { line: number; record: Record<string, unknown> }[] = []
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return
      try {
        const record = JSON.parse(raw) as unknown
        if (record === null || typeof record !== 'object' || Array.isArray(record)) throw new Error('a row is a JSON object')
        out.push({ line: i + 1, record: record as Record<string, unknown> })
      } catch (error) {
        problems.push({ file: shown, line: i + 1, column: 1, message: `not a JSON object: ${(error as Error).message}` })
      }
    })
    return out
  }
  try {
    const records = parse(text, { columns: true, skip_empty_lines: true, info: true, trim: false, bom: true }) as { record: Record<string, string>; info: { lines: number } }[]
    return records.map((r) => ({ line: r.info.lines, record: r.record }))
  } catch (error) {
    const e = error as Error & { lines?: number }
    problems.push({ file: shown, line: e.lines ?? 1, column: 1, message: `not valid CSV: ${e.message}` })
    return []
  }
}

/** The file's rows, checked; problems are pushed, never thrown. @api private */
export function readRows(path: string, shown: string, d: DatasetDescriptor, problems: Problem[]): TextRow[] {
  const columns = Object.keys(d.columns)
  const rows: TextRow[] = []
  for (const { line, record } of readRaw(path, shown, d.format, problems)) {
    const cells: Record<string, string | null> = {}
    let ok = true
    const fail = (column: string, message: string) => {
      // The column's place in the header, for CSV; JSON Lines has no columns to point at.
      const at = d.format === 'csv' ? Math.max(1, columns.indexOf(column) + 1) : 1
      problems.push({ file: shown, line, column: at, message })
      ok = false
    }
    for (const name of Object.keys(record)) if (!Object.hasOwn(d.columns, name)) fail(name, `unknown column '${name}'; the columns are ${columns.join(', ')}`)
    for (const [name, type] of Object.entries(d.columns)) {
      const raw = record[name]
      if (raw === undefined) {
        fail(name, `no column '${name}'`)
        continue
      }
      const value = raw === null ? '' : typeof raw === 'string' ? raw : String(raw)
      if (typeof raw === 'number' && (type === 'amount' || type === 'rate')) {
        fail(name, `column '${name}' holds exact amounts written as strings in JSON Lines ("1234.56"), not numbers`)
        continue
      }
      if (value === '') {
        cells[name] = null
        continue
      }
      const problem = cellProblem(type, value)
      if (problem) fail(name, `column '${name}' ${problem}`)
      else cells[name] = value
    }
    if (ok) rows.push({ line, cells })
  }
  checkHistory(rows, shown, d, problems)
  checkBands(rows, shown, d, problems)
  return rows
}

function checkHistory(rows: TextRow[], shown: string, d: DatasetDescriptor, problems: Problem[]) {
  if (!d.history) return
  const seen = new Map<string, number>()
  for (const row of rows) {
    const key = [...d.history.key, d.history.effective].map((c) => row.cells[c] ?? '').join('\u0000')
    const first = seen.get(key)
    if (first !== undefined) {
      const what = [...d.history.key, d.history.effective].map((c) => `${c}=${row.cells[c] ?? ''}`).join(', ')
      problems.push({ file: shown, line: row.line, column: 1, message: `duplicate row for ${what}: line ${first} already has it` })
    } else seen.set(key, row.line)
  }
}

function checkBands(rows: TextRow[], shown: string, d: DatasetDescriptor, problems: Problem[]) {
  if (!d.band) return
  const { lower, upper } = d.band
  const bands = rows
    .filter((r) => r.cells[lower] !== null)
    .map((r) => ({ row: r, from: parseExact(r.cells[lower]!), to: r.cells[upper] === null ? undefined : parseExact(r.cells[upper]!) }))
    .sort((a, b) => a.from.cmp(b.from))
  for (let i = 0; i < bands.length; i++) {
    const b = bands[i]!
    if (b.to !== undefined && !b.to.gt(b.from)) problems.push({ file: shown, line: b.row.line, column: 1, message: `band ${b.from.toString()} to ${b.to.toString()} is empty: its upper bound must be above its lower` })
    const next = bands[i + 1]
    if (next && (b.to === undefined || b.to.gt(next.from))) {
      problems.push({ file: shown, line: next.row.line, column: 1, message: `band from ${next.from.toString()} overlaps the band from ${b.from.toString()} (line ${b.row.line}), which runs to ${b.to?.toString() ?? 'no upper bound'}` })
    }
  }
}
