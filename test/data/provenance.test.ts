// Every record of every data set carries its provenance: a source URL and a retrieval date, its own
// (a `source_url` and `retrieved` column) or the data set's (`source.href`, `retrieved`), and a
// licence. None is synthetic: the files live under tables/, their sources are the publishers' (no
// test domain, no fixture path), and nothing describes itself as invented. Issue 16's "done when".
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { readRows, type DatasetDescriptor } from '../../engine/data/rows.js'
import type { Problem } from '../../engine/errors.js'
import { citedHref } from '../helpers.js'

const test = suite('data/provenance')

interface DatasetFile {
  label?: string
  description?: string
  file: string
  format: 'csv' | 'jsonl'
  columns: DatasetDescriptor['columns']
  /** A citation written out, or a source's key in tables/sources.yaml. */
  source?: unknown
  licence?: string
  retrieved?: string
}

function tablesFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return tablesFiles(path)
    return name.endsWith('.yaml') ? [path] : []
  })
}

const datasets: { id: string; file: string; raw: DatasetFile }[] = []
for (const file of tablesFiles('tables')) {
  const doc = parse(readFileSync(file, 'utf8')) as { tables?: Record<string, { kind?: string }> }
  for (const [name, entry] of Object.entries(doc.tables ?? {})) {
    if (entry.kind === 'dataset') datasets.push({ id: `${file}#${name}`, file, raw: entry as unknown as DatasetFile })
  }
}

/** A publisher's address: https (or http), a real host, no test or local domain. */
const NOT_A_SOURCE = /^(?!https?:\/\/)|:\/\/(localhost|127\.|[^/]*\.(example|test|invalid|local)(\/|$)|example\.(com|org|net))/i
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const INVENTED = /\b(synthetic|fictitious|invented|made[- ]up|dummy|placeholder|fake)\b/i

test('there are data sets to check', () => {
  assert.ok(datasets.length >= 5, `found ${datasets.length}`)
})

for (const { id, file, raw } of datasets) {
  test(`${id}: declares its source, licence and retrieval date, and describes no invented record`, () => {
    const href = citedHref(raw.source)
    assert.ok(href && !NOT_A_SOURCE.test(href), `source.href ${href}`)
    assert.ok(raw.licence && raw.licence.trim().length > 3, 'licence')
    assert.ok(raw.retrieved && ISO_DATE.test(raw.retrieved), `retrieved ${raw.retrieved}`)
    assert.not.match(`${raw.label ?? ''} ${raw.description ?? ''}`, INVENTED)
    const path = join(dirname(file), raw.file)
    assert.ok(relative('tables', path).split(/[\\/]/)[0] !== '..', `${raw.file} lies outside tables/`)
    assert.not.match(path, /fixture/i)
  })

  test(`${id}: every record has a source URL and a retrieval date`, () => {
    const problems: Problem[] = []
    const descriptor: DatasetDescriptor = { file: raw.file, format: raw.format, columns: raw.columns }
    const path = join(dirname(file), raw.file)
    const rows = readRows(path, path, descriptor, problems)
    assert.equal(problems.map((p) => p.message), [])
    const ownSource = Object.hasOwn(raw.columns, 'source_url')
    const ownDate = Object.hasOwn(raw.columns, 'retrieved')
    for (const { line, cells } of rows) {
      const url = ownSource ? cells.source_url : citedHref(raw.source)
      const retrieved = ownDate ? cells.retrieved : raw.retrieved
      if (!url || NOT_A_SOURCE.test(url)) assert.unreachable(`${path}:${line}: source URL ${JSON.stringify(url)}`)
      if (!retrieved || !ISO_DATE.test(retrieved)) assert.unreachable(`${path}:${line}: retrieved ${JSON.stringify(retrieved)}`)
      // A record cannot have been retrieved after its data set was.
      if (ownDate && raw.retrieved && retrieved! > raw.retrieved) assert.unreachable(`${path}:${line}: retrieved ${retrieved}, after the data set's ${raw.retrieved}`)
    }
  })
}

test.run()
