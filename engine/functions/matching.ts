/**
 * @module Entity matching: how confidently a name (and the identifiers given with it) designates the
 * same company or person as a record's. One matcher for every feature that takes a name (warning
 * letters, Orange Book applicants, certifications, licences), so that a threshold measured once
 * means the same everywhere.
 *
 * The method is the one record-linkage practice settled on for names:
 * - normalise first (accents, case, punctuation, "&" as "and", legal forms such as Inc or GmbH
 *   dropped) and split a name at its alias markers ("dba", "fka"), every part a name of its own;
 * - score each pair of parts with two measures that fail differently: the token-set ratio of
 *   FuzzyWuzzy / RapidFuzz (fuzzball's port), blind to word order and to words only one side has,
 *   and Jaro-Winkler (./jaro-winkler.ts), the measure Splink's name comparisons and the US Census
 *   Bureau's record linkage use, which weighs a shared beginning and penalises the words one side lacks;
 * - a unique identifier both sides carry (NPI, UEI, a licence or application number) decides: the
 *   same one is the same entity, a different one is not.
 * - word order lowers the confidence a little; a parent or affiliate named in a record, or (in a
 *   search) a short name for a longer one, is a lead; and a search (entity_search) weighs words by how
 *   rare they are in the data set it searches: a pair sharing only common words is no lead.
 * The words of normalisation are a lookup in YAML (role `drop`, `article`, `alias`, `replace`, `parent`),
 * and so are the matcher's settings (role `setting`) and the thresholds the rule sets compare
 * `confidence` with: no word list, weight or threshold lives here. Normalising and comparing is
 * ./entity-names.ts; the blocking index of a search, ./entity-index.ts.
 */
import { Dec } from '../values/decimal.js'
import type { LookupEntry, LookupRow } from '../data/tables.js'
import type { Value } from '../model/types.js'
import { byIdentifier, distinctive, exactForms, identifierForm, indexOf, keysOf, type NameIndex } from './entity-index.js'
import { compare, compiledWords, normalised, ROLES, SETTINGS, type Compared, type Parts } from './entity-names.js'
import type { CallContext, FunctionLibrary, ValueType } from './spec.js'
import { amount, chargeChars, chargeItems, describe, list, text } from './values.js'

function record(cx: CallContext, v: Value | undefined, what: string): Record<string, Value> | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Dec)) return v as Record<string, Value>
  return cx.fail(`${what} must be a record (identifiers by name) or null, got ${describe(v as Value)}`)
}

const MATCH: Record<string, ValueType> = {
  confidence: 'rate',
  name_score: 'rate',
  token_set: 'rate',
  jaro_winkler: 'rate',
  identifier: 'text',
  identifiers_matched: { list: 'text' },
  reasons: { list: 'text' },
  normalized_name: 'text',
  normalized_candidate: 'text',
  legal_name: 'text',
  candidate_legal_name: 'text',
  only_legal_forms: 'boolean',
}
const RESULT: ValueType = { record: MATCH }

/** The words table must be keyed by phrase, say each phrase's role, and hold every setting. */
function checkWordsTable(table: { kind: string; id: string; keys?: string[] }): string | undefined {
  if (table.kind !== 'lookup') return undefined
  const keys = (table as LookupEntry).keys
  if (keys.length !== 1 || keys[0] !== 'phrase') return `${table.id} must be a lookup keyed by [phrase] (with columns role and replacement) to be entity_match's words`
  for (const dated of (table as LookupEntry).history) {
    const settings = new Set<string>()
    for (const row of dated.value.values()) {
      if (!ROLES.includes(String(row.role) as (typeof ROLES)[number])) return `${table.id}: the phrase "${String(row.phrase)}" has role ${JSON.stringify(row.role)}; a role is one of ${ROLES.join(', ')}`
      if (row.role === 'replace' && (row.replacement === null || row.replacement === undefined || row.replacement === '')) return `${table.id}: the phrase "${String(row.phrase)}" is replaced but names no replacement`
      if (row.role === 'setting') {
        if (!(SETTINGS as readonly string[]).includes(String(row.phrase))) return `${table.id}: the setting "${String(row.phrase)}" is not one of ${SETTINGS.join(', ')}`
        if (!/^\d+(\.\d+)?$/.test(String(row.replacement ?? ''))) return `${table.id}: the setting "${String(row.phrase)}" must have a number as its replacement, got ${JSON.stringify(row.replacement)}`
        settings.add(String(row.phrase))
      }
      if (row.role === 'parent' && String(row.phrase).split('*').length > 2) return `${table.id}: the parent phrase "${String(row.phrase)}" holds more than one *`
    }
    const missing = SETTINGS.filter((x) => !settings.has(x))
    if (missing.length > 0) return `${table.id} (from ${dated.from}) lacks the setting(s) ${missing.join(', ')} (role setting, the value as replacement)`
  }
  return undefined
}

