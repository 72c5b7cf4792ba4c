// The Orange Book data sets: the importer turns the shipped extract of FDA's files into exactly the
// data set files the engine reads; every record carries its source address and retrieval date and
// stands unchanged in the extract; a file in another format is refused at its line.
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'csv-parse/sync'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'
import { citedHref } from '../helpers.js'
import { COLUMNS, ImportError, importOrangeBook, obDate } from '../../tools/data/orange-book.js'

const test = suite('pharma/orange_book: importer and provenance')
const DIR = join(ROOT, 'tables', 'pharma', 'orange_book')
const EXTRACT = join(DIR, 'extract')
const SOURCE = 'https://github.com/nirmithah/MedicarePatentCliff_Capstone/blob/44a2ae115cad74fbaed6486798829167dcc41366/{file}'
const read = (f: string) => readFileSync(f, 'utf8')
const records = (f: string) => parse(read(join(DIR, f)), { columns: true }) as Record<string, string>[]
const rawLines = (f: string) => read(join(EXTRACT, f)).split(/\r?\n/).filter((l) => l !== '')

test('the importer run on the shipped extract writes the committed data set files, byte for byte', () => {
  const out = importOrangeBook(EXTRACT, { sourceUrl: SOURCE, retrieved: '2026-11-25' })
  assert.is(out.patents, read(join(DIR, 'patents.csv')))
  assert.is(out.exclusivities, read(join(DIR, 'exclusivities.csv')))
  assert.is(out.products, read(join(DIR, 'products.csv')))
  assert.equal(out.counts, { products: 0, patents: 422, exclusivities: 180 })
})

test('the extract keeps FDA\'s rows unchanged: its headers, the CRLF lines and the field counts of FDA\'s files', () => {
  const patent = read(join(EXTRACT, 'patent.txt'))
  const exclusivity = read(join(EXTRACT, 'exclusivity.txt'))
  assert.ok(patent.startsWith('Appl_Type~Appl_No~Product_No~Patent_No~Patent_Expire_Date_Text~Drug_Substance_Flag~Drug_Product_Flag~Patent_Use_Code~Delist_Flag~Submission_Date\r\n'))
  assert.ok(exclusivity.startsWith('Appl_Type~Appl_No~Product_No~Exclusivity_Code~Exclusivity_Date\r\n'))
  for (const l of rawLines('patent.txt')) assert.is(l.split('~').length, 10, l)
  for (const l of rawLines('exclusivity.txt')) assert.is(l.split('~').length, 5, l)
})

test('every record of the data sets has a source address and a retrieval date, and is a row of the extract', () => {
  const patentLines = new Set(rawLines('patent.txt'))
  const exclusivityLines = new Set(rawLines('exclusivity.txt'))
  const month = (iso: string) => {
    const [y, m, d] = iso.split('-').map(Number) as [number, number, number]
    return `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1]} ${d}, ${y}`
  }
  const flag = (b: string) => (b === 'true' ? 'Y' : '')
  const patents = records('patents.csv')
  assert.is(patents.length, rawLines('patent.txt').length - 1) // FDA's files repeat some rows; each is kept
  for (const r of patents) {
    assert.match(r.source_url!, /^https:\/\/github\.com\/nirmithah\/MedicarePatentCliff_Capstone\/blob\/[0-9a-f]{40}\/patent\.txt$/)
    assert.is(r.retrieved, '2026-11-25')
    // Rebuilt from the record, the row must be one of FDA's, as it stands in the extract.
    const line = [r.appl_type, r.appl_no, r.product_no, r.patent_no, month(r.expires!), flag(r.drug_substance!), flag(r.drug_product!), r.use_code, flag(r.delisted!), r.submitted ? month(r.submitted) : ''].join('~')
    assert.ok(patentLines.has(line), `patent record not in the extract: ${line}`)
  }
  const exclusivities = records('exclusivities.csv')
  assert.is(exclusivities.length, rawLines('exclusivity.txt').length - 1)
  for (const r of exclusivities) {
    assert.match(r.source_url!, /^https:\/\/github\.com\/nirmithah\/MedicarePatentCliff_Capstone\/blob\/[0-9a-f]{40}\/exclusivity\.txt$/)
    assert.is(r.retrieved, '2026-11-25')
    const line = [r.appl_type, r.appl_no, r.product_no, r.code, month(r.expires!)].join('~')
    assert.ok(exclusivityLines.has(line), `exclusivity record not in the extract: ${line}`)
  }
})

test('the extract covers at least 30 listed drugs with patents, and every kind of exclusivity FDA lists', () => {
  const withPatents = new Set(records('patents.csv').map((r) => r.application))
  assert.ok([...withPatents].filter((a) => a.startsWith('N')).length >= 30)
  const kinds = new Set(records('exclusivities.csv').map((r) => r.kind))
  for (const k of ['NCE', 'ODE', 'NPP', 'NP', 'NS', 'I', 'M', 'D', 'PED', 'GAIN', 'PC', 'CGT']) assert.ok(kinds.has(k), k)
})

