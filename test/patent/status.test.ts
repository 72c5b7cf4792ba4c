// Patent status reads FDA's Orange Book patent file by patent number through a second declaration of
// the data set of /pharma/generic-entry: one file, two indexes. These tests fail if the two
// declarations ever point at different files or describe the records differently, so that a new
// import (tools/data/orange-book.ts) serves both features alike.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../../service/project/paths.js'

const test = suite('patent/status: the Orange Book patent file, indexed by patent')
type Dataset = { file: string; columns: Record<string, string>; key: string[]; source: { href: string }; licence: string; retrieved: string }
const tables = (f: string) => (parseYaml(readFileSync(join(ROOT, 'tables', f), 'utf8')) as { tables: Record<string, Dataset> }).tables
const byApplication = tables('pharma/generic_entry.yaml').orange_book_patents!
const byPatent = tables('patent/status.yaml').orange_book_listings!

test('both declarations read the same file', () => {
  assert.is(join(ROOT, 'tables', 'patent', byPatent.file), join(ROOT, 'tables', 'pharma', byApplication.file))
})

test('with the same columns, source, licence and retrieval date, keyed by patent instead of application', () => {
  assert.equal(byPatent.columns, byApplication.columns)
  assert.equal(byPatent.source, byApplication.source)
  assert.is(byPatent.licence, byApplication.licence)
  assert.is(byPatent.retrieved, byApplication.retrieved)
  assert.equal(byApplication.key, ['application'])
  assert.equal(byPatent.key, ['patent'])
})

test('the patent key is the number without *PED, so a pediatric row is found under its patent', () => {
  const lines = readFileSync(join(ROOT, 'tables', 'pharma', byApplication.file), 'utf8').trim().split('\n')
  const header = lines[0]!.split(',')
  const [patentNo, patent, pediatric] = ['patent_no', 'patent', 'pediatric'].map((c) => header.indexOf(c))
  let ped = 0
  for (const line of lines.slice(1)) {
    const cells = line.split(',')
    assert.is(cells[patent!], cells[patentNo!]!.replace(/\*PED$/, ''), line)
    assert.is(cells[pediatric!], String(cells[patentNo!]!.endsWith('*PED')), line)
    if (cells[pediatric!] === 'true') ped++
  }
  assert.ok(ped > 0, 'the extract holds *PED rows')
})

test.run()
