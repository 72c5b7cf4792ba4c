// The violation categories: every signal term's pattern is one RE2 accepts (they are compiled on each
// request, so a bad one would fail a request rather than the load), every term names a category that
// exists and every category has a term; and on the real subjects of FDA's listing the terms reach
// most letters (a measure of the list's reach, not of its precision).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { RE2 } from 're2-wasm'
import { ROOT } from '../../service/project/paths.js'

const test = suite('fda/classify_violations: categories and signal terms')
type Rows<T> = { values: Record<string, { rows: T[] }> }
const doc = parseYaml(readFileSync(join(ROOT, 'tables', 'fda', 'classify_violations.yaml'), 'utf8')) as {
  tables: { violation_categories: Rows<{ category: string; citations: string; href: string }>; signal_terms: Rows<{ term: string; category: string; pattern: string }> }
}
const categories = Object.values(doc.tables.violation_categories.values).flatMap((v) => v.rows)
const terms = Object.values(doc.tables.signal_terms.values).flatMap((v) => v.rows)

test('every pattern compiles in RE2, names a known category, and every category has a term and a citation', () => {
  const names = new Set(categories.map((c) => c.category))
  for (const t of terms) {
    assert.not.throws(() => new RE2(t.pattern, 'u'), t.term)
    assert.ok(names.has(t.category), `${t.term}: unknown category ${t.category}`)
  }
  for (const c of categories) {
    assert.ok(terms.some((t) => t.category === c.category), `${c.category} has no signal term`)
    assert.ok(c.citations.length > 5 && /^https:\/\//.test(c.href), c.category)
  }
})

test('the issue\'s categories are all loaded', () => {
  for (const c of ['drug_cgmp', 'device_quality_system', 'food_cgmp_preventive_controls', 'fsvp', 'juice_haccp', 'seafood_haccp', 'dietary_supplement_cgmp', 'unapproved_new_drug', 'adulteration', 'misbranding', 'tobacco', 'clinical_investigator_irb'])
    assert.ok(categories.some((x) => x.category === c), c)
})

test('on the 3,374 real subjects of the listing, the terms give a category to at least 95%', () => {
  const subjects = (parse(readFileSync(join(ROOT, 'tables', 'fda', 'warning_letters', 'extract', 'warning_letters.csv'), 'utf8'), { columns: true }) as { subject: string }[]).map((r) => r.subject)
  const compiled = terms.map((t) => new RE2(t.pattern, 'u'))
  const reached = subjects.filter((s) => compiled.some((p) => p.test(s))).length
  assert.is(subjects.length, 3374)
  assert.ok(reached / subjects.length >= 0.95, `${reached} of ${subjects.length}`)
})

test.run()
