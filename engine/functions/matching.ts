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
 * The words of normalisation are a lookup in YAML (role `drop`, `article`, `alias` or `replace`), and so are the
 * thresholds the rule sets compare `confidence` with: no word list or threshold lives here.
 */
import { token_set_ratio as tokenSetRatio } from 'fuzzball'
import { Dec } from '../values/decimal.js'
import type { LookupEntry, LookupRow } from '../data/tables.js'
import type { Value } from '../model/types.js'
import { jaroWinkler } from './jaro-winkler.js'
import type { CallContext, FunctionLibrary, ValueType } from './spec.js'
import { chargeChars, chargeItems, describe, text } from './values.js'

/** The words of a words table, compiled: phrases as word lists, longest first. */
interface Words {
  /** Legal forms: dropped after a name's first word, kept as its first word ("NV Nutrition", "SAS Technologies"). */
  drop: string[][]
  /** Articles: dropped wherever they stand ("The Vapery"). */
  article: string[][]
  alias: string[][]
  /** Word phrases replaced by other words ("intl" → "international"). */
  replace: { phrase: string[]; by: string[] }[]
  /** Symbols replaced before punctuation is removed ("&" → "and"). */
  symbols: { symbol: string; by: string }[]
}

/** A name as compared: its parts (split at alias markers), each with and without its dropped words. */
interface Parts {
  parts: { core: string; full: string }[]
  /** Whether every word of the name is a legal form or an article ("Inc.", "The Company LLC"): no name to compare. */
  onlyForms: boolean
}

const ROLES = ['drop', 'article', 'alias', 'replace'] as const

/** Compiled words by the rows in force (one Map per table version), and names normalised with them. */
const COMPILED = new WeakMap<Map<string, LookupRow>, { words: Words; names: Map<string, Parts> }>()
/** Beyond this many distinct names the cache starts over: a bound on memory, not a tuning knob. */
const NAME_CACHE_LIMIT = 200_000

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u

function basic(t: string): string {
  return t
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
}

function words(t: string): string[] {
  return t
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .split(/\s+/u)
    .filter((w) => w !== '')
}

function compile(rows: Map<string, LookupRow>): Words {
  const compiled: Words = { drop: [], article: [], alias: [], replace: [], symbols: [] }
  for (const row of rows.values()) {
    const phrase = String(row.phrase ?? '')
    const role = String(row.role ?? '')
    const by = row.replacement === null || row.replacement === undefined ? '' : String(row.replacement)
    if (role === 'replace' && !LETTER_OR_DIGIT.test(phrase)) compiled.symbols.push({ symbol: phrase, by })
    else if (role === 'replace') compiled.replace.push({ phrase: words(basic(phrase)), by: words(basic(by)) })
    else if (role === 'drop') compiled.drop.push(words(basic(phrase)))
    else if (role === 'article') compiled.article.push(words(basic(phrase)))
    else if (role === 'alias') compiled.alias.push(words(basic(phrase)))
  }
  const longestFirst = (a: { length: number }, b: { length: number }) => b.length - a.length
  compiled.drop.sort(longestFirst)
  compiled.article.sort(longestFirst)
  compiled.alias.sort(longestFirst)
  compiled.replace.sort((a, b) => b.phrase.length - a.phrase.length)
  return compiled
}

/** Whether `phrase` stands in `list` at `i`. */
function at(list: string[], i: number, phrase: string[]): boolean {
  if (phrase.length === 0 || i + phrase.length > list.length) return false
  for (let k = 0; k < phrase.length; k++) if (list[i + k] !== phrase[k]) return false
  return true
}