/** Identifiers given and held: the same one decides a match, only different ones a non-match. */
function identifiers(given: Record<string, Value> | null, held: Record<string, Value> | null, reasons: string[]) {
  const matched: string[] = []
  const differing: string[] = []
  if (given && held) {
    for (const [field, value] of Object.entries(given)) {
      if (value === null || value === '' || !Object.hasOwn(held, field)) continue
      const theirsValue = held[field]
      if (theirsValue === null || theirsValue === undefined || theirsValue === '') {
        reasons.push(`${field} given, not in the record`)
        continue
      }
      if (identifierForm(value) === identifierForm(theirsValue)) {
        matched.push(field)
        reasons.push(`${field} matched (${String(theirsValue)})`)
      } else {
        differing.push(field)
        reasons.push(`${field} differs: ${String(value)} given, ${String(theirsValue)} in the record`)
      }
    }
  }
  return { matched, identifier: matched.length > 0 ? 'matched' : differing.length > 0 ? 'differs' : 'not_compared' }
}

/** The result record of one comparison, identifiers applied. */
function result(c: Compared, mine: Parts, theirs: Parts, given: Record<string, Value> | null, held: Record<string, Value> | null): Record<string, Value> {
  const reasons = [...c.reasons]
  const ids = identifiers(given, held, reasons)
  const confidence = ids.identifier === 'matched' ? new Dec(1) : ids.identifier === 'differs' ? new Dec(0) : c.confidence
  return {
    confidence,
    name_score: c.best.nameScore,
    token_set: c.best.tokenSet,
    jaro_winkler: c.best.jaroWinkler,
    identifier: ids.identifier,
    identifiers_matched: ids.matched,
    reasons,
    normalized_name: c.best.a,
    normalized_candidate: c.best.b,
    legal_name: mine.parts[0]!.core,
    candidate_legal_name: theirs.parts[0]!.core,
    only_legal_forms: mine.onlyForms,
  }
}

/** Whether a word of either compared part is rare in the data set (its word key distinctive) and shares no key with the other part. */
function extraRareWord(index: NameIndex): (a: string, b: string) => boolean {
  const keysOfText = (t: string) => keysOf({ parts: [{ core: t, full: t, kind: 'legal' }], onlyForms: false, aliased: false })
  const lacks = (t: string, other: Set<string>) => t.split(' ').some((word) => word !== '' && distinctive(index, `w:${word}`) && !keysOfText(word).some((k) => other.has(k)))
  return (a, b) => lacks(a, new Set(keysOfText(b))) || lacks(b, new Set(keysOfText(a)))
}

/**
 * A name searched in a list of rows: each row whose name (column `field`) or identifiers make a
 * confidence of at least `least`, in the list's order, with its match. With `scan`, every name is
 * compared (what the tests check the blocking index against); else only those the index offers.
 * @api private
 */
export function entitySearch(
  words: Map<string, LookupRow>,
  name: string,
  rows: Value[],
  field: string,
  least: Dec,
  given: Record<string, Value> | null,
  options: { scan?: boolean; charge?: (items: number, chars: number) => void } = {},
): { row: Value; match: Record<string, Value> }[] {
  const w = compiledWords(words)
  const charge = options.charge
  const index = indexOf(rows, field, words, w)
  const mine = normalised(words, name)
  const queryKeys = keysOf(mine)
  // Reading every name to find the index again is a pass over the list.
  // (The same count for every search of the list, so it is counted once per index.)
  charge?.(1, (index.nameChars ??= index.names.reduce((n, e) => n + e.name.length * e.rows.length, 0)))
  const candidates = new Set<number>()
  const scan = options.scan === true || least.lte(w.settings.generic_cap)
  if (scan) for (let n = 0; n < index.names.length; n++) candidates.add(n)
  else {
    for (const k of queryKeys) {
      // A generic key alone lists no one: its names come only through a distinctive key or an equal name.
      if (!distinctive(index, k)) continue
      const names = index.postings.get(k) ?? []
      charge?.(1 + names.length, 0)
      for (const n of names) candidates.add(n)
    }
    for (const f of exactForms(mine)) for (const n of index.exact.get(f) ?? []) candidates.add(n)
    if (given) {
      for (const [f, v] of Object.entries(given)) {
        if (v === null || v === '') continue
        const names = byIdentifier(index, rows, f, v)
        charge?.(1 + names.length, 0)
        for (const n of names) candidates.add(n)
      }
    }
  }
  const shared = new Set(queryKeys.filter((k) => distinctive(index, k)))
  const rareWordAlone = extraRareWord(index)
  const found: { at: number; row: Value; match: Record<string, Value> }[] = []
  for (const n of candidates) {
    const entry = index.names[n]!
    const rarity = { distinctive: entry.keys.some((k) => shared.has(k)), extraRareWord: rareWordAlone }
    const c = compare(mine, entry.parts, w, rarity, charge)
    for (const r of entry.rows) {
      const row = rows[r]!
      const held = row !== null && typeof row === 'object' && !Array.isArray(row) && !(row instanceof Dec) ? (row as Record<string, Value>) : null
      const m = result(c, mine, entry.parts, given, held)
      if ((m.confidence as Dec).gte(least)) found.push({ at: r, row, match: m })
    }
  }
  found.sort((a, b) => a.at - b.at)
  return found.map(({ row, match }) => ({ row, match }))
}

