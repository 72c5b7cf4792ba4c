/**
 * @module The blocking index of entity_search: the rows of a data set grouped by their normalised
 * name, and the names by their keys (each word, and the first four letters of each word of four or
 * more), so that a search compares a name with the few names sharing a key instead of every row.
 *
 * The keys are also what the shared distinctive word rule reads: a key held by more than
 * `generic_share` of the names (and more than `generic_min_names`) is generic in the data set, and a
 * pair of names sharing no key that is not generic is no lead (entity-names.ts, `compare`). So a name
 * the index does not offer could only have scored at most `generic_cap`: for any least confidence
 * above it, the index finds exactly what a scan of every row finds (test/engine/functions/entity-search.test.ts on a small
 * list, test/matching/evaluation.test.ts on both evaluation sets); at or below it, the search scans every name.
 *
 * An index is built once per list of names and reused while the same names come (a request lists
 * the rows of a data set afresh each time): it is found by a fingerprint of every name, in order.
 * @api private
 */
import type { LookupRow } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { Parts, Words } from './entity-names.js'
import { normalised } from './entity-names.js'

export interface NameIndex {
  /** The distinct names, with the rows (indexes into the list) that carry each. */
  names: { name: string; parts: Parts; rows: number[]; keys: string[] }[]
  /** key → the names (indexes into `names`) holding it. */
  postings: Map<string, number[]>
  /** A name's parts as compared, and without spaces → the names (equal names are no lead by a key alone). */
  exact: Map<string, number[]>
  /** The most names a key may be held by and stay distinctive. */
  genericAbove: number
  /** Identifier values by column, built when a search first gives one. */
  identifiers: Map<string, Map<string, number[]>>
  /** The characters of every row's name, what a search is charged for reading the list (counted once). */
  nameChars?: number
}

/** Indexes by fingerprint; a few, since a catalog holds few data sets searched by name. */
const INDEXES = new Map<string, NameIndex>()
const INDEX_LIMIT = 16

/** The keys of a normalised name: each word of each part, and its first four letters. */
export function keysOf(parts: Parts): string[] {
  const keys = new Set<string>()
  for (const p of parts.parts) {
    for (const word of p.core.split(' ')) {
      if (word === '') continue
      keys.add(`w:${word}`)
      if (word.length >= 4) keys.add(`p:${word.slice(0, 4)}`)
    }
  }
  return [...keys]
}

/** The forms under which an equal name is found: each part's core, and the same without spaces. */
export function exactForms(parts: Parts): string[] {
  const forms = new Set<string>()
  for (const p of parts.parts) {
    if (p.core === '') continue
    forms.add(`c:${p.core}`)
    forms.add(`j:${p.core.replace(/ /gu, '')}`)
  }
  return [...forms]
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key)
  if (!list) map.set(key, [i])
  else if (list[list.length - 1] !== i) list.push(i)
}

/** Two FNV-1a hashes of every name and its position: the same fingerprint is the same list of names. */
function fingerprint(names: string[], field: string): string {
  let h1 = 0x811c9dc5
  let h2 = 0x01000193
  for (const n of names) {
    for (let i = 0; i < n.length; i++) {
      const c = n.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x5bd1e995)
    }
    h1 = Math.imul(h1 ^ 0x1f, 0x01000193)
    h2 = Math.imul(h2 ^ 0x1f, 0x5bd1e995)
  }
  return `${field}|${names.length}|${(h1 >>> 0).toString(36)}|${(h2 >>> 0).toString(36)}`
}

/** The index of the names of `field` in `rows`, built or found again. */
/**
 * The index of a list already indexed, by the list itself: a request that searches one list for many
 * names (supplier monitoring's firms) reads the list's names and fingerprint once, not once a name.
 * Values are never changed once made, so the same list object holds the same names.
 */
const BY_LIST = new WeakMap<Value[], Map<string, { words: Map<string, LookupRow>; index: NameIndex }>>()

export function indexOf(rows: Value[], field: string, words: Map<string, LookupRow>, w: Words): NameIndex {
  const known = BY_LIST.get(rows)?.get(field)
  if (known && known.words === words) return known.index
  const index = indexOfNames(rows, field, words, w)
  let fields = BY_LIST.get(rows)
  if (!fields) BY_LIST.set(rows, (fields = new Map()))
  fields.set(field, { words, index })
  return index
}

function indexOfNames(rows: Value[], field: string, words: Map<string, LookupRow>, w: Words): NameIndex {
  const texts = rows.map((r) => {
    const v = r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, Value>)[field] : null
    return v === null || v === undefined ? '' : String(v)
  })
  const fp = fingerprint(texts, field)
  const found = INDEXES.get(fp)
  if (found) return found
  const names: NameIndex['names'] = []
  const byName = new Map<string, number>()
  for (const [r, text] of texts.entries()) {
    let n = byName.get(text)
    if (n === undefined) {
      n = names.length
      byName.set(text, n)
      const parts = normalised(words, text)
      names.push({ name: text, parts, rows: [], keys: keysOf(parts) })
    }
    names[n]!.rows.push(r)
  }
  const postings = new Map<string, number[]>()
  const exact = new Map<string, number[]>()
  for (const [n, entry] of names.entries()) {
    for (const k of entry.keys) push(postings, k, n)
    for (const f of exactForms(entry.parts)) push(exact, f, n)
  }
  const genericAbove = Math.max(w.settings.generic_min_names.toNumber(), Math.floor(w.settings.generic_share.toNumber() * names.length))
  const index: NameIndex = { names, postings, exact, genericAbove, identifiers: new Map() }
  if (INDEXES.size >= INDEX_LIMIT) INDEXES.delete(INDEXES.keys().next().value!)
  INDEXES.set(fp, index)
  return index
}

/** An identifier as compared: upper case, without spaces, dashes, dots or slashes. */
export const identifierForm = (v: Value) => String(v).toUpperCase().replace(/[\s\-./]+/gu, '')

/** The names whose rows hold `value` in the identifier column `field` (indexed by the column's own fingerprint). */
export function byIdentifier(index: NameIndex, rows: Value[], field: string, value: Value): number[] {
  const cell = (r: Value) => {
    const v = r !== null && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, Value>)[field] : null
    return v === null || v === undefined ? '' : identifierForm(v)
  }
  const key = fingerprint(rows.map(cell), field)
  let column = index.identifiers.get(key)
  if (!column) {
    column = new Map()
    for (const [n, entry] of index.names.entries()) {
      for (const r of entry.rows) {
        const v = cell(rows[r]!)
        if (v !== '') push(column, v, n)
      }
    }
    index.identifiers.set(key, column)
  }
  return column.get(identifierForm(value)) ?? []
}

/** Whether a key is distinctive in the data set: held by no more names than `genericAbove`. */
export function distinctive(index: NameIndex, key: string): boolean {
  return (index.postings.get(key)?.length ?? 0) <= index.genericAbove
}
