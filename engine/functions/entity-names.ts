/**
 * @module Names as the entity matcher compares them: the words table compiled (tables/matching/entity.yaml),
 * a name normalised into its parts, and two names compared. entity_match (one pair) and entity_search
 * (a name against the rows of a data set, through ./entity-index.ts) both compare with `compare`, so a
 * confidence means the same whichever asked.
 *
 * A name's parts: its legal name; each name after an alias marker (dba, fka); each side of a joined
 * name ("Pfizer/Hospira"); and a parent or affiliate named by a `parent` phrase ("Elanco, a division of
 * Eli Lilly", "Spectrum, a Mallinckrodt company"), which is a lead, never a confident match.
 * @api private
 */
import { token_set_ratio as tokenSetRatio } from 'fuzzball'
import { Dec } from '../values/decimal.js'
import type { LookupRow } from '../data/tables.js'
import { jaroWinkler } from './jaro-winkler.js'

export const ROLES = ['drop', 'article', 'alias', 'replace', 'parent', 'setting'] as const

/**
 * The matcher's settings (role `setting`: the phrase names one, the replacement is its value). Every
 * one is required, so that no number of the matcher lives in TypeScript.
 */
export const SETTINGS = ['order_penalty', 'parent_lead', 'generic_share', 'generic_min_names', 'generic_cap', 'short_name_lead', 'extra_word_cap', 'form_cap'] as const
export type Setting = (typeof SETTINGS)[number]

/** The words of a words table, compiled: phrases as word lists, longest first. */
export interface Words {
  /** Legal forms: dropped after a name's first word, kept as its first word ("NV Nutrition", "SAS Technologies"); each with its kind (`*`: every kind). */
  drop: string[][]
  kinds: Map<string, string>
  /** Articles: dropped wherever they stand ("The Vapery"). */
  article: string[][]
  alias: string[][]
  /** Markers of a parent or affiliate: the words after it ("a division of *") or in place of `*` ("a * company"). */
  parent: { before: string[]; after: string[] }[]
  /** Word phrases replaced by other words ("intl" → "international"). */
  replace: { phrase: string[]; by: string[] }[]
  /** Symbols replaced before punctuation is removed ("&" → "and"). */
  symbols: { symbol: string; by: string }[]
  settings: Record<Setting, Dec>
}

/** How a part stands in its name. */
export type PartKind = 'legal' | 'alias' | 'joined' | 'parent'

export interface Part {
  core: string
  full: string
  kind: PartKind
  /** The kinds of the legal forms dropped from it ("corp", "ltd"; `*` a form of every kind). */
  forms?: string[]
}

/** A name as compared: its parts, each with and without its dropped words. */
export interface Parts {
  parts: Part[]
  /** Whether every word of the name is a legal form or an article ("Inc.", "The Company LLC"): no name to compare. */
  onlyForms: boolean
  /** Whether the name was split at an alias marker (dba, fka…). */
  aliased: boolean
}

/** Compiled words by the rows in force (one Map per table version), and names normalised with them. */
const COMPILED = new WeakMap<Map<string, LookupRow>, { words: Words; names: Map<string, Parts> }>()
/** Beyond this many distinct names the cache starts over: a bound on memory, not a tuning knob. */
const NAME_CACHE_LIMIT = 200_000

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
/** A slash between two words of two characters or more joins two names ("Pfizer/Hospira", "M.D./ACRC Studies"); "A/S" and "d/b/a" are not. */
const JOINED = /(?<=[\p{L}\p{N}.]{2})\s*\/\s*(?=[\p{L}\p{N}]{2})/u

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

