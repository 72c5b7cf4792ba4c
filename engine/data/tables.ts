/**
 * @module Typed tables: dated parameters, marginal-rate schedules, keyed lookups and series.
 *
 * Each is compiled once at load from a validated YAML entry. A value history is a list of
 * `{from, value}` sorted by effective date; `at(date)` answers the value in force on that date.
 */
import { Dec, compare, isExactText, parseExact } from '../values/decimal.js'
import type { PathSegment, SourceFile } from '../load/source.js'
import type { Problem } from '../errors.js'
import { isoDateProblem } from '../values/calendar.js'
import { dirname, join, relative, resolve } from 'node:path'
import type { DatasetDescriptor } from './rows.js'
import type { DatasetStore } from './store.js'
import type { InstalledUpdate } from './updates.js'
import type { TableEntryFile } from '../load/schemas.js'

export interface Citation {
  title: string
  href?: string
}

export interface Dated<T> {
  from: string
  value: T
  references: Citation[]
  unverified?: string
}

export type Scalar = Dec | string | boolean

export interface Bracket {
  over: Dec
  rate: Dec
  base: Dec
}

export type LookupRow = Record<string, Scalar>

interface EntryBase {
  id: string
  name: string
  label: string
  file: string
  as_of: string
  references: Citation[]
}

export interface ParameterEntry extends EntryBase {
  kind: 'parameter'
  unit: string
  /** The topic it belongs to, where its file groups several (`section:`). */
  section?: string
  history: Dated<Scalar>[]
}
export interface ScheduleEntry extends EntryBase {
  kind: 'marginal_rate_schedule'
  history: Dated<Bracket[]>[]
}
export interface LookupEntry extends EntryBase {
  kind: 'lookup'
  keys: string[]
  history: Dated<Map<string, LookupRow>>[]
}
export interface SeriesEntry extends EntryBase {
  kind: 'series'
  unit: string
  points: Map<string, Dec>
  /** The citation of a point set by its own act or release, where given. */
  pointReferences: Map<string, Citation[]>
}
export interface DatasetEntry extends EntryBase {
  kind: 'dataset'
  descriptor: DatasetDescriptor
  /** The data file, as the problems name it and as the loader opens it. */
  file_shown: string
  path: string
  licence: string
  /** How `npm run data -- update` refreshes it from its publisher; absent: part of the rules, edited by hand. */
  update?: DatasetUpdate
  /** Its queries, once the loader has opened the data set store (data/store.ts). */
  store?: DatasetStore
  /** The copy installed by an update, where one serves instead of the shipped file (updates.ts). */
  installed?: InstalledUpdate
  /** The shipped file and its date, kept when an installed copy serves instead. */
  shipped?: { path: string; file_shown: string; as_of: string }
}

/** A data set's update route: its importer and the publisher's bulk file, or why there is none. */
export type DatasetUpdate =
  | { importer: string; url?: string; obtain?: string; page?: string; options?: Record<string, string>; max_drop?: number }
  | { no_bulk_file: string; lookup: string }
  | { by_hand: string }
export type TableEntry = ParameterEntry | ScheduleEntry | LookupEntry | SeriesEntry | DatasetEntry

/** The value in force on `date`, or undefined before the first effective date. @api public */
export function at<T>(history: Dated<T>[], date: string): Dated<T> | undefined {
  // By halves: a history is sorted by date at load, and some are long (a wage base since 1937, read
  // once for every year of an earnings record).
  let low = 0
  let high = history.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (history[middle]!.from <= date) low = middle + 1
    else high = middle
  }
  return low === 0 ? undefined : history[low - 1]
}

/** Tax under a marginal-rate schedule: the bracket's base plus its rate on the excess. @api public */
export function marginalTax(brackets: Bracket[], amount: Dec): Dec {
  let chosen: Bracket | undefined
  for (const b of brackets) {
    if (compare(amount, b.over) > 0) chosen = b
    else break
  }
  if (!chosen) return new Dec(0)
  return chosen.base.plus(chosen.rate.times(amount.minus(chosen.over)))
}

/** The key under which a lookup row is indexed. @api private */
export function lookupKey(values: readonly Scalar[]): string {
  return values.map((v) => String(v)).join('\u0000')
}

export function toCitations(raw: unknown): Citation[] {
  if (raw === undefined) return []
  const list = Array.isArray(raw) ? raw : [raw]
  return list.map((c: { title: string; href?: string }) => (c.href ? { title: c.title, href: c.href } : { title: c.title }))
}


