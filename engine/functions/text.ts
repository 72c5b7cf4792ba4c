/**
 * @module Functions on text: joining, normalising for comparison, matching a pattern, and how alike
 * two names are (an entity or a licence holder matched against a record).
 *
 * Patterns are RE2 (the re2-wasm package, Google's RE2 compiled to WebAssembly): matching takes time
 * linear in the text whatever the pattern, so a pattern in a rule file or a request can never stall
 * a worker by backtracking; what RE2 cannot do in linear time (backreferences, lookaround) is refused
 * when the pattern is compiled. A pattern written in a formula is compiled at load.
 */
import { distance } from 'fastest-levenshtein'
import { RE2 } from 're2-wasm'
import { Dec, isDec } from '../decimal.js'
import type { FunctionLibrary } from './spec.js'
import { describe, list, text } from './values.js'

/** Compiled patterns by source: each is compiled once per process. */
const PATTERNS = new Map<string, RE2>()

/** The compiled pattern, or the reason it does not compile. */
/** A pattern written out in a formula (the second argument) is compiled at load, so a bad one is a load error. */
function checkPatternLiteral(index: number, value: unknown): string | undefined {
  if (index !== 1 || typeof value !== 'string') return undefined
  const p = pattern(value)
  return typeof p === 'string' ? p : undefined
}

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
    impl: ([t], cx) => normalizeText(text(cx, t!, 'the text')),
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
      return typeof compiled === 'string' ? cx.fail(compiled) : compiled.test(text(cx, t!, 'the text'))
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
      compiled.lastIndex = 0
      const found = compiled.exec(subject)
      // re2-wasm, compiled with `u`, answers the index in code points (an emoji before the match is
      // one), as `length` counts; the test pins it.
      return found ? new Dec(found.index) : null
    },
  },
  length: {
    doc: 'The number of characters of a text (Unicode code points: an emoji is one, as JSON Schema maxLength counts).',
    args: ['text'],
    returns: 'integer',
    pure: true,
    impl: ([t], cx) => new Dec([...text(cx, t!, 'the text')].length),
  },
  split: {
    doc: 'The parts of a text between the separator (literal text, not a pattern), in order: split(\'a, b\', \', \') is [\'a\', \'b\']; an empty separator is an error.',
    args: ['text', 'text'],
    returns: { list: 'text' },
    pure: true,
    impl: ([t, sep], cx) => {
      const separator = text(cx, sep!, 'the separator')
      if (separator === '') return cx.fail('split() needs a separator of at least one character')
      return text(cx, t!, 'the text').split(separator)
    },
  },
  digits: {
    doc: 'The decimal digits of a text, each as a whole number, in order: digits(\'80840\') is [8, 0, 8, 4, 0]; a text holding anything but the digits 0 to 9 is an error (check its form with matches first). What a check-digit formula (Luhn, ISO 7064) reads.',
    args: ['text'],
    returns: { list: 'integer' },
    pure: true,
    impl: ([t], cx) => {
      const s = text(cx, t!, 'the text')
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
      return list(cx, l!, 'the list of join()').map((v) => text(cx, v, 'an item of join()')).join(separator)
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
      return new Dec(1).minus(new Dec(distance(x, y)).div(longer))
    },
  },
}
