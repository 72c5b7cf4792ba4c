// The text functions: normalising, RE2 patterns that cannot backtrack, and similarity.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../../engine/values/decimal.js'
import { CompileError, compileExpression } from '../../../engine/compile/expression.js'
import { WorkLimitError } from '../../../engine/errors.js'
import type { Runtime, Value } from '../../../engine/model/types.js'
import { formula, show } from './formula.js'

/** The steps a formula charges (Runtime.work), run on named values, with an optional budget. */
function steps(text: string, values: Record<string, Value>, budget = Infinity): number {
  let used = 0
  const rt = {
    get: (n: string) => values[n]!,
    work: (units: number) => {
      used += units
      if (used > budget) throw new WorkLimitError(`more than ${budget} steps`)
    },
  } as unknown as Runtime
  compileExpression(text, { hasValue: (n) => Object.hasOwn(values, n), table: () => undefined }).run(rt)
  return used
}

const test = suite('engine/functions/text')

test('normalize_text folds case, compatibility forms, punctuation and spaces', () => {
  assert.is(formula("normalize_text('  ACME,  Inc. ')"), 'acme inc')
  assert.is(formula("normalize_text('Ｆｕｌｌ—width')"), 'full width')
  assert.is(formula("normalize_text('O\\'Brien & Sons')"), 'o brien sons')
})

test('matches uses RE2: anchors and classes work, a backreference is refused', () => {
  assert.is(formula("matches('ORD-2026-0001', '^ORD-[0-9]{4}-[0-9]+$')"), true)
  assert.is(formula("matches('abc', '^b')"), false)
  assert.throws(() => formula("matches(x, '(a)\\\\1')", { x: 'aa' }), /not one RE2 accepts/)
})

test('a pattern that would backtrack exponentially elsewhere answers at once here', () => {
  // (a+)+$ on "aaa…ab" is catastrophic for a backtracking engine; RE2 is linear in the text.
  const text = 'a'.repeat(50_000) + 'b'
  assert.is(formula("matches(t, '(a+)+$')", { t: text }), false)
})

test('similarity is 1 − edit distance ÷ longer length', () => {
  assert.is((formula("similarity('kitten', 'sitting')") as Dec).toDecimalPlaces(6).toString(), '0.571429')
  assert.is((formula("similarity('same', 'same')") as Dec).toString(), '1')
  assert.is((formula("similarity('', '')") as Dec).toString(), '1')
  assert.is((formula("similarity('abc', '')") as Dec).toString(), '0')
})

test('digits lists the digits of a text as whole numbers, and refuses any other character', () => {
  assert.equal((formula("digits('80840')") as Dec[]).map((d) => d.toString()), ['8', '0', '8', '4', '0'])
  assert.equal(formula("digits('')"), [])
  assert.throws(() => formula("digits('12a4')"), /reads only the digits 0 to 9/)
  assert.throws(() => formula("digits(' 1')"), /reads only the digits/)
})

test('a Luhn check written with digits: the NPI check digit (prefix 80840) of a real NPI holds, a changed digit fails', () => {
  // CMS, "Requirements for constructing the NPI check digit": Luhn over 80840 followed by the 10-digit NPI,
  // every second digit from the right (the check digit not doubled) doubled and its digits summed.
  const luhn =
    "sum(map(range(0, 14), i => (14 - i) / 2 == floor((14 - i) / 2) ? item(digits(concat('80840', n)), i) " +
    ": (2 * item(digits(concat('80840', n)), i) > 9 ? 2 * item(digits(concat('80840', n)), i) - 9 : 2 * item(digits(concat('80840', n)), i))))"
  const valid = (n: string) => formula(`${luhn} / 10 == floor(${luhn} / 10)`, { n })
  assert.is(valid('1720377294'), true, 'NPPES record of 1720377294 (ropensci/npi fixture api-b2f594.json)')
  assert.is(valid('1568946812'), true)
  assert.is(valid('1720377295'), false, 'the check digit changed')
  assert.is(valid('1720377249'), false, 'two digits swapped')
})

test('concat joins text and amounts as written, and refuses a list', () => {
  assert.is(formula("concat('rate ', 0.05, ' on ', 1500)"), 'rate 0.05 on 1500')
  assert.throws(() => formula("concat('x', [1])"), /joins text and amounts/)
})

test('upper, lower and trim', () => {
  assert.is(formula("upper(' ny ')"), ' NY ')
  assert.is(formula("trim(lower(' NY '))"), 'ny')
})

test('a function is only where a function is taken', () => {
  assert.throws(() => formula("upper(x => x)"), (e: unknown) => e instanceof CompileError && /takes no function/.test((e as Error).message))
})

test('match_position counts characters from 0 up to the first match, null for none', () => {
  assert.is((formula("match_position('Loving it #ad', '(?i)#AD\\\\b')") as Dec).toString(), '10')
  assert.is((formula("match_position('#ad first, #ad again', '#ad')") as Dec).toString(), '0')
  assert.is(formula("match_position('no disclosure', '#ad')"), null)
  // An emoji is one character, though JavaScript counts it as two UTF-16 units.
  assert.is((formula('match_position(t, p)', { t: '😀😀 #ad', p: '#ad' }) as Dec).toString(), '3')
  assert.throws(() => formula("match_position(x, '(a)\\\\1')", { x: 'aa' }), /not one RE2 accepts/)
})