/** Compile one validated YAML entry; problems are pushed, never thrown. @api private */
export function compileEntry(source: SourceFile, fileId: string, name: string, raw: TableEntryFile, asOf: string, problems: Problem[]): TableEntry {
  const path: PathSegment[] = ['tables', name]
  const base = {
    id: `${fileId}.${name}`,
    name,
    label: raw.label,
    file: source.file,
    as_of: asOf,
    references: toCitations(raw.reference),
  }
  /** A value history, by effective date; a date that does not exist is a problem where it is written. */
  const history = <V extends { reference?: unknown; unverified?: string }, T>(values: Record<string, V>, convert: (v: V, at: PathSegment[]) => T | undefined): Dated<T>[] => {
    const out: Dated<T>[] = []
    for (const from of Object.keys(values).sort()) {
      const item = values[from]!
      const impossible = isoDateProblem(from)
      if (impossible) {
        problems.push(source.problem([...path, 'values', from], impossible))
        continue
      }
      const value = convert(item, [...path, 'values', from])
      if (value === undefined) continue
      const dated: Dated<T> = { from, value, references: toCitations(item.reference) }
      if (item.unverified) dated.unverified = item.unverified
      out.push(dated)
    }
    return out
  }
  switch (raw.kind) {
    case 'parameter':
      return { ...base, kind: 'parameter', unit: raw.unit, ...(raw.section ? { section: raw.section } : {}), history: history(raw.values, (item) => scalar(item.value)) }
    case 'marginal_rate_schedule':
      return { ...base, kind: 'marginal_rate_schedule', history: history(raw.values, (item, at) => brackets(source, [...item.brackets], at, problems)) }
    case 'lookup': {
      const keys = [...raw.keys]
      const columns = raw.columns
      return { ...base, kind: 'lookup', keys, history: history(raw.values, (item, at) => rows(source, keys, columns, [...item.rows], at, problems)) }
    }
    case 'dataset': {
      const { file, format, columns, key, history: byDate, band, search, identifiers } = raw
      const descriptor: DatasetDescriptor = { file, format, columns }
      if (key) descriptor.key = [...key]
      if (byDate) descriptor.history = { key: [...byDate.key], effective: byDate.effective }
      if (band) descriptor.band = band
      if (search) descriptor.search = [...search]
      if (identifiers) descriptor.identifiers = [...identifiers]
      // Every column the descriptor names must be one of its columns.
      const named: [string, readonly string[]][] = [['key', key ?? []], ['history', byDate ? [...byDate.key, byDate.effective] : []], ['band', band ? [band.lower, band.upper] : []], ['search', search ?? []], ['identifiers', identifiers ?? []]]
      for (const [what, list] of named) {
        for (const c of list) if (!Object.hasOwn(columns, c)) problems.push(source.problem(['tables', name, what], `${what} names '${c}', which is not a column`))
      }
      // Words are searched in text only.
      for (const c of search ?? []) if (Object.hasOwn(columns, c) && columns[c] !== 'text') problems.push(source.problem(['tables', name, 'search'], `search names '${c}', a ${columns[c]} column; only text columns are searched by their words`))
      return {
        ...base,
        // An answer cites the law the data set serves (its reference) and the source of its records.
        references: [...base.references, ...toCitations(raw.source)],
        as_of: raw.retrieved,
        kind: 'dataset',
        descriptor,
        path: resolve(dirname(source.file), file),
        file_shown: relative(process.cwd(), join(dirname(source.file), file)) || file,
        licence: raw.licence,
        ...(raw.update ? { update: raw.update as DatasetUpdate } : {}),
      }
    }
    case 'series': {
      const points = new Map<string, Dec>()
      const pointReferences = new Map<string, Citation[]>()
      for (const [key, point] of Object.entries(raw.points)) {
        if (typeof point === 'string') points.set(key, parseExact(point))
        else {
          points.set(key, parseExact(point.value))
          pointReferences.set(key, toCitations(point.reference))
        }
      }
      return { ...base, kind: 'series', unit: raw.unit, points, pointReferences }
    }
  }
}

function scalar(value: string | boolean): Scalar {
  if (typeof value === 'boolean') return value
  return isExactText(value) ? parseExact(value) : value
}

interface RawBracket {
  over: string
  rate: string
  base?: string
}