function normalise(name: string, w: Words): Parts {
  let t = basic(name)
  for (const { symbol, by } of w.symbols) t = t.split(symbol).join(` ${by} `)
  // Replacements first, then the split at alias markers, then dropped words part by part.
  const replaced: string[] = []
  const tokens = words(t)
  for (let i = 0; i < tokens.length; ) {
    const r = w.replace.find((x) => at(tokens, i, x.phrase))
    if (r) {
      replaced.push(...r.by)
      i += r.phrase.length
    } else replaced.push(tokens[i++]!)
  }
  const split: string[][] = [[]]
  for (let i = 0; i < replaced.length; ) {
    const a = w.alias.find((x) => at(replaced, i, x))
    if (a) {
      split.push([])
      i += a.length
    } else split[split.length - 1]!.push(replaced[i++]!)
  }
  const parts = split
    .filter((p) => p.length > 0)
    .map((p) => {
      const kept: string[] = []
      for (let i = 0; i < p.length; ) {
        const article = w.article.find((x) => at(p, i, x))
        // A legal form follows the name; as the name's first word it is the name ("NV Nutrition").
        const form = kept.length > 0 ? w.drop.find((x) => at(p, i, x)) : undefined
        const d = article ?? form
        if (d) i += d.length
        else kept.push(p[i++]!)
      }
      const full = p.join(' ')
      // A name made only of dropped words ("The Company") is compared as written.
      return { core: kept.length > 0 ? kept.join(' ') : full, full }
    })
  // Every word a legal form or an article, wherever it stands.
  const formsOnly = (p: string[]) => {
    for (let i = 0; i < p.length; ) {
      const d = w.article.find((x) => at(p, i, x)) ?? w.drop.find((x) => at(p, i, x))
      if (!d) return false
      i += d.length
    }
    return true
  }
  const named = split.filter((p) => p.length > 0)
  return { parts: parts.length > 0 ? parts : [{ core: '', full: '' }], onlyForms: named.length > 0 && named.every(formsOnly) }
}

function normalised(rows: Map<string, LookupRow>, name: string): Parts {
  let entry = COMPILED.get(rows)
  if (!entry) {
    entry = { words: compile(rows), names: new Map() }
    COMPILED.set(rows, entry)
  }
  let parts = entry.names.get(name)
  if (!parts) {
    if (entry.names.size >= NAME_CACHE_LIMIT) entry.names.clear()
    parts = normalise(name, entry.words)
    entry.names.set(name, parts)
  }
  return parts
}

const sortedWords = (t: string) => t.split(' ').sort().join(' ')

/** Four decimals: the scores are measures, not money; a float's noise never reaches an answer. */
const measure = (x: number) => new Dec(x.toFixed(4))

interface Scored {
  nameScore: Dec
  tokenSet: Dec
  jaroWinkler: Dec
  a: string
  b: string
  /** Equal only once spaces are removed. */
  joined?: boolean
}

function score(a: string, b: string): Scored {
  if (a === '' && b === '') return { nameScore: new Dec(0), tokenSet: new Dec(0), jaroWinkler: new Dec(0), a, b }
  // Word boundaries of business names are unreliable ("Nice Cloud" / "Nicecloud", "E-Liquid" /
  // "Eliquid"): names that are the same letters once spaces are removed are the same name.
  if (a !== b && a.replace(/ /gu, '') === b.replace(/ /gu, '')) return { nameScore: new Dec(1), tokenSet: new Dec(1), jaroWinkler: new Dec(1), a, b, joined: true }
  const tokenSet = new Dec(tokenSetRatio(a, b, { full_process: false })).div(100)
  const jw = measure(a === '' || b === '' ? 0 : jaroWinkler(sortedWords(a), sortedWords(b)))
  return { nameScore: tokenSet.plus(jw).div(2).toDecimalPlaces(4), tokenSet, jaroWinkler: jw, a, b }
}

/** An identifier as compared: upper case, without spaces, dashes, dots or slashes. */
const identifierForm = (v: Value) => String(v).toUpperCase().replace(/[\s\-./]+/gu, '')

function record(cx: CallContext, v: Value | undefined, what: string): Record<string, Value> | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'object' && !Array.isArray(v) && !(v instanceof Dec)) return v as Record<string, Value>
  return cx.fail(`${what} must be a record (identifiers by name) or null, got ${describe(v as Value)}`)
}

const RESULT: ValueType = {
  record: {
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
  },
}

