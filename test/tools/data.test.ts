// npm run data: status of every data set, and an update run end to end against a local server that
// serves recorded copies (the shipped FDA extract), including a cut download, a changed column, a
// server error and a copy that would lose most rows; each failure leaves the last good data serving,
// and a serving process swaps a new copy in without a restart.
import { createServer, type Server } from 'node:http'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadLaw, type Law } from '../../engine/index.js'
import type { DatasetEntry } from '../../engine/data/tables.js'
import { refreshDatasets, updateFolder } from '../../engine/data/updates.js'
import { ROOT, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { parse } from 'yaml'
import { IMPORTERS } from '../../tools/data/importers.js'
import { main, downloadLimit, DEFAULT_MAX_DOWNLOAD_BYTES, type DataOptions, type StatusRow } from '../../tools/data.js'

const test = suite('tools/data')
const ID = 'fda.warning_letters.fda_warning_letters'
const extract = readFileSync(join(TABLES_DIR, 'fda/warning_letters/extract/warning_letters.csv'), 'utf8')
const lines = extract.trimEnd().split('\n')
const recorded: Record<string, (res: import('node:http').ServerResponse) => void> = {
  '/letters.csv': (res) => res.end(extract),
  // The first half of the bytes, then the connection dropped: fewer than Content-Length promised.
  '/cut.csv': (res) => {
    res.writeHead(200, { 'Content-Length': Buffer.byteLength(extract) })
    res.write(extract.slice(0, extract.length / 2))
    setTimeout(() => res.destroy(), 20)
  },
  '/renamed-column.csv': (res) => res.end(extract.replace('posted_date', 'date_posted')),
  '/error': (res) => {
    res.statusCode = 500
    res.end('internal error')
  },
  '/hundred.csv': (res) => res.end(`${lines.slice(0, 101).join('\n')}\n`),
  // Sent in chunks with no Content-Length: its size is known only as it comes.
  '/chunked.csv': (res) => {
    res.write(extract.slice(0, 1000))
    res.end(extract.slice(1000))
  },
}

let server: Server
let base = ''
let options: DataOptions
let cache = ''
let law: Law
const run = async (...argv: string[]): Promise<{ code: number; out: string; err: string }> => {
  let out = ''
  let err = ''
  const code = await main(argv, options, (s) => (out += s), (s) => (err += s))
  return { code, out, err }
}
const pointer = () => join(updateFolder(options.datasetsDir, ID), 'current.json')
const installed = () => JSON.parse(readFileSync(pointer(), 'utf8')) as { sha256: string; rows: number; retrieved: string; source_url: string; fetched_from?: string }
const letters = (l: Law) => l.tables.get(ID) as DatasetEntry

test.before(async () => {
  server = createServer((req, res) => (recorded[req.url ?? ''] ?? ((r) => ((r.statusCode = 404), r.end())))(res))
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'data-tool-'))
  cache = join(dataDir, 'cache')
  options = { rulesDir: RULES_DIR, tablesDir: TABLES_DIR, datasetsDir: join(dataDir, 'datasets'), today: '2026-11-28' }
  law = loadLaw({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, datasetsDir: options.datasetsDir, dataCacheDir: cache })
  options.law = law
})
test.after(() => {
  server.close()
})

