/**
 * @module Functions on text: joining, normalising for comparison, matching a pattern, and how alike
 * two names are (an entity or a licence holder matched against a record).
 *
 * Patterns are RE2 (the re2-wasm package, Google's RE2 compiled to WebAssembly): matching takes time
 * linear in the text whatever the pattern, so a pattern in a rule file or a request can never stall
 * a worker by backtracking; what RE2 cannot do in linear time (backreferences, lookaround) is refused
 * when the pattern is compiled. A pattern written in a formula is compiled at load.
 */
import { distance } from 'fuzzball'
import { RE2 } from 're2-wasm'
import { Dec, isDec } from '../values/decimal.js'
import { WorkLimitError } from '../errors.js'
import type { FunctionLibrary, ValueType } from './spec.js'
import { chargeChars, describe, integer, list, text } from './values.js'

/** Compiled patterns by source: each is compiled once per process. */
const PATTERNS = new Map<string, RE2>()

/** A pattern written out in a formula (the second argument) is compiled at load, so a bad one is a load error. */
function checkPatternLiteral(index: number, value: unknown): string | undefined {
  if (index !== 1 || typeof value !== 'string') return undefined
  const p = pattern(value)
  return typeof p === 'string' ? p : undefined
}

/** The compiled pattern, or the reason it does not compile. */
function pattern(source: string): RE2 | string {
  const known = PATTERNS.get(source)
  if (known) return known
  try {
    // `u`: re2-wasm reads patterns as Unicode, which it requires.
    const compiled = new RE2(source, 'u')
    PATTERNS.set(source, compiled)
    return compiled
  } catch (error) {
    return `the pattern ${JSON.stringify(source)} is not one RE2 accepts: ${(error as Error).message.replace(/^Invalid regular expression: \/.*\/u: /, '')}`
  }
}

/** Lower case, compatibility forms unified (NFKC), punctuation as space, spaces collapsed. */
export function normalizeText(t: string): string {
  return t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim()
}

/** The most matches `match_all` answers, as `range` bounds a list. */
const MATCH_LIMIT = 10_000

/**
 * Steps one search of re2-wasm costs, so that its step weighs about what a formula's does (1–2 µs
 * of CPU here): a fixed part for the call into WebAssembly and its answer (about 3 µs) and one step
 * per CHARS_PER_EXEC_STEP characters cut out, copied into WebAssembly and searched (about 25 ns each).
 */
const EXEC_STEPS = 4
const CHARS_PER_EXEC_STEP = 32

/** The steps of one search of a subject of `length` characters. @api private */
export function execSteps(length: number): number {
  return EXEC_STEPS + Math.ceil(length / CHARS_PER_EXEC_STEP)
}

/** A text that makes a pattern match more often than `match_all` answers: the caller's to shorten. */
export class TooManyMatches extends WorkLimitError {
  constructor(readonly limit: number) {
    super(`the text matches a pattern more than ${limit} times, the most one request may ask for; send a shorter text`)
  }
}
/** A line longer than this is searched in pieces (cut after a sentence or at a space), so that each search stays short. */
const PIECE = 4_000

/**
 * The lines of a text, each as its characters (code points) and its offset; a line over PIECE
 * characters is cut into pieces, after the last ". " before the limit where there is one in its second
 * half, else at its last space. re2-wasm copies its whole subject into WebAssembly on every call and
 * walks it again to place a start index, so searching short pieces keeps finding every match linear
 * in the text.
 */
function* pieces(subject: string): Generator<{ chars: string[]; at: number }> {
  let at = 0
  for (const line of subject.split('\n')) {
    const chars = [...line]
    let from = 0
    while (chars.length - from > PIECE) {
      const half = from + PIECE / 2
      let cut = from + PIECE
      while (cut > half && !(chars[cut - 1] === ' ' && chars[cut - 2] === '.')) cut--
      if (cut === half) {
        cut = from + PIECE
        while (cut > half && chars[cut - 1] !== ' ') cut--
      }
      if (cut === half) cut = from + PIECE
      yield { chars: chars.slice(from, cut), at: at + from }
      from = cut
    }
    yield { chars: from === 0 ? chars : chars.slice(from), at: at + from }
    at += chars.length + 1
  }
}

/**
 * Every non-empty match of a compiled global pattern, with code-point offsets: see `match_all`.
 * `work` is charged the steps of each search before it runs (execSteps), so a long text is refused
 * by the step budget between two searches, not after the last.
 */