/** The words table must be keyed by phrase and say each phrase's role. */
function checkWordsTable(table: { kind: string; id: string; keys?: string[] }): string | undefined {
  if (table.kind !== 'lookup') return undefined
  const keys = (table as LookupEntry).keys
  if (keys.length !== 1 || keys[0] !== 'phrase') return `${table.id} must be a lookup keyed by [phrase] (with columns role and replacement) to be entity_match's words`
  for (const dated of (table as LookupEntry).history) {
    for (const row of dated.value.values()) {
      if (!ROLES.includes(String(row.role) as (typeof ROLES)[number])) return `${table.id}: the phrase "${String(row.phrase)}" has role ${JSON.stringify(row.role)}; a role is one of ${ROLES.join(', ')}`
      if (row.role === 'replace' && (row.replacement === null || row.replacement === undefined || row.replacement === '')) return `${table.id}: the phrase "${String(row.phrase)}" is replaced but names no replacement`
    }
  }
  return undefined
}

export const matching: FunctionLibrary = {
  entity_match: {
    doc:
      'How confidently a name designates the same entity as a candidate record\'s name, from 0 to 1, with the reasons: entity_match(matching.entity.name_words, name, candidate_name, identifiers, candidate_identifiers). ' +
      'Names are normalised with the words table (accents, case, punctuation; `replace`, `alias`, `article` and `drop` phrases, a legal form kept as a name\'s first word), split at alias markers, and each pair of parts scored: name_score = (token-set ratio + Jaro-Winkler on the sorted words) / 2, or 1 for names equal once spaces are removed, the best pair counting (when both names hold a legal name before an alias marker, only the legal names). ' +
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
      const own = normalised(rows, name)
      const mine = own.parts
      const theirs = normalised(rows, candidate).parts
      // Charged whether or not the normalised names were cached, so the count is the request's own.
      chargeChars(cx, name.length + candidate.length)
      // Both names hold a legal name before an alias marker ("Alohma LLC d/b/a Kure CBD & Vape" and
      // "JSS Retail, LLC, d/b/a Kure CBD & Vape"): the legal names decide, since a trade name may be
      // shared by franchisees or related stores that are different entities. One name split: any part.
      const owners = mine.length > 1 && theirs.length > 1
      let best: Scored | undefined
      for (const a of owners ? mine.slice(0, 1) : mine) {
        for (const b of owners ? theirs.slice(0, 1) : theirs) {
          // Both measures compare every character of one name with every one of the other.
          chargeItems(cx, 1)
          chargeChars(cx, a.core.length * b.core.length)
          const s = score(a.core, b.core)
          if (!best || s.nameScore.gt(best.nameScore)) best = s
        }
      }
      const b = best!
      const reasons: string[] = []
      if (b.a === b.b && b.a !== '') reasons.push(`names equal as compared ("${b.a}")`)
      else if (b.joined) reasons.push(`names equal once spaces are removed ("${b.a}" and "${b.b}")`)
      else reasons.push(`names alike: "${b.a}" and "${b.b}", token-set ${b.tokenSet.toFixed(2)}, Jaro-Winkler ${b.jaroWinkler.toFixed(2)}, name score ${b.nameScore.toFixed(2)}`)
      if (owners) reasons.push('both names split at an alias marker (dba, fka, aka…): the legal names before it compared, a shared trade name not counting')
      else if (theirs.length > 1 || mine.length > 1) reasons.push('a name split at an alias marker (dba, fka, aka…): the best-matching parts compared')

      const given = record(cx, ids as Value | undefined, 'the identifiers')
      const held = record(cx, candidateIds as Value | undefined, "the candidate's identifiers")
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
      const identifier = matched.length > 0 ? 'matched' : differing.length > 0 ? 'differs' : 'not_compared'
      const confidence = identifier === 'matched' ? new Dec(1) : identifier === 'differs' ? new Dec(0) : b.nameScore
      return {
        confidence,
        name_score: b.nameScore,
        token_set: b.tokenSet,
        jaro_winkler: b.jaroWinkler,
        identifier,
        identifiers_matched: matched,
        reasons,
        normalized_name: b.a,
        normalized_candidate: b.b,
        legal_name: mine[0]!.core,
        candidate_legal_name: theirs[0]!.core,
        only_legal_forms: own.onlyForms,
      }
    },
  },
}