test('match_position is not thrown off by an earlier call on the same pattern', () => {
  // A compiled pattern is shared; a global one would keep its lastIndex between calls.
  assert.is((formula("match_position('xx #ad', '#ad')") as Dec).toString(), '3')
  assert.is((formula("match_position('#ad', '#ad')") as Dec).toString(), '0')
})

test('length counts code points, as JSON Schema maxLength does', () => {
  assert.is((formula("length('abc')") as Dec).toString(), '3')
  assert.is((formula('length(t)', { t: '😀é' }) as Dec).toString(), '2')
  assert.is((formula("length('')") as Dec).toString(), '0')
})

test('split cuts at a literal separator and join puts a list back together', () => {
  assert.equal(formula("split('a, b, c', ', ')"), ['a', 'b', 'c'])
  assert.equal(formula("split('a.b', '.')"), ['a', 'b'], 'the separator is literal, not a pattern')
  assert.equal(formula("split('', ',')"), [''])
  assert.is(formula("join(split(normalize_text('Dr. Pepper'), ' '), '')"), 'drpepper')
  assert.is(formula("join(['x'], '-')"), 'x')
  assert.is(formula("join([], '-')"), '')
  assert.throws(() => formula("split('abc', '')"), /at least one character/)
})

test('match_all gives every match with its start and end in characters, line by line', () => {
  const text = 'You may not scrape.\nScraping 😀 is scraped here; scrapers too.'
  const found = show(formula("match_all(t, '(?i)\\\\bscrap\\\\w*')", { t: text }))
  assert.is(
    found,
    JSON.stringify([
      { start: '12', end: '18', text: 'scrape' },
      { start: '20', end: '28', text: 'Scraping' },
      { start: '34', end: '41', text: 'scraped' },
      { start: '48', end: '56', text: 'scrapers' },
    ]),
  )
  // The offsets are those of slice and length (code points: the emoji before 'scraped' is one).
  assert.is(formula('slice(t, 34, 41)', { t: text }), 'scraped')
  // ^ and $ are the ends of each line, and no match spans a line break.
  assert.is(show(formula("match_all(t, '^[A-Z]\\\\w*')", { t: text })), JSON.stringify([{ start: '0', end: '3', text: 'You' }, { start: '20', end: '28', text: 'Scraping' }]))
  assert.is(show(formula("match_all(t, 'scrape\\\\.\\\\sScraping')", { t: text })), '[]')
  // An empty match is skipped, not looped on.
  assert.is(show(formula("match_all('abc', 'x*')")), '[]')
  assert.throws(() => formula("match_all(x, '(a)\\\\1')", { x: 'aa' }), /not one RE2 accepts/)
})

// That it stays linear is the step count's test below (deterministic); speed is the bench's, not a test's.
test('match_all finds every one of many matches in a long text, and a match far into it', () => {
  const text = 'You may not scrape the service. '.repeat(9_000)
  const found = formula("match_all(t, '(?i)\\\\bscrape\\\\b')", { t: text }) as unknown[]
  assert.is(found.length, 9_000)
  const one = formula("match_all(t, 'x+')", { t: 'a '.repeat(12_500) + 'x'.repeat(3) }) as { start: Dec }[]
  assert.is(one[0]!.start.toString(), '25000')
})

test('match_all charges steps in proportion to the text searched, so a long text meets the step budget', () => {
  // The same count on any machine: twice the text, about twice the steps.
  const one = steps("match_all(t, '(?i)\\\\bscrape\\\\b')", { t: 'You may not scrape the service. '.repeat(1_000) })
  const two = steps("match_all(t, '(?i)\\\\bscrape\\\\b')", { t: 'You may not scrape the service. '.repeat(2_000) })
  assert.ok(one > 1_000, `${one} steps`)
  assert.ok(two >= 1.9 * one && two <= 2.1 * one, `${one} then ${two} steps`)
  // A line a search: 131,072 one-character lines cost at least as many searches' steps.
  assert.throws(() => steps("match_all(t, 'b')", { t: 'a\n'.repeat(131_072) }, 100_000), (e: Error) => e instanceof WorkLimitError)
})

test('more matches than match_all answers is the caller\'s 400 (work_limit_exceeded), not a defect of the rules', () => {
  assert.throws(
    () => formula("match_all(t, 'scrape')", { t: 'scrape. '.repeat(10_001) }),
    (e: Error) => e instanceof WorkLimitError && e.code === 'work_limit_exceeded' && /more than 10000 times/.test(e.message),
  )
})

test('a lambda call is a step: filter and map charge one per item', () => {
  const items = Array.from({ length: 50 }, (_, i) => new Dec(i))
  assert.is(steps('filter(xs, x => x > 10)', { xs: items }), 50)
  assert.is(steps('map(xs, x => x * 2)', { xs: items }), 50)
})

test('slice clamps its bounds to the text and is empty when the end is not after the start', () => {
  assert.is(formula("slice('abcdef', 2, 4)"), 'cd')
  assert.is(formula("slice('abcdef', -3, 100)"), 'abcdef')
  assert.is(formula("slice('abcdef', 4, 2)"), '')
  assert.throws(() => formula("slice('abc', 0.5, 2)"), /whole number/)
})

test.run()