export function allMatches(compiled: RE2, subject: string, limit = MATCH_LIMIT, work: (steps: number) => void = () => {}): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = []
  for (const piece of pieces(subject)) {
    let from = 0
    while (from <= piece.chars.length) {
      // The rest of the piece from one character before `from`, searched from index 1: that character
      // keeps \b and ^ right, and a short start index is cheap where a long one is not.
      const back = from > 0 ? 1 : 0
      compiled.lastIndex = back
      work(execSteps(piece.chars.length - from + back))
      const found = compiled.exec(piece.chars.slice(from - back).join(''))
      if (!found) break
      // re2-wasm answers the index, and takes lastIndex, in code points (the `u` flag).
      const start = from - back + found.index
      const length = [...found[0]!].length
      if (length === 0) {
        from = start + 1
        continue
      }
      if (out.length === limit) throw new TooManyMatches(limit)
      out.push({ start: piece.at + start, end: piece.at + start + length, text: found[0]! })
      from = start + length
    }
  }
  return out
}

/**
 * A text as slice() indexes it: itself where it holds no character outside the Basic Multilingual
 * Plane (its UTF-16 units are then its code points), else its code points. The last text is kept, so
 * that slicing one long document many times does not split it each time.
 */
let lastText: string | undefined
let lastPoints: string | string[] = ''
function codePoints(t: string): string | string[] {
  if (t !== lastText) {
    lastText = t
    lastPoints = /[\uD800-\uDFFF]/.test(t) ? [...t] : t
  }
  return lastPoints
}

/** The global (`g`) form of a pattern, which `match_all` steps through with lastIndex. */
const GLOBAL = new Map<string, RE2>()
function globalPattern(source: string): RE2 | string {
  const known = GLOBAL.get(source)
  if (known) return known
  const checked = pattern(source)
  if (typeof checked === 'string') return checked
  const compiled = new RE2(source, 'gu')
  GLOBAL.set(source, compiled)
  return compiled
}

const MATCH: ValueType = { record: { start: 'integer', end: 'integer', text: 'text' } }