test('every data set declared in tables/ names its source address, licence and retrieval date', () => {
  const found: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.yaml')) {
        const doc = parseYaml(read(full)) as { tables?: Record<string, Record<string, unknown>> }
        for (const [id, t] of Object.entries(doc.tables ?? {})) {
          if (t.kind !== 'dataset') continue
          found.push(id)
          assert.match(String(citedHref(t.source)), /^https:\/\//, `${full}: ${id} has no source href`)
          assert.match(String(t.retrieved), /^\d{4}-\d{2}-\d{2}$/, `${full}: ${id} has no retrieval date`)
          assert.ok(String(t.licence ?? '').length > 3, `${full}: ${id} has no licence`)
        }
      }
    }
  }
  walk(join(ROOT, 'tables'))
  for (const id of ['orange_book_patents', 'orange_book_exclusivities', 'orange_book_products']) assert.ok(found.includes(id), id)
})

test('a products file is imported with each row\'s provenance (two real rows of FDA\'s products.txt)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-'))
  // Two rows of FDA's products.txt as they appear in public code (the research note, § 2), with FDA's header.
  writeFileSync(join(dir, 'products.txt'), [
    'Ingredient~DF;Route~Trade_Name~Applicant~Strength~Appl_Type~Appl_No~Product_No~TE_Code~Approval_Date~RLD~RS~Type~Applicant_Full_Name',
    'APIXABAN~TABLET;ORAL~ELIQUIS~BRISTOL~2.5MG~N~202155~001~AB~Dec 28, 2012~Yes~Yes~RX~BRISTOL MYERS SQUIBB',
    'BUDESONIDE~AEROSOL, FOAM;RECTAL~UCERIS~SALIX~2MG/ACTUATION~N~205613~001~~Oct 7, 2014~Yes~Yes~RX~SALIX PHARMACEUTICALS INC',
  ].join('\r\n'))
  writeFileSync(join(dir, 'patent.txt'), rawLines('patent.txt')[0] + '\r\n')
  writeFileSync(join(dir, 'exclusivity.txt'), rawLines('exclusivity.txt')[0] + '\r\n')
  const out = importOrangeBook(dir, { sourceUrl: 'https://www.fda.gov/media/76860/download#{file}', retrieved: '2026-11-25' })
  const rows = parse(out.products, { columns: true }) as Record<string, string>[]
  assert.is(rows.length, 2)
  assert.equal(Object.keys(rows[0]!), [...COLUMNS.products])
  assert.is(rows[0]!.application, 'N202155')
  assert.is(rows[0]!.trade_name, 'ELIQUIS')
  assert.is(rows[0]!.approval_date, '2012-12-28')
  assert.is(rows[1]!.dosage_form_route, 'AEROSOL, FOAM;RECTAL')
  assert.is(rows[1]!.source_url, 'https://www.fda.gov/media/76860/download#products.txt')
  assert.ok(out.products.includes('"AEROSOL, FOAM;RECTAL"'))
})

test('a row outside FDA\'s format stops the import at its file and line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ob-'))
  const [head, ...body] = rawLines('exclusivity.txt')
  writeFileSync(join(dir, 'patent.txt'), rawLines('patent.txt')[0] + '\r\n')
  writeFileSync(join(dir, 'exclusivity.txt'), [head, body[0], 'N~20215~001~NCE~Apr 17, 2028'].join('\r\n'))
  assert.throws(() => importOrangeBook(dir, { sourceUrl: 'https://x.test/{file}', retrieved: '2026-11-25' }), (e: Error) => e instanceof ImportError && e.message === 'exclusivity.txt:3: Appl_No "20215" is not six digits')
  writeFileSync(join(dir, 'exclusivity.txt'), [head, 'N~202155~001~NCE~2028-04-17'].join('\r\n'))
  assert.throws(() => importOrangeBook(dir, { sourceUrl: 'https://x.test/{file}', retrieved: '2026-11-25' }), (e: Error) => e.message.startsWith('exclusivity.txt:2: "2028-04-17" is not a date'))
  writeFileSync(join(dir, 'exclusivity.txt'), 'Appl_No~Code\r\n')
  assert.throws(() => importOrangeBook(dir, { sourceUrl: 'https://x.test/{file}', retrieved: '2026-11-25' }), (e: Error) => e.message.startsWith("exclusivity.txt:1: the header is not FDA's"))
})

test('dates of the form "Mon D, YYYY", and no other', () => {
  assert.is(obDate('Mar 2, 2027', 'x'), '2027-03-02')
  assert.is(obDate('Dec 28, 2012', 'x'), '2012-12-28')
  assert.throws(() => obDate('Feb 30, 2027', 'x'), /not a day of the calendar/)
  assert.throws(() => obDate('March 2, 2027', 'x'), /not a date/)
})

test.run()
