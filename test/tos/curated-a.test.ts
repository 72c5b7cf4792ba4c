// The curated terms-of-service analyses (issue 16 § 4): every member of the table family
// `tos.services` loads with the project's catalog, holds the six dimensions in order with a valid
// verdict, and rests each verdict that is not `silent` on a clause found word for word in the
// document it analyses (tables/tos/documents/<id>.md, the text as Open Terms Archive archived it).
// Its source is pinned to a commit, its retrieval date is a date, and the document fits under the
// analyse-text limit (512 KiB). A verdict whose clause is edited away from the text fails here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { TABLES_DIR } from '../../service/project/paths.js'
import type { LookupEntry, ParameterEntry } from '../../engine/data/tables.js'
import { catalog } from '../helpers.js'

const test = suite('tos/curated-a: curated terms-of-service analyses')

const DIMENSIONS = ['commercial_use', 'machine_learning_training', 'scraping_automated_access', 'redistribution', 'attribution', 'rate_limits']
const VERDICTS = new Set(['allowed', 'conditional', 'prohibited', 'silent'])
const CATEGORIES = new Set(['developer_platform', 'ai_provider', 'social_network', 'data_api', 'search_api', 'commerce', 'media', 'productivity'])
const PARAMETERS = ['service_name', 'category', 'document_title', 'document_url', 'version_date', 'source_url', 'source_licence', 'retrieved', 'document_file']
const MAX_DOCUMENT_BYTES = 512 * 1024
const MAX_CLAUSE_CHARS = 400

const SERVICES_DIR = join(TABLES_DIR, 'tos', 'services')
const TOS_DIR = join(TABLES_DIR, 'tos')

interface Row { dimension: string; verdict: string; conditions: string; clause: string; section: string }
interface Parameter { kind: 'parameter'; values: Record<string, { value: unknown }> }
interface ServiceFile { tables: Record<string, Parameter | { kind: 'lookup'; keys: string[]; values: Record<string, { rows: Row[] }> }> }

/** The text as the clause test reads it: every run of white space one space. */
function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Whether a clause stands word for word in a document, white space aside. */
function quotedIn(clause: string, document: string): boolean {
  const c = collapse(clause)
  return c.length > 0 && collapse(document).includes(c)
}

const isDate = (s: unknown): boolean => typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
const PINNED = /^https:\/\/github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/blob\/[0-9a-f]{40}\/\S+$/

const ids = existsSync(SERVICES_DIR)
  ? readdirSync(SERVICES_DIR).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)).sort()
  : []

test('the family holds curated analyses, each id lower case, digits and underscores', () => {
  assert.ok(ids.length >= 13, `expected at least 13 curated services, found ${ids.length}`)
  for (const id of ids) assert.match(id, /^[a-z0-9_]+$/, id)
})

test('the catalog loads every member as a family member with its dimensions lookup', () => {
  const family = catalog().families?.get('tos.services')
  assert.ok(family, 'no table family tos.services')
  for (const id of ids) {
    assert.ok(family.members.has(id), `${id} is not a member of tos.services`)
    const entry = catalog().tables.get(`tos.services.${id}.dimensions`) as LookupEntry | undefined
    assert.ok(entry, `${id}: no dimensions table`)
    assert.is(entry.kind, 'lookup', `${id}: dimensions is not a lookup`)
    assert.equal(entry.keys, ['dimension'], `${id}: dimensions keyed by dimension`)
    const rows = entry.history.at(-1)?.value
    assert.ok(rows, `${id}: dimensions has no rows`)
    assert.equal([...rows.keys()], DIMENSIONS, `${id}: the six dimensions in order`)
    for (const name of PARAMETERS) {
      const p = catalog().tables.get(`tos.services.${id}.${name}`) as ParameterEntry | undefined
      assert.ok(p && p.kind === 'parameter', `${id}: no parameter ${name}`)
      assert.is(p.unit, 'text', `${id}.${name}: unit text`)
    }
  }
})

for (const id of ids) {
  test(`${id}: provenance, verdicts and verbatim clauses`, () => {
    const file = parse(readFileSync(join(SERVICES_DIR, `${id}.yaml`), 'utf8')) as ServiceFile
    const value = (name: string): unknown => {
      const t = file.tables[name] as Parameter | undefined
      assert.ok(t && t.kind === 'parameter', `${id}: no parameter ${name}`)
      const dated = Object.values(t.values)
      assert.is(dated.length, 1, `${id}.${name}: one dated value`)
      return dated[0]!.value
    }
    for (const name of PARAMETERS) assert.type(value(name), 'string', `${id}.${name} is text`)
    assert.ok(CATEGORIES.has(value('category') as string), `${id}: unknown category ${String(value('category'))}`)
    assert.ok(isDate(value('version_date')), `${id}: version_date ${String(value('version_date'))} is not a date`)
    assert.ok(isDate(value('retrieved')), `${id}: retrieved ${String(value('retrieved'))} is not a date`)
    assert.match(value('source_url') as string, PINNED, `${id}: source_url is not a GitHub blob URL pinned to a commit`)
    assert.match(value('document_url') as string, /^https:\/\//, `${id}: document_url is not https`)

    const documentFile = value('document_file') as string
    assert.is(documentFile, `documents/${id}.md`, `${id}: document_file`)
    const documentPath = join(TOS_DIR, documentFile)
    assert.ok(existsSync(documentPath), `${id}: no document at ${documentPath}`)
    const size = statSync(documentPath).size
    assert.ok(size > 0 && size < MAX_DOCUMENT_BYTES, `${id}: document of ${size} bytes, limit ${MAX_DOCUMENT_BYTES}`)
    const document = readFileSync(documentPath, 'utf8')

    const dims = file.tables.dimensions as { kind: string; values: Record<string, { rows: Row[] }> }
    assert.is(dims.kind, 'lookup')
    const dated = Object.entries(dims.values)
    assert.is(dated.length, 1, `${id}: one dated set of verdicts`)
    assert.is(dated[0]![0], value('version_date'), `${id}: the verdicts take effect on the version date`)
    const rows = dated[0]![1].rows
    assert.equal(rows.map((r) => r.dimension), DIMENSIONS, `${id}: the six dimensions in order`)
    for (const row of rows) {
      const where = `${id}.${row.dimension}`
      assert.ok(VERDICTS.has(row.verdict), `${where}: verdict ${row.verdict}`)
      assert.ok(typeof row.conditions === 'string' && row.conditions.trim().length > 0, `${where}: no conditions`)
      if (row.verdict === 'silent') {
        assert.is(row.clause, '', `${where}: a silent verdict quotes no clause`)
        assert.is(row.section, '', `${where}: a silent verdict names no section`)
        assert.match(row.conditions, /^The document does not address/, `${where}: a silent verdict says what the document does not address`)
      } else {
        assert.ok(row.clause.length <= MAX_CLAUSE_CHARS, `${where}: clause of ${row.clause.length} characters`)
        assert.ok(row.section.trim().length > 0, `${where}: no section`)
        assert.ok(quotedIn(row.clause, document), `${where}: clause not found verbatim in ${documentFile}: ${row.clause}`)
      }
    }
  })
}

test('the clause check can fail: a reworded clause is not found', () => {
  const document = 'You may not  use the API\n to download data.'
  assert.ok(quotedIn('You may not use the API to download data.', document))
  assert.not.ok(quotedIn('You must not use the API to download data.', document))
  assert.not.ok(quotedIn('', document))
})

test.run()