export function compile(rows: Map<string, LookupRow>): Words {
  const compiled: Words = { drop: [], kinds: new Map(), article: [], alias: [], parent: [], replace: [], symbols: [], settings: {} as Record<Setting, Dec> }
  for (const row of rows.values()) {
    const phrase = String(row.phrase ?? '')
    const role = String(row.role ?? '')
    const by = row.replacement === null || row.replacement === undefined ? '' : String(row.replacement)
    if (role === 'replace' && !LETTER_OR_DIGIT.test(phrase)) compiled.symbols.push({ symbol: phrase, by })
    else if (role === 'replace') compiled.replace.push({ phrase: words(basic(phrase)), by: words(basic(by)) })
    else if (role === 'drop') {
      const ws = words(basic(phrase))
      compiled.drop.push(ws)
      compiled.kinds.set(ws.join(' '), by === '' ? ws.join('') : by)
    }
    else if (role === 'article') compiled.article.push(words(basic(phrase)))
    else if (role === 'alias') compiled.alias.push(words(basic(phrase)))
    else if (role === 'parent') {
      const [before, after] = phrase.split('*')
      compiled.parent.push({ before: words(basic(before ?? '')), after: words(basic(after ?? '')) })
    } else if (role === 'setting') compiled.settings[phrase as Setting] = new Dec(by)
  }
  const longestFirst = (a: { length: number }, b: { length: number }) => b.length - a.length
  compiled.drop.sort(longestFirst)
  compiled.article.sort(longestFirst)
  compiled.alias.sort(longestFirst)
  compiled.parent.sort((a, b) => b.before.length + b.after.length - (a.before.length + a.after.length))
  compiled.replace.sort((a, b) => b.phrase.length - a.phrase.length)
  return compiled
}

/** Whether `phrase` stands in `list` at `i`. */
function at(list: string[], i: number, phrase: string[]): boolean {
  if (phrase.length === 0 || i + phrase.length > list.length) return false
  for (let k = 0; k < phrase.length; k++) if (list[i + k] !== phrase[k]) return false
  return true
}

/** A part's words split at its first parent marker: the firm's words, and the parent's (none without a marker). */
function parentSplit(p: string[], w: Words): { own: string[]; parent: string[] } {
  // The marker never opens a name: "A Division of Nothing" as a whole name is a name.
  for (let i = 1; i < p.length; i++) {
    for (const m of w.parent) {
      if (!at(p, i, m.before)) continue
      const from = i + m.before.length
      if (m.after.length === 0) {
        if (from < p.length) return { own: p.slice(0, i), parent: p.slice(from) }
        continue
      }
      // "a * company": the parent's name fills the star, the closing words end the part.
      const to = p.length - m.after.length
      if (to > from && at(p, to, m.after)) return { own: p.slice(0, i), parent: p.slice(from, to) }
    }
  }
  return { own: p, parent: [] }
}

