// The checks every curated terms-of-service analysis of a list passes (test/tos/curated-b and -c): its
// tables/tos/services/<id>.yaml loads with the catalog as a member of tos.services, holds the six
// dimensions in order with a valid verdict, quotes each clause verbatim from its document file (after
// collapsing whitespace), pins its source to a commit, dates its retrieval, and keeps its document
// under the analyze-text limit (512 KiB).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse } from 'yaml'
import { loadCatalog } from '../../service/index.js'
import { RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'

const DIMENSIONS = ['commercial_use', 'machine_learning_training', 'scraping_automated_access', 'redistribution', 'attribution', 'rate_limits']
const VERDICTS = new Set(['allowed', 'conditional', 'prohibited', 'silent'])
const CATEGORIES = new Set(['developer_platform', 'ai_provider', 'social_network', 'data_api', 'search_api', 'commerce', 'media', 'productivity'])
const MAX_DOCUMENT_BYTES = 512 * 1024
const PINNED = /^https:\/\/github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+\/blob\/[0-9a-f]{40}\/\S+$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

const servicesDir = join(TABLES_DIR, 'tos', 'services')

interface Row { dimension: string; verdict: string; conditions: string; clause: string; section: string }
interface Entry { kind: string; values: Record<string, { value?: unknown; rows?: Row[] }> }
interface ServiceFile { title: string; as_of: string; tables: Record<string, Entry> }

/** The whitespace-collapsed form a quote is compared in. */
function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** The one value of a parameter (the files hold one version each). */
function value(file: ServiceFile, name: string): string {
  const entry = file.tables[name]
  assert.ok(entry, `parameter ${name}`)
  assert.is(entry.kind, 'parameter', `${name} is a parameter`)
  const versions = Object.values(entry.values)
  assert.is(versions.length, 1, `${name} has one value`)
  const v = versions[0]!.value
  assert.type(v, 'string', `${name} is text`)
  return v as string
}

/** The suite of a list of curated services, of which at least `least` must be curated. */
export function curatedSuite(name: string, ids: readonly string[], least: number): void {
  const test = suite(name)

  const files = existsSync(servicesDir)
    ? readdirSync(servicesDir).filter((n) => n.endsWith('.yaml') && ids.includes(n.slice(0, -5))).sort()
    : []

  test(least === ids.length ? `the ${ids.length} services of the list are curated` : `at least ${least} services of the list are curated`, () => {
    assert.ok(files.length >= least, `${files.length} curated files`)
  })

  test('the catalog loads them as members of the family tos.services', () => {
    const catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
    const members = catalog.families?.get('tos.services')?.members
    assert.ok(members, 'family tos.services')
    for (const f of files) assert.ok(members.has(f.slice(0, -5)), `member ${f}`)
  })

  test('the quote check fails on a clause that is not in the document', () => {
    const doc = collapse('You may not\n  scrape the   Service.')
    assert.ok(doc.includes(collapse('may not scrape\nthe Service')))
    assert.not.ok(doc.includes(collapse('may scrape the Service')))
  })

  for (const name of files) {
    const id = name.slice(0, -5)
    test(`${id}: six dimensions in order, verdicts valid, clauses verbatim, source pinned, document under 512 KiB`, () => {
      const file = parse(readFileSync(join(servicesDir, name), 'utf8')) as ServiceFile
      assert.match(file.as_of, ISO_DATE)
      for (const p of ['service_name', 'document_title', 'document_url', 'source_licence']) assert.ok(value(file, p).length > 0, p)
      assert.ok(CATEGORIES.has(value(file, 'category')), 'category')
      assert.match(value(file, 'document_url'), /^https:\/\//)
      assert.match(value(file, 'version_date'), ISO_DATE)
      assert.match(value(file, 'retrieved'), ISO_DATE)
      assert.match(value(file, 'source_url'), PINNED)
      assert.is(value(file, 'document_file'), `documents/${id}.md`)

      const documentPath = join(TABLES_DIR, 'tos', value(file, 'document_file'))
      const size = statSync(documentPath).size
      assert.ok(size > 0 && size < MAX_DOCUMENT_BYTES, `document ${size} bytes`)
      const document = collapse(readFileSync(documentPath, 'utf8'))

      const dims = file.tables.dimensions
      assert.ok(dims, 'dimensions')
      assert.is(dims.kind, 'lookup')
      const versions = Object.keys(dims.values)
      assert.equal(versions, [value(file, 'version_date')], 'one version, the version date')
      const rows = dims.values[versions[0]!]!.rows!
      assert.equal(rows.map((r) => r.dimension), DIMENSIONS)
      for (const r of rows) {
        assert.ok(VERDICTS.has(r.verdict), `${r.dimension}: verdict ${r.verdict}`)
        assert.ok(r.conditions.trim().length > 0, `${r.dimension}: conditions`)
        if (r.verdict === 'silent') {
          assert.is(r.clause, '', `${r.dimension}: a silent verdict quotes nothing`)
          assert.is(r.section, '', `${r.dimension}: a silent verdict names no section`)
          assert.match(r.conditions, /does not address/, `${r.dimension}: says what is not addressed`)
        } else {
          assert.ok(r.clause.length > 0 && r.clause.length <= 400, `${r.dimension}: clause of ${r.clause.length} characters`)
          assert.ok(r.section.trim().length > 0, `${r.dimension}: section`)
          assert.ok(document.includes(collapse(r.clause)), `${r.dimension}: clause not found verbatim in ${value(file, 'document_file')}: ${r.clause}`)
        }
      }
    })
  }

  test.run()
}