export const texts: FunctionLibrary = {
  concat: {
    doc: 'Text made of its arguments in order; an amount prints as written (1500, 0.05).',
    args: ['any'],
    rest: 'any',
    returns: 'text',
    pure: true,
    impl: (args, cx) =>
      args
        .map((v) => {
          if (isDec(v)) return v.toFixed()
          if (typeof v === 'string') return v
          return cx.fail(`concat() joins text and amounts, got ${describe(v)}`)
        })
        .join(''),
  },
  normalize_text: {
    doc: 'Text as compared: Unicode NFKC, lower case, punctuation and symbols as spaces, runs of spaces as one, trimmed ("ACME, Inc." → "acme inc").',
    args: ['text'],
    returns: 'text',
    pure: true,
    impl: ([t], cx) => {
      const s = text(cx, t!, 'the text')
      chargeChars(cx, s.length)
      return normalizeText(s)
    },
  },
  upper: { doc: 'The text in upper case.', args: ['text'], returns: 'text', pure: true, impl: ([t], cx) => text(cx, t!, 'the text').toUpperCase() },
  lower: { doc: 'The text in lower case.', args: ['text'], returns: 'text', pure: true, impl: ([t], cx) => text(cx, t!, 'the text').toLowerCase() },
  trim: { doc: 'The text without spaces at either end.', args: ['text'], returns: 'text', pure: true, impl: ([t], cx) => text(cx, t!, 'the text').trim() },
  matches: {
    doc: 'Whether a pattern (RE2 syntax: no backreferences or lookaround) matches somewhere in the text; anchor it with ^ and $ to match the whole.',
    args: ['text', 'text'],
    returns: 'boolean',
    pure: true,
    checkLiteral: checkPatternLiteral,
    impl: ([t, p], cx) => {
      const compiled = pattern(text(cx, p!, 'the pattern'))
      if (typeof compiled === 'string') return cx.fail(compiled)
      const subject = text(cx, t!, 'the text')
      cx.work(execSteps(subject.length))
      return compiled.test(subject)
    },
  },
  match_position: {
    doc: 'Where a pattern (RE2) first matches in the text, in characters from 0 (Unicode code points, as length counts them); null when it matches nowhere: match_position(caption, pattern) < visible_characters: a disclosure stands before the caption is cut.',
    args: ['text', 'text'],
    returns: 'integer',
    pure: true,
    checkLiteral: checkPatternLiteral,
    impl: ([t, p], cx) => {
      const compiled = pattern(text(cx, p!, 'the pattern'))
      if (typeof compiled === 'string') return cx.fail(compiled)
      const subject = text(cx, t!, 'the text')
      cx.work(execSteps(subject.length))
      compiled.lastIndex = 0
      const found = compiled.exec(subject)
      // re2-wasm, compiled with `u`, answers the index in code points (an emoji before the match is
      // one), as `length` counts; the test pins it.
      return found ? new Dec(found.index) : null
    },
  },
  match_all: {
    doc: "Every match of a pattern (RE2) in the text, in order, as records { start, end, text }: start and end in characters from 0 (code points, as length counts; end is one past the last), text the matched text. The text is searched line by line: a match never spans a line break, ^ and $ match at the ends of each line, and a line over 4,000 characters is searched in pieces cut after a sentence or at a space; that keeps the search linear in the text. An empty match is skipped; more than 10,000 matches refuses the request (400 work_limit_exceeded), as does a search past the step budget (each search is charged its characters): match_all(terms, '(?i)\\bscrap(e|ing)\\b').",
    args: ['text', 'text'],
    returns: { list: MATCH },
    pure: true,
    checkLiteral: checkPatternLiteral,
    impl: ([t, p], cx) => {
      const compiled = globalPattern(text(cx, p!, 'the pattern'))
      if (typeof compiled === 'string') return cx.fail(compiled)
      const subject = text(cx, t!, 'the text')
      // Splitting the text into lines and characters is a pass over it; each search is charged as it runs.
      chargeChars(cx, subject.length)
      // More matches than the limit is the text's doing (the caller's), not the rules': a 400.
      return allMatches(compiled, subject, MATCH_LIMIT, (steps) => cx.work(steps)).map((m) => ({ start: new Dec(m.start), end: new Dec(m.end), text: m.text }))
    },
  },
  slice: {
    doc: "The part of a text from one character to another (code points from 0, the end excluded, as match_all counts them; each clamped to the text): slice(terms, m.start, m.end) is the text m matched, slice(terms, max(0, m.start - 500), m.start) what stands before it.",
    args: ['text', 'integer', 'integer'],
    returns: 'text',
    pure: true,
    impl: ([t, a, b], cx) => {
      const chars = codePoints(text(cx, t!, 'the text'))
      const length = chars.length
      const from = Math.min(length, Math.max(0, integer(cx, a!, 'the start')))
      const to = Math.min(length, Math.max(0, integer(cx, b!, 'the end')))
      if (to <= from) return ''
      return typeof chars === 'string' ? chars.slice(from, to) : chars.slice(from, to).join('')
    },
  },
  length: {
    doc: 'The number of characters of a text (Unicode code points: an emoji is one, as JSON Schema maxLength counts).',
    args: ['text'],
    returns: 'integer',
    pure: true,
    impl: ([t], cx) => {
      const s = text(cx, t!, 'the text')
      chargeChars(cx, s.length)
      return new Dec([...s].length)
    },
  },
  split: {
    doc: 'The parts of a text between the separator (literal text, not a pattern), in order: split(\'a, b\', \', \') is [\'a\', \'b\']; an empty separator is an error.',
    args: ['text', 'text'],
    returns: { list: 'text' },
    pure: true,
    impl: ([t, sep], cx) => {
      const separator = text(cx, sep!, 'the separator')
      if (separator === '') return cx.fail('split() needs a separator of at least one character')
      const s = text(cx, t!, 'the text')
      chargeChars(cx, s.length)
      return s.split(separator)
    },
  },
  digits: {
    doc: 'The decimal digits of a text, each as a whole number, in order: digits(\'80840\') is [8, 0, 8, 4, 0]; a text holding anything but the digits 0 to 9 is an error (check its form with matches first). What a check-digit formula (Luhn, ISO 7064) reads.',
    args: ['text'],
    returns: { list: 'integer' },
    pure: true,
    impl: ([t], cx) => {
      const s = text(cx, t!, 'the text')
      chargeChars(cx, s.length)
      if (!/^[0-9]*$/.test(s)) return cx.fail(`digits() reads only the digits 0 to 9; ${JSON.stringify(s)} holds another character`)
      return [...s].map((c) => new Dec(c.charCodeAt(0) - 48))
    },
  },
  join: {
    doc: 'The texts of a list joined by a separator: join(split(normalize_text(brand), \' \'), \'\') writes "Dr. Pepper" as "drpepper", as a hashtag does.',
    args: [{ list: 'text' }, 'text'],
    returns: 'text',
    pure: true,
    impl: ([l, sep], cx) => {
      const separator = text(cx, sep!, 'the separator')
      const parts = list(cx, l!, 'the list of join()').map((v) => text(cx, v, 'an item of join()'))
      chargeChars(cx, parts.reduce((n, p) => n + p.length + separator.length, 0))
      return parts.join(separator)
    },
  },
  similarity: {
    doc: 'How alike two texts are, from 0 to 1: 1 − (Levenshtein edit distance ÷ the longer length), on the texts as given (normalise them first to ignore case and punctuation); two empty texts are 1.',
    args: ['text', 'text'],
    returns: 'rate',
    pure: true,
    impl: ([a, b], cx) => {
      const x = text(cx, a!, 'the first text')
      const y = text(cx, b!, 'the second text')
      const longer = Math.max([...x].length, [...y].length)
      if (longer === 0) return new Dec(1)
      // The edit distance (fuzzball's, the texts as given: its full_process off) fills one cell for
      // every character of one text with every one of the other.
      chargeChars(cx, x.length * y.length)
      return new Dec(1).minus(new Dec(distance(x, y, { full_process: false })).div(longer))
    },
  },
}