test('status lists every data set with its source, retrieval day, rows, licence and update route', async () => {
  const r = await run('status', '--json')
  assert.is(r.code, 0, r.err)
  const { datasets: rows, not_held } = JSON.parse(r.out) as { datasets: StatusRow[]; not_held: { id: string; label: string; official_lookup: string; why: string }[] }
  const datasets = [...law.tables.values()].filter((t) => t.kind === 'dataset')
  assert.is(rows.length, datasets.length)
  for (const row of rows) {
    assert.ok(/^https:\/\//.test(row.source_url), `${row.id} has a source address`)
    assert.ok(row.licence.length > 3, `${row.id} has a licence`)
    assert.match(row.retrieved, /^\d{4}-\d{2}-\d{2}$/)
    assert.ok(row.update.length > 0)
  }
  const fda = rows.find((x) => x.id === ID)!
  assert.equal([fda.rows, fda.serving, fda.retrieved, fda.age_days], [3374, 'shipped', '2026-11-25', 3])
  assert.match(fda.update, '--from FILE')
  assert.match(rows.find((x) => x.id === 'supplier_diversity.certifications.md_mdot_certified_firms')!.update, 'npm run data -- update md_mdot_certified_firms')
  assert.match(rows.find((x) => x.id === 'ada.requirements.accessible_parking_spaces')!.update, 'part of the rules')
  // The sources without a bulk file, from the rules' own lookups: SBA's programs and the bar and CPA boards.
  const sba = not_held.find((u) => u.label === 'SBA 8(a) Business Development program')!
  assert.equal([sba.official_lookup, /no bulk list/.test(sba.why)], ['https://search.certifications.sba.gov', true])
  assert.is(not_held.find((u) => u.label === 'Certified public accountant')?.official_lookup, 'https://cpaverify.org')
  assert.ok(not_held.some((u) => u.label === 'Attorney'))
  const text = await run('status')
  assert.match(text.out, `${ID} (shipped): FDA warning letters`)
  assert.match(text.out, 'Sources the answers name without a data set here:\nPhysician assistant: no data set (')
  assert.match(text.out, '3,374 rows, retrieved 2026-11-25 (3 days ago)')
})

test('every importer a data set names exists', () => {
  for (const d of [...law.tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset')) {
    if (d.update && 'importer' in d.update) assert.ok(IMPORTERS[d.update.importer], `${d.id}: importer ${d.update.importer}`)
  }
})

test('an update from a local copy of the publisher file is imported, checked, installed with its provenance and served', async () => {
  const r = await run('update', 'fda_warning_letters', '--from', `${base}/letters.csv`)
  assert.is(r.code, 0, r.err)
  assert.match(r.out, `${ID}: installed 3374 rows (3374 before), retrieved 2026-11-28`)
  const p = installed()
  assert.equal([p.rows, p.retrieved, p.fetched_from], [3374, '2026-11-28', `${base}/letters.csv`])
  assert.match(p.source_url, 'https://www.fda.gov/')
  // The process that ran it serves the copy now; a new process opens it too.
  assert.is(letters(law).installed?.sha256, p.sha256)
  // The update built the store beside the copies; a process reading the folder opens it and builds none.
  assert.is(readdirSync(join(options.datasetsDir, '.store')).filter((f) => f.endsWith('.sqlite')).length, 1)
  const ownCache = mkdtempSync(join(tmpdir(), 'data-tool-cache-'))
  const fresh = loadLaw({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, datasetsDir: options.datasetsDir, dataCacheDir: ownCache })
  assert.equal([letters(fresh).as_of, letters(fresh).store?.count()], ['2026-11-28', 3374])
  assert.equal(readdirSync(ownCache), [])
  const s = (JSON.parse((await run('status', '--json')).out) as { datasets: StatusRow[] }).datasets
  assert.equal(s.find((x) => x.id === ID)!.serving, 'installed')
})

for (const [what, path, said] of [
  ['a download cut short', '/cut.csv', 'cut short'],
  ['a renamed column', '/renamed-column.csv', "not in the publisher's format"],
  ['a server error', '/error', 'answered 500'],
  ['a copy that would lose most rows', '/hundred.csv', 'a drop of more than 20 %'],
] as const) {
  test(`${what} is refused and the last good copy keeps serving`, async () => {
    const before = installed().sha256
    const r = await run('update', 'fda_warning_letters', '--from', `${base}${path}`)
    assert.is(r.code, 1)
    assert.match(r.err, said)
    assert.match(r.err, /nothing was installed|--force/)
    assert.is(installed().sha256, before)
    assert.is(letters(law).store?.count(), 3374)
  })
}

// DATA_MAX_DOWNLOAD_BYTES: a file is read whole into memory, so an update reads at most so many bytes.
test('a file larger than the download limit is refused, announced, sent in chunks or local, and the last good copy keeps serving', async () => {
  const before = installed().sha256
  options.maxDownloadBytes = 100_000
  try {
    for (const [from, said] of [
      [`${base}/letters.csv`, `announces ${Buffer.byteLength(extract).toLocaleString('en-US')} bytes; an update reads at most 100,000 bytes (DATA_MAX_DOWNLOAD_BYTES)`],
      [`${base}/chunked.csv`, 'sent more than that; an update reads at most 100,000 bytes'],
      [join(TABLES_DIR, 'fda/warning_letters/extract/warning_letters.csv'), `holds ${Buffer.byteLength(extract).toLocaleString('en-US')} bytes`],
    ]) {
      const r = await run('update', 'fda_warning_letters', '--from', from)
      assert.is(r.code, 1, from)
      assert.match(r.err, said)
      assert.match(r.err, 'nothing was installed')
      assert.is(installed().sha256, before)
      assert.is(letters(law).store?.count(), 3374)
    }
    // Under the limit, the same chunked download installs.
    options.maxDownloadBytes = Buffer.byteLength(extract)
    assert.is((await run('update', 'fda_warning_letters', '--from', `${base}/chunked.csv`)).code, 0)
  } finally {
    delete options.maxDownloadBytes
  }
  assert.is(downloadLimit({}), DEFAULT_MAX_DOWNLOAD_BYTES)
  assert.is(DEFAULT_MAX_DOWNLOAD_BYTES, 2 * 2 ** 30)
  assert.is(downloadLimit({ DATA_MAX_DOWNLOAD_BYTES: '5000000' }), 5_000_000)
  assert.throws(() => downloadLimit({ DATA_MAX_DOWNLOAD_BYTES: '2GB' }), /DATA_MAX_DOWNLOAD_BYTES is a whole number of bytes/)
})

test('--force installs a smaller copy, and a serving process swaps it in without a restart', async () => {
  const serving = loadLaw({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, datasetsDir: options.datasetsDir, dataCacheDir: cache })
  assert.is(letters(serving).store?.count(), 3374)
  const r = await run('update', 'fda_warning_letters', '--from', `${base}/hundred.csv`, '--force', '--retrieved', '2026-11-27')
  assert.is(r.code, 0, r.err)
  const swap = refreshDatasets([...serving.tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset'), options.datasetsDir, cache)
  assert.equal(swap.swapped, [ID])
  assert.equal([letters(serving).store?.count(), letters(serving).as_of], [100, '2026-11-27'])
  // Nothing changed since: nothing is reopened.
  assert.equal(refreshDatasets([letters(serving)], options.datasetsDir, cache).swapped, [])
  // The copy before stays one update longer; the shipped file is untouched.
  assert.ok(existsSync(join(TABLES_DIR, 'fda/warning_letters/letters.csv')))
})

test('usage: an unknown data set is refused naming the known ones; bad arguments exit 2', async () => {
  const unknown = await run('update', 'no_such_data')
  assert.is(unknown.code, 1)
  assert.match(unknown.err, 'no data set no_such_data; known: ')
  assert.is((await run('update')).code, 2)
  assert.is((await run('status', '--bogus')).code, 2)
  assert.is((await run('update', 'all', '--from', 'x.csv')).code, 2)
  const rules = await run('update', 'accessible_parking_spaces')
  assert.is(rules.code, 1)
  assert.match(rules.err, 'part of the rules')
})

test('deploy/data-refresh: a CronJob runs the update into the volume every pod mounts read-only at DATA_DIR/datasets', () => {
  const dir = join(ROOT, 'deploy', 'data-refresh')
  const read = (file: string) => parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>
  const kustomization = read('kustomization.yaml')
  assert.ok(kustomization.resources.includes('../kubernetes'))
  const claim = read('datasets-volume.yaml')
  assert.equal(claim.spec.accessModes, ['ReadWriteMany'])
  const job = read('data-update-cronjob.yaml').spec.jobTemplate.spec.template.spec
  const [container] = job.containers
  assert.equal(container.command, ['node', 'dist/tools/data.js', 'update', 'all'])
  assert.ok(existsSync(join(ROOT, 'dist', 'tools', 'data.js')))
  const dataDir = container.env.find((e: { name: string }) => e.name === 'DATA_DIR').value
  const written = container.volumeMounts.find((m: { name: string }) => m.name === 'datasets')
  assert.is(written.mountPath, `${dataDir}/datasets`)
  assert.is(job.volumes.find((v: { name: string }) => v.name === 'datasets').persistentVolumeClaim.claimName, claim.metadata.name)
  // The pods: the same claim, read-only, where DATA_DIR (the image's) puts the installed copies.
  const image = /DATA_DIR=(\S+)/.exec(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))![1]
  const pod = read('mount-datasets.yaml').spec.template.spec
  const mount = pod.containers[0].volumeMounts[0]
  assert.equal([mount.mountPath, mount.readOnly], [`${image}/datasets`, true])
  assert.equal(pod.volumes[0].persistentVolumeClaim, { claimName: claim.metadata.name, readOnly: true })
})

test.run()
