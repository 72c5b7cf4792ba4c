// The FDA warning-letter data set: the importer turns the shipped export of FDA's listing into exactly
// the data set file the engine reads; every record carries its source address, its letter's address on
// fda.gov and its retrieval date, and stands unchanged in the extract; a file in another shape is
// refused at its line.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { citedHref } from '../helpers.js'
import { COLUMNS, HEADER, ImportError, importWarningLetters, listingDate } from '../../tools/data/fda-warning-letters.js'

const test = suite('fda/warning_letters: importer and provenance')
const DIR = join(ROOT, 'tables', 'fda', 'warning_letters')
const EXTRACT = join(DIR, 'extract', 'warning_letters.csv')
const SOURCE = 'https://github.com/ilanafadida-hub/FDA-warning-letterss/blob/5aab9ecf1455691a2152d5f0b0027f7bfacaae35/data/warning_letters.csv'
const read = (f: string) => readFileSync(f, 'utf8')
const letters = () => parse(read(join(DIR, 'letters.csv')), { columns: true }) as Record<string, string>[]
const extract = () => parse(read(EXTRACT), { columns: true }) as Record<string, string>[]

test('the importer run on the shipped extract writes the committed data set file, byte for byte', () => {
  const out = importWarningLetters(read(EXTRACT), { sourceUrl: SOURCE, retrieved: '2026-11-25' })
  assert.is(out.letters, read(join(DIR, 'letters.csv')))
  assert.is(out.count, 3374)
})

test('the extract is the listing export as published: its header and 3,374 rows', () => {
  assert.ok(read(EXTRACT).startsWith(HEADER.join(',') + '\n'))
  assert.is(extract().length, 3374)
})

test('every record has a source address, a retrieval date and its letter on fda.gov, and is a row of the extract', () => {
  const raw = new Map(extract().map((r) => [r.url!, r]))
  const us = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`
  const rows = letters()
  assert.is(rows.length, raw.size)
  for (const r of rows) {
    assert.equal(Object.keys(r), [...COLUMNS])
    assert.is(r.source_url, SOURCE)
    assert.is(r.retrieved, '2026-11-25')
    assert.match(r.letter_url!, /^https:\/\/www\.fda\.gov\/[A-Za-z0-9/_.-]+$/)
    const src = raw.get(r.letter_url!.slice('https://www.fda.gov'.length))
    assert.ok(src, `record not in the extract: ${r.letter_url}`)
    assert.equal([src!.posted_date, src!.letter_date, src!.company, src!.issuing_office, src!.subject], [us(r.posted_date!), us(r.letter_date!), r.company, r.issuing_office, r.subject])
  }
})

test('the data set is declared with its source, publisher page, licence and retrieval date', () => {
  const doc = parseYaml(read(join(ROOT, 'tables', 'fda', 'warning_letters.yaml'))) as { tables: Record<string, Record<string, unknown>> }
  const t = doc.tables.fda_warning_letters!
  assert.is(t.kind, 'dataset')
  assert.is(citedHref(t.source), 'https://www.fda.gov/inspections-compliance-enforcement-and-criminal-investigations/compliance-actions-and-activities/warning-letters')
  assert.match(String(t.licence), /Public domain/)
  assert.is(t.retrieved, '2026-11-25')
  assert.equal(Object.keys(t.columns as object), [...COLUMNS])
})

test('the golden cases\' letters are real rows: Novo Nordisk and Exactech as FDA lists them', () => {
  const byUrl = new Map(letters().map((r) => [r.letter_url!.split('/').pop()!, r]))
  assert.equal(byUrl.get('novo-nordisk-inc-717576-03052026')?.letter_date, '2026-03-05')
  assert.equal(byUrl.get('exactech-inc-dba-advita-ortho-720250-12192025')?.company, 'Exactech, Inc. dba Advita Ortho')
})

test('a row outside the listing\'s shape stops the import at its line', () => {
  const head = HEADER.join(',')
  const ok = '/inspections-compliance-enforcement-and-criminal-investigations/warning-letters/x-1-01012025,01/07/2025,01/01/2025,X Inc.,CDER,Subject'
  const p = { sourceUrl: 'https://x.test/a.csv', retrieved: '2026-11-25' }
  assert.is(importWarningLetters([head, ok].join('\n'), p).count, 1)
  assert.throws(() => importWarningLetters([head, ok, ok].join('\n'), p), (e: Error) => e instanceof ImportError && /line 3: url .* is listed twice/.test(e.message))
  assert.throws(() => importWarningLetters([head, ok.replace('01/07/2025', '2025-01-07')].join('\n'), p), (e: Error) => e.message === 'line 2: "2025-01-07" is not a date of the form MM/DD/YYYY')
  assert.throws(() => importWarningLetters([head, ok.replace(',X Inc.,', ',,')].join('\n'), p), (e: Error) => e.message === 'line 2: no company')
  assert.throws(() => importWarningLetters([head, ok + ',extra'].join('\n'), p), (e: Error) => e.message === 'line 2: 7 fields, the header has 6')
  assert.throws(() => importWarningLetters('Company,Date\n', p), (e: Error) => e.message.startsWith("line 1: the header is not the listing's"))
})

test('dates MM/DD/YYYY, and no other', () => {
  assert.is(listingDate('03/05/2026', 'x'), '2026-03-05')
  assert.throws(() => listingDate('02/30/2026', 'x'), /not a day of the calendar/)
  assert.throws(() => listingDate('3/5/2026', 'x'), /not a date/)
})

test.run()