function normalise(name: string, w: Words): Parts {
  const joinedNames = basic(name).split(JOINED)
  const split: { words: string[]; kind: PartKind }[] = []
  let aliased = false
  for (const [j, joinedName] of joinedNames.entries()) {
    let t = joinedName
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
    const own: { words: string[]; kind: PartKind }[] = [{ words: [], kind: j === 0 ? 'legal' : 'joined' }]
    for (let i = 0; i < replaced.length; ) {
      const a = w.alias.find((x) => at(replaced, i, x))
      if (a) {
        own.push({ words: [], kind: 'alias' })
        aliased = true
        i += a.length
      } else own[own.length - 1]!.words.push(replaced[i++]!)
    }
    for (const part of own) {
      const { own: firm, parent } = parentSplit(part.words, w)
      split.push({ words: firm, kind: part.kind })
      if (parent.length > 0) split.push({ words: parent, kind: 'parent' })
    }
  }
  const parts = split
    .filter((p) => p.words.length > 0)
    .map(({ words: p, kind }) => {
      const kept: string[] = []
      const forms: string[] = []
      for (let i = 0; i < p.length; ) {
        const article = w.article.find((x) => at(p, i, x))
        // A legal form follows the name; as the name's first word it is the name ("NV Nutrition").
        const form = kept.length > 0 && !article ? w.drop.find((x) => at(p, i, x)) : undefined
        if (form) forms.push(w.kinds.get(form.join(' '))!)
        const d = article ?? form
        if (d) i += d.length
        else kept.push(p[i++]!)
      }
      const full = p.join(' ')
      // A name made only of dropped words ("The Company") is compared as written.
      return { core: kept.length > 0 ? kept.join(' ') : full, full, kind, forms }
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
  const named = split.filter((p) => p.words.length > 0)
  return {
    parts: parts.length > 0 ? parts : [{ core: '', full: '', kind: 'legal' }],
    onlyForms: named.length > 0 && named.every((p) => formsOnly(p.words)),
    aliased,
  }
}

/** The compiled words of the rows in force. */
export function compiledWords(rows: Map<string, LookupRow>): Words {
  return entry(rows).words
}

function entry(rows: Map<string, LookupRow>) {
  let e = COMPILED.get(rows)
  if (!e) {
    e = { words: compile(rows), names: new Map() }
    COMPILED.set(rows, e)
  }
  return e
}

/** A name normalised with the words in force, cached. */
export function normalised(rows: Map<string, LookupRow>, name: string): Parts {
  const e = entry(rows)
  let parts = e.names.get(name)
  if (!parts) {
    if (e.names.size >= NAME_CACHE_LIMIT) e.names.clear()
    parts = normalise(name, e.words)
    e.names.set(name, parts)
  }
  return parts
}

const sortedWords = (t: string) => t.split(' ').sort().join(' ')

/** Four decimals: the scores are measures, not money; a float's noise never reaches an answer. */
const measure = (x: number) => new Dec(x.toFixed(4))

export interface Scored {
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

/** Whether the words both names hold stand in a different order in each ("Smart Smoke" / "Smoke Smart"). */
function orderDiffers(a: string, b: string): boolean {
  const aw = a.split(' ')
  const bw = b.split(' ')
  const inB = new Set(bw)
  const inA = new Set(aw)
  const seqA = aw.filter((x, i) => inB.has(x) && aw.indexOf(x) === i)
  const seqB = bw.filter((x, i) => inA.has(x) && bw.indexOf(x) === i)
  return seqA.length > 1 && seqA.join(' ') !== seqB.join(' ')
}

/** Whether the words of `short` are the first words of `long`, which holds more ("Elanco" / "Elanco Animal Health"). */
function leadingWords(short: string, long: string): boolean {
  const s = short.split(' ')
  const l = long.split(' ')
  return s.length < l.length && s.every((x, i) => l[i] === x)
}

/** The kinds of two parts' legal forms, when both carry one and no kind is shared ("ltd / corp"); forms of every kind (`*`) left aside. */
function formsDiffer(a: string[], b: string[]): string | undefined {
  const x = a.filter((k) => k !== '*')
  const y = b.filter((k) => k !== '*')
  if (x.length === 0 || y.length === 0 || x.some((k) => y.includes(k))) return undefined
  return `${[...new Set(x)].join('+')} / ${[...new Set(y)].join('+')}`
}

/** What the data set says of a pair, where a search knows it: whether the names share a word that is not generic there. */
export interface Rarity {
  distinctive: boolean
  /** Whether either of two compared parts holds a word rare in the data set that shares no key with the other ("Sun" of "Sun Pharmaceutical Industries" against "Pharmaceutical Industries"). */
  extraRareWord: (a: string, b: string) => boolean
}

export interface Compared {
  best: Scored
  confidence: Dec
  reasons: string[]
  /** Both names split at an alias marker: the legal names decided. */
  owners: boolean
}

/**
 * How confidently two normalised names designate one entity, by name alone: the best pair of parts,
 * less what word order, a parent's name, or (in a search) the want of a distinctive shared word take away.
 */
export function compare(mine: Parts, theirs: Parts, w: Words, rarity?: Rarity, charge?: (items: number, chars: number) => void): Compared {
  // Both names hold a legal name before an alias marker ("Alohma LLC d/b/a Kure CBD & Vape" and
  // "JSS Retail, LLC, d/b/a Kure CBD & Vape"): the legal names decide, since a trade name may be
  // shared by franchisees or related stores that are different entities. One name split: any part.
  const owners = mine.aliased && theirs.aliased
  const mineParts = owners ? mine.parts.filter((p) => p.kind !== 'alias') : mine.parts
  const theirParts = owners ? theirs.parts.filter((p) => p.kind !== 'alias') : theirs.parts
  const s = w.settings
  let best: { scored: Scored; confidence: Dec; parent: boolean; order: boolean; short: boolean; forms: string | undefined } | undefined
  for (const a of mineParts) {
    for (const b of theirParts) {
      // Both measures compare every character of one name with every one of the other.
      charge?.(1, a.core.length * b.core.length)
      const scored = score(a.core, b.core)
      let confidence = scored.nameScore
      const order = !scored.joined && a.core !== b.core && orderDiffers(a.core, b.core)
      if (order) confidence = Dec.max(0, confidence.minus(s.order_penalty))
      // A short name for a longer one ("Elanco" for "Elanco Animal Health"): a lead, when its words are
      // the other's first words and (in a search) one of them is rare in the data set.
      const short = (leadingWords(a.core, b.core) || leadingWords(b.core, a.core)) && rarity?.distinctive === true
      if (short && confidence.lt(s.short_name_lead)) confidence = s.short_name_lead
      const parent = a.kind === 'parent' || b.kind === 'parent'
      if (parent && confidence.gt(s.parent_lead)) confidence = s.parent_lead
      const forms = formsDiffer(a.forms ?? [], b.forms ?? [])
      if (forms && confidence.gt(s.form_cap)) confidence = s.form_cap
      if (!best || confidence.gt(best.confidence)) best = { scored, confidence, parent, order, short, forms }
    }
  }
  const b = best!
  const reasons: string[] = []
  const sc = b.scored
  if (sc.a === sc.b && sc.a !== '') reasons.push(`names equal as compared ("${sc.a}")`)
  else if (sc.joined) reasons.push(`names equal once spaces are removed ("${sc.a}" and "${sc.b}")`)
  else reasons.push(`names alike: "${sc.a}" and "${sc.b}", token-set ${sc.tokenSet.toFixed(2)}, Jaro-Winkler ${sc.jaroWinkler.toFixed(2)}, name score ${sc.nameScore.toFixed(2)}`)
  if (owners) reasons.push('both names split at an alias marker (dba, fka, aka…): the legal names before it compared, a shared trade name not counting')
  else if (mine.aliased || theirs.aliased) reasons.push('a name split at an alias marker (dba, fka, aka…): the best-matching parts compared')
  if (mine.parts.some((p) => p.kind === 'joined') || theirs.parts.some((p) => p.kind === 'joined')) reasons.push('a joined name (A/B): each name compared on its own')
  if (b.order) reasons.push(`the shared words stand in another order: less ${s.order_penalty.toFixed(2)}`)
  if (b.short) reasons.push(`a short name for a longer one (its words the other's first words, a rare one among them): a lead at ${s.short_name_lead.toFixed(2)} at least`)
  if (b.forms && b.confidence.eq(s.form_cap)) reasons.push(`legal forms of different kinds (${b.forms}): likely different entities, a lead at most ${s.form_cap.toFixed(2)}`)
  if (b.parent) reasons.push(`found as a parent or affiliate named in the record ("a division of", "a … company"): a lead, at most ${s.parent_lead.toFixed(2)}`)
  let confidence = b.confidence
  // The shared distinctive word rule: names equal as compared aside, a pair sharing only words that
  // are common in the data set ("Laboratories", "Vapor") is no lead.
  if (rarity && !rarity.distinctive && sc.a !== sc.b && !sc.joined && confidence.gt(s.generic_cap)) {
    confidence = s.generic_cap
    reasons.push(`no word shared that is rare in the data set (only common words such as a trade's name): at most ${s.generic_cap.toFixed(2)}`)
  }
  // A rare word one name holds and the other lacks: a lead at most, never a confident match.
  if (rarity && sc.a !== sc.b && !sc.joined && !b.parent && confidence.gt(s.extra_word_cap) && rarity.extraRareWord(sc.a, sc.b)) {
    confidence = s.extra_word_cap
    reasons.push(`a word rare in the data set in one name only: at most ${s.extra_word_cap.toFixed(2)}`)
  }
  return { best: sc, confidence, reasons, owners }
}