export const matching: FunctionLibrary = {
  entity_match: {
    doc:
      'How confidently a name designates the same entity as a candidate record\'s name, from 0 to 1, with the reasons: entity_match(matching.entity.name_words, name, candidate_name, identifiers, candidate_identifiers). ' +
      'Names are normalised with the words table (accents, case, punctuation; `replace`, `alias`, `parent`, `article` and `drop` phrases, a legal form kept as a name\'s first word), split into parts (the legal name, names after an alias marker, each side of a joined name A/B, a parent named by a `parent` phrase), and each pair of parts scored: name_score = (token-set ratio + Jaro-Winkler on the sorted words) / 2, or 1 for names equal once spaces are removed, the best pair counting (when both names hold a legal name before an alias marker, only the legal names); shared words in another order take `order_penalty` off, a parent\'s part gives at most `parent_lead`, and two parts whose legal forms are of different kinds (the drop rows\' replacement: Inc and Corporation one kind, Ltd another) at most `form_cap` (the settings of the words table). ' +
      'The optional identifiers (a record such as the request\'s { npi, uei }, and the candidate\'s row) decide where both hold one: the same value gives confidence 1, only different values give 0. ' +
      'Result: { confidence, name_score, token_set, jaro_winkler, identifier (matched | differs | not_compared), identifiers_matched, reasons, normalized_name, normalized_candidate, legal_name, candidate_legal_name, only_legal_forms }; legal_name and candidate_legal_name are each name\'s part before its first alias marker, normalised (the legal entity that holds a trade name); only_legal_forms is true when every word of the name is a legal form or an article (no name to compare).',
    args: [{ table: 'lookup' }, 'text', 'text', 'any', 'any'],
    required: 3,
    returns: RESULT,
    checkTable: checkWordsTable,
    impl: ([, n, c, ids, candidateIds], cx) => {
      const rows = cx.rt.read(cx.table as LookupEntry)
      const name = text(cx, n!, 'the name')
      const candidate = text(cx, c!, 'the candidate name')
      const mine = normalised(rows, name)
      const theirs = normalised(rows, candidate)
      // Charged whether or not the normalised names were cached, so the count is the request's own.
      chargeChars(cx, name.length + candidate.length)
      const compared = compare(mine, theirs, compiledWords(rows), undefined, (items, chars) => {
        chargeItems(cx, items)
        chargeChars(cx, chars)
      })
      const given = record(cx, ids as Value | undefined, 'the identifiers')
      const held = record(cx, candidateIds as Value | undefined, "the candidate's identifiers")
      return result(compared, mine, theirs, given, held)
    },
  },
  entity_search: {
    doc:
      'The rows of a list whose name matches a name with at least a least confidence, each as { row, match } in the list\'s order: entity_search(matching.entity.name_words, name, rows, \'name_column\', least, identifiers). ' +
      'match is entity_match\'s result for the name and the row\'s name (the row itself as the candidate\'s identifiers), with the data set\'s rarity of words: a word held by more than `generic_share` of the distinct names (and more than `generic_min_names`) is generic, and a pair of names sharing no other word (equal names aside) has at most `generic_cap`; a short name whose words are the first words of a longer one, sharing a rare word, is a lead at `short_name_lead` at least. ' +
      'A blocking index of the names (each word and its first four letters) finds the candidates, built once per list of names; for a least confidence above `generic_cap` it finds exactly what comparing every row would.',
    args: [{ table: 'lookup' }, 'text', 'list', 'text', 'number', 'any'],
    required: 5,
    returns: (t) => {
      const rows = t[2]
      const item = rows !== undefined && typeof rows === 'object' && 'list' in rows ? rows.list : 'any'
      return { list: { record: { row: item, match: RESULT } } }
    },
    checkTable: checkWordsTable,
    impl: ([, n, rowsV, fieldV, leastV, ids], cx) => {
      const words = cx.rt.read(cx.table as LookupEntry)
      const name = text(cx, n!, 'the name')
      const rows = list(cx, rowsV!, 'the rows')
      const field = text(cx, fieldV!, 'the name column')
      const least = amount(cx, leastV!, 'the least confidence')
      const given = record(cx, ids as Value | undefined, 'the identifiers')
      chargeChars(cx, name.length)
      const found = entitySearch(words, name, rows, field, least, given, {
        charge: (items, chars) => {
          chargeItems(cx, items)
          chargeChars(cx, chars)
        },
      })
      return found.map((f) => ({ row: f.row, match: f.match }))
    },
  },
}
