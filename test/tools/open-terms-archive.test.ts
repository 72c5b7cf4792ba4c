// The Open Terms Archive importer on a real document: a throwaway git repository laid out as OTA's
// versions repositories are (`<Service>/<Document>.md`, one commit a recorded version) holds a
// shipped document's text as its first version and the same text without its first line as a later
// one. The importer must bring back each version byte for byte, address it by its commit, and tell an
// analysis pinned to the older commit that a newer version exists.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { check, ImportError, main, pinned, version, versionUrl } from '../../tools/data/open-terms-archive.js'

const test = suite('tools/open-terms-archive')

const documents = join(ROOT, 'tables', 'tos', 'documents')
const shipped = readdirSync(documents).filter((f) => f.endsWith('.md')).sort()
const real = readFileSync(join(documents, shipped[0]!), 'utf8')
const later = real.slice(real.indexOf('\n') + 1)
const DOC = 'Example Service/Terms of Service.md'

function archive(): { dir: string; first: string; second: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ota-archive-'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, '-c', 'user.name=test', '-c', 'user.email=test@localhost', ...args], { encoding: 'utf8' }).trim()
  git('init', '-q')
  mkdirSync(join(dir, 'Example Service'))
  writeFileSync(join(dir, DOC), real)
  git('add', '-A')
  git('commit', '-q', '-m', 'Record the first version')
  const first = git('rev-parse', 'HEAD')
  writeFileSync(join(dir, DOC), later)
  git('commit', '-q', '-am', 'Record a change')
  return { dir, first, second: git('rev-parse', 'HEAD') }
}

test('a shipped document is there to test on', () => {
  assert.ok(shipped.length > 0, 'tables/tos/documents holds no document')
  assert.ok(later.length < real.length && later.length > 0)
})

test('the newest version, and an earlier one by its commit, come back byte for byte', () => {
  const { dir, first, second } = archive()
  const newest = version(dir, DOC)
  assert.is(newest.sha, second)
  assert.is(newest.text, later)
  assert.match(newest.recorded, /^\d{4}-\d{2}-\d{2}$/)
  const earlier = version(dir, DOC, first)
  assert.is(earlier.sha, first)
  assert.is(earlier.text, real)
})

test('a version is addressed by its commit, and the address reads back', () => {
  const { dir, first } = archive()
  const url = versionUrl('OpenTermsArchive/contrib-versions', version(dir, DOC, first))
  assert.is(url, `https://github.com/OpenTermsArchive/contrib-versions/blob/${first}/Example%20Service/Terms%20of%20Service.md`)
  assert.equal(pinned(url), { repo: 'OpenTermsArchive/contrib-versions', sha: first, path: DOC })
  assert.is(pinned('https://example.org/terms'), undefined)
})

test('check: an analysis pinned to the older commit has a newer version; one pinned to the newest is current', () => {
  const { dir, first, second } = archive()
  const services = mkdtempSync(join(tmpdir(), 'ota-services-'))
  const analysis = (sha: string) =>
    `tables:\n  source_url:\n    kind: parameter\n    unit: text\n    values:\n      "2020-01-01": { value: "https://github.com/OpenTermsArchive/contrib-versions/blob/${sha}/Example%20Service/Terms%20of%20Service.md" }\n`
  writeFileSync(join(services, 'older.yaml'), analysis(first))
  writeFileSync(join(services, 'newest.yaml'), analysis(second))
  writeFileSync(join(services, 'unpinned.yaml'), 'tables: {}\n')
  const rows = check(dir, services)
  assert.equal(rows.map((r) => [r.service, r.status]), [['newest', 'current'], ['older', 'newer_version'], ['unpinned', 'not_pinned']])
  assert.is(rows[1]!.newest?.sha, second)
})

test('a path that is no document, or a document never recorded, is refused with the reason', () => {
  const { dir } = archive()
  assert.throws(() => version(dir, 'Terms.md'), (e: unknown) => e instanceof ImportError && /not a document/.test((e as Error).message))
  assert.throws(() => version(dir, 'Other/Terms of Service.md'), (e: unknown) => e instanceof ImportError && /no version/.test((e as Error).message))
})

test('the command line writes the text and prints the source_url; a usage error exits 2', () => {
  const { dir, first } = archive()
  const out = join(mkdtempSync(join(tmpdir(), 'ota-out-')), 'doc.md')
  const write = process.stdout.write
  let printed = ''
  process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write
  let code: number
  try {
    code = main(['import', dir, DOC, out, '--at', first])
  } finally {
    process.stdout.write = write
  }
  assert.is(code, 0)
  assert.is(readFileSync(out, 'utf8'), real)
  assert.match(printed, `source_url: https://github.com/OpenTermsArchive/contrib-versions/blob/${first}/`)
  const error = process.stderr.write
  process.stderr.write = (() => true) as typeof process.stderr.write
  try {
    assert.is(main(['import', dir]), 2)
  } finally {
    process.stderr.write = error
  }
})

test.run()