/** Brackets must rise; a written base amount must equal the sum of the brackets below it. */
function brackets(source: SourceFile, raw: RawBracket[], path: PathSegment[], problems: Problem[]): Bracket[] {
  const out: Bracket[] = []
  let cumulative = new Dec(0)
  raw.forEach((b, i) => {
    const over = parseExact(b.over)
    const rate = parseExact(b.rate)
    const prev = out[i - 1]
    if (prev) {
      if (!over.gt(prev.over)) {
        problems.push(source.problem([...path, 'brackets', i, 'over'], `bracket thresholds must rise: ${b.over} is not above ${prev.over.toString()}`))
      }
      cumulative = prev.base.plus(prev.rate.times(over.minus(prev.over)))
    }
    if (b.base !== undefined && !parseExact(b.base).eq(cumulative)) {
      problems.push(
        source.problem(
          [...path, 'brackets', i, 'base'],
          `base amount ${b.base} does not match the brackets below it, which sum to ${cumulative.toString()}`,
        ),
      )
    }
    out.push({ over, rate, base: cumulative })
  })
  return out
}

function rows(
  source: SourceFile,
  keys: string[],
  columns: Record<string, string>,
  raw: Record<string, unknown>[],
  path: PathSegment[],
  problems: Problem[],
): Map<string, LookupRow> {
  const index = new Map<string, LookupRow>()
  raw.forEach((row, i) => {
    const out: LookupRow = {}
    for (const key of keys) {
      if (typeof row[key] !== 'string') problems.push(source.problem([...path, 'rows', i], `row has no key column '${key}'`))
      else out[key] = row[key] as string
    }
    for (const [column, type] of Object.entries(columns)) {
      const value = row[column]
      if (value === undefined) {
        problems.push(source.problem([...path, 'rows', i], `row has no value for column '${column}'`))
        continue
      }
      if ((type === 'amount' || type === 'rate') && !(typeof value === 'string' && isExactText(value))) {
        problems.push(source.problem([...path, 'rows', i, column], `column '${column}' holds exact amounts written as strings, got ${JSON.stringify(value)}`))
        continue
      }
      if (type === 'boolean' && typeof value !== 'boolean') {
        problems.push(source.problem([...path, 'rows', i, column], `column '${column}' holds true or false`))
        continue
      }
      out[column] = type === 'amount' || type === 'rate' ? parseExact(value as string) : (value as string | boolean)
    }
    for (const column of Object.keys(row)) {
      if (!keys.includes(column) && !(column in columns)) problems.push(source.problem([...path, 'rows', i, column], `unknown column '${column}'`))
    }
    const key = lookupKey(keys.map((k) => out[k] ?? ''))
    if (index.has(key)) problems.push(source.problem([...path, 'rows', i], `duplicate row for ${keys.map((k) => `${k}=${String(out[k])}`).join(', ')}`))
    index.set(key, out)
  })
  return index
}

/** One member of a table family: one tables file of the family's folder, by its file stem. */
export interface FamilyMember {
  /** The file stem: `ca` for tables/employment/law/ca.yaml. */
  name: string
  file: string
  as_of: string
  /** Its parameters by name (its other kinds of table are read by their full id, as ever). */
  parameters: Map<string, ParameterEntry>
  /** Its lookups by name, which `member_rows` reads. */
  lookups: Map<string, LookupEntry>
}

/**
 * A table family: the tables files of one folder, sharing a shape (tables/employment/law/*.yaml is
 * family `employment.law`), each a member keyed by its file stem, sorted.
 */
export interface TableFamily {
  id: string
  members: Map<string, FamilyMember>
}

/** Every folder of tables files as a family of its files. @api private */
export function buildFamilies(tables: Map<string, TableEntry>): Map<string, TableFamily> {
  const families = new Map<string, TableFamily>()
  for (const entry of tables.values()) {
    const fileId = entry.id.slice(0, entry.id.length - entry.name.length - 1)
    const dot = fileId.lastIndexOf('.')
    if (dot < 0) continue
    const id = fileId.slice(0, dot)
    const stem = fileId.slice(dot + 1)
    let family = families.get(id)
    if (!family) families.set(id, (family = { id, members: new Map() }))
    let member = family.members.get(stem)
    if (!member) family.members.set(stem, (member = { name: stem, file: entry.file, as_of: entry.as_of, parameters: new Map(), lookups: new Map() }))
    if (entry.kind === 'parameter') member.parameters.set(entry.name, entry)
    if (entry.kind === 'lookup') member.lookups.set(entry.name, entry)
  }
  for (const family of families.values()) family.members = new Map([...family.members].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  return families
}
