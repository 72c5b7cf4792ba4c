/**
 * @module `npm run data`: the data sets a deployment serves, where each comes from, and the way to
 * refresh them from their publisher.
 *
 *   npm run data -- status [--json]
 *       every data set: its id, rows, the day its records were retrieved and how old that is, its
 *       licence, the publisher's address, and how it is updated (an importer, a file to obtain by
 *       hand, no bulk file at all, or part of the rules); then the sources the answers name without
 *       a data set here (no bulk file: SBA certifications, bar and CPA boards), with their lookups
 *   npm run data -- update NAME|all [--from FILE_OR_URL] [--force] [--retrieved YYYY-MM-DD]
 *       download the publisher's file (or read --from, a copy a user already has), import it with
 *       the data set's importer, check every row against the data set's columns and the row count
 *       against the copy serving now (losing more than `max_drop` of the rows, 20 % by default,
 *       needs --force), then install it under DATA_DIR/datasets/<id>/ with its provenance
 *       (current.json: source, retrieval day, SHA-256, rows), and build the data sets' store beside
 *       them (DATA_DIR/datasets/.store), which every process and pod then opens read-only. A
 *       running service swaps it in within DATA_RELOAD_SECONDS. Anything that fails leaves the
 *       data serving now untouched. A file larger than DATA_MAX_DOWNLOAD_BYTES (2 GiB unless set)
 *       is refused, downloaded or local.
 *
 * NAME is a data set's id (`fda.warning_letters.fda_warning_letters`) or its table name
 * (`fda_warning_letters`). Exit code 0 when done, 1 when an update was refused, 2 for a usage error.
 */
import { answerHelp } from './help.js'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { loadLaw, type Law } from '../engine/index.js'
import { readRows } from '../engine/data/rows.js'
import type { DatasetEntry } from '../engine/data/tables.js'
import { installedUpdate, refreshDatasets, storeFolder, updateFolder, type InstalledUpdate } from '../engine/data/updates.js'
import type { Problem } from '../engine/errors.js'
import { DATASETS_DIR, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { IMPORTERS } from './data/importers.js'
import { ImportError } from './data/importer.js'

/** The share of rows an update may lose without --force where the data set does not say (a setting, not law). */
const DEFAULT_MAX_DROP = 0.2
/** How long a download may take before it is given up (a setting). */
const DOWNLOAD_TIMEOUT_MS = 300_000
/**
 * The most bytes an update reads, downloaded or from --from, where DATA_MAX_DOWNLOAD_BYTES does not
 * say (a setting): a file is read whole into memory, so a publisher's runaway or wrong file stops
 * here instead of exhausting the machine. 2 GiB is far above every data set loaded now.
 */
export const DEFAULT_MAX_DOWNLOAD_BYTES = 2 * 2 ** 30

export interface DataOptions {
  rulesDir: string
  tablesDir: string
  datasetsDir: string
  /** Today, as YYYY-MM-DD (the tests fix it). */
  today: string
  /** The law already loaded with `datasetsDir` (the tests keep one); otherwise loaded here. */
  law?: Law
  /** The most bytes an update reads (DATA_MAX_DOWNLOAD_BYTES; DEFAULT_MAX_DOWNLOAD_BYTES unless set). */
  maxDownloadBytes?: number
}

export const defaultOptions = (): DataOptions => ({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, datasetsDir: DATASETS_DIR, today: new Date().toISOString().slice(0, 10) })

/** The download limit DATA_MAX_DOWNLOAD_BYTES sets (a whole number of bytes), or the default. */
export function downloadLimit(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.DATA_MAX_DOWNLOAD_BYTES?.trim()
  if (text === undefined || text === '') return DEFAULT_MAX_DOWNLOAD_BYTES
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UpdateRefused(`DATA_MAX_DOWNLOAD_BYTES is a whole number of bytes (the default is ${DEFAULT_MAX_DOWNLOAD_BYTES}), got ${JSON.stringify(env.DATA_MAX_DOWNLOAD_BYTES)}`)
  return Number(text)
}

/** A refused update: said to the user, nothing installed. */
export class UpdateRefused extends Error {}

const datasetsOf = (law: Law): DatasetEntry[] => [...law.tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset')

/** The publisher's address a data set's records are credited to. */
function sourceUrl(d: DatasetEntry): string {
  const u = d.update
  if (u && 'importer' in u && (u.url ?? u.page)) return (u.url ?? u.page)!
  if (u && 'lookup' in u) return u.lookup
  const cited = [...d.references].reverse().find((r) => r.href)
  return cited?.href ?? ''
}

/** How a data set is refreshed, in a few words. */
function route(d: DatasetEntry): string {
  const u = d.update
  if (!u) return 'part of the rules: edited in tables/ by an analyst'
  if ('by_hand' in u) return `by hand: ${u.by_hand}`
  if ('no_bulk_file' in u) return `no bulk file (${u.no_bulk_file}); official lookup ${u.lookup}`
  return u.url ? `npm run data -- update ${d.name}` : `npm run data -- update ${d.name} --from FILE (${u.obtain})`
}

export interface StatusRow {
  id: string
  label: string
  rows: number
  retrieved: string
  age_days: number
  licence: string
  source_url: string
  serving: 'shipped' | 'installed'
  sha256?: string
  update: string
}

/** A source the answers name but this service holds no records of: its publisher offers no bulk file. */
export interface UnheldSource {
  /** The lookup table that declares it, and its row's key. */
  id: string
  label: string
  official_lookup: string
  why: string
}

/**
 * The sources the rules declare as not held: a row of a lookup table with an `official_lookup` and
 * `loaded: false` or `verifiable: false` (the professions of the credentials search, the programs of
 * the supplier check), with the row's own reason (`not_covered`, or its note).
 */
export function unheldSources(law: Law): UnheldSource[] {
  const out: UnheldSource[] = []
  for (const t of law.tables.values()) {
    if (t.kind !== 'lookup') continue
    const latest = t.history[t.history.length - 1]?.value
    for (const [key, row] of latest ?? []) {
      if (typeof row.official_lookup !== 'string' || !(row.loaded === false || row.verifiable === false)) continue
      const why = [row.not_covered, row.duration].find((x): x is string => typeof x === 'string' && x !== '') ?? 'no bulk file'
      out.push({ id: `${t.id}[${key}]`, label: String(row.label ?? key), official_lookup: row.official_lookup, why })
    }
  }
  return out
}

export function status(law: Law, today: string): StatusRow[] {
  const days = (from: string) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
  return datasetsOf(law).map((d) => ({
    id: d.id,
    label: d.label,
    rows: d.store?.count() ?? 0,
    retrieved: d.as_of,
    age_days: days(d.as_of),
    licence: d.licence,
    source_url: sourceUrl(d),
    serving: d.installed ? 'installed' : 'shipped',
    ...(d.installed ? { sha256: d.installed.sha256 } : {}),
    update: route(d),
  }))
}

function statusText(rows: StatusRow[]): string {
  return rows
    .map((r) => [
      `${r.id} (${r.serving}${r.sha256 ? ` ${r.sha256.slice(0, 12)}` : ''}): ${r.label}`,
      `  ${r.rows.toLocaleString('en-US')} rows, retrieved ${r.retrieved} (${r.age_days} days ago)`,
      `  source: ${r.source_url || 'none recorded'}`,
      `  licence: ${r.licence}`,
      `  update: ${r.update}`,
    ].join('\n'))
    .join('\n')
}

/** The publisher's file, from a URL or a local path; any failure (an HTTP error, a cut download, more than `limit` bytes) refuses. */
async function obtain(from: string, limit: number): Promise<{ bytes: Buffer; fetchedFrom: string }> {
  const tooLarge = (size: string) =>
    new UpdateRefused(`${from} ${size}; an update reads at most ${limit.toLocaleString('en-US')} bytes (DATA_MAX_DOWNLOAD_BYTES); nothing was installed`)
  if (/^https?:\/\//.test(from)) {
    let response: Response
    try {
      response = await fetch(from, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' })
    } catch (error) {
      throw new UpdateRefused(`cannot download ${from}: ${(error as Error).message}`)
    }
    if (response.status !== 200) throw new UpdateRefused(`${from} answered ${response.status} ${response.statusText}; nothing was installed`)
    // Refused before a byte is read when the server says how large it is; counted as it comes otherwise.
    const announced = Number(response.headers.get('content-length') ?? NaN)
    if (announced > limit) {
      await response.body?.cancel().catch(() => {})
      throw tooLarge(`announces ${announced.toLocaleString('en-US')} bytes`)
    }
    const chunks: Uint8Array[] = []
    let received = 0
    try {
      // A download cut short (fewer bytes than Content-Length, or the connection reset) throws here.
      for await (const chunk of response.body ?? []) {
        received += chunk.byteLength
        if (received > limit) break
        chunks.push(chunk)
      }
    } catch (error) {
      throw new UpdateRefused(`the download of ${from} was cut short (${(error as Error).message}); nothing was installed`)
    }
    if (received > limit) throw tooLarge('sent more than that')
    return { bytes: Buffer.concat(chunks), fetchedFrom: from }
  }
  const path = resolve(from)
  if (!existsSync(path)) throw new UpdateRefused(`--from ${from}: no such file`)
  const size = statSync(path).size
  if (size > limit) throw tooLarge(`holds ${size.toLocaleString('en-US')} bytes`)
  return { bytes: readFileSync(path), fetchedFrom: path }
}

/** Write a file whole under a temporary name, then rename it into place. */
function writeAtomically(path: string, text: string | Buffer): void {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, text)
  renameSync(temporary, path)
}

export interface UpdateResult {
  id: string
  before: number
  after: number
  installed: InstalledUpdate
}

/** Update one data set; throws UpdateRefused (nothing installed) when any check fails. */
export async function updateDataset(d: DatasetEntry, o: DataOptions, args: { from?: string; force?: boolean; retrieved?: string }): Promise<UpdateResult> {
  const u = d.update
  if (!u || !('importer' in u)) throw new UpdateRefused(`${d.id}: ${route(d)}`)
  const importer = IMPORTERS[u.importer]
  if (!importer) throw new UpdateRefused(`${d.id}: its importer ${u.importer} is not one of ${Object.keys(IMPORTERS).join(', ')}`)
  const from = args.from ?? u.url
  if (!from) throw new UpdateRefused(`${d.id}: the publisher gives no fixed address (${u.obtain}); pass the file with --from`)
  const retrieved = args.retrieved ?? o.today
  if (!/^\d{4}-\d{2}-\d{2}$/.test(retrieved) || Number.isNaN(Date.parse(retrieved))) throw new UpdateRefused(`--retrieved ${retrieved} is not a day written YYYY-MM-DD`)

  const { bytes, fetchedFrom } = await obtain(from, o.maxDownloadBytes ?? downloadLimit())
  const source = sourceUrl(d)
  let imported: { csv: string; count: number }
  try {
    imported = importer.run(bytes.toString('utf8'), { sourceUrl: source, retrieved }, u.options ?? {})
  } catch (error) {
    if (error instanceof ImportError) throw new UpdateRefused(`${d.id}: the file is not in the publisher's format (${importer.reads}): ${error.message}; nothing was installed`)
    // An importer reads the file as one text, which Node caps (about 512 MiB); say so rather than crash.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') throw new UpdateRefused(`${d.id}: the file (${bytes.length.toLocaleString('en-US')} bytes) is larger than one text Node can hold, and the importer reads it whole; nothing was installed`)
    throw error
  }
  const sha256 = createHash('sha256').update(imported.csv).digest('hex')
  const folder = updateFolder(o.datasetsDir, d.id)
  mkdirSync(folder, { recursive: true })
  const file = `${sha256.slice(0, 16)}.csv`
  const candidate = join(folder, `${file}.${process.pid}.candidate`)
  writeFileSync(candidate, imported.csv)
  try {
    // The rows as the service will read them: every column of the data set, typed.
    const problems: Problem[] = []
    const rows = readRows(candidate, `${d.id} (the new copy)`, d.descriptor, problems)
    if (problems.length > 0) throw new UpdateRefused(`${d.id}: the new copy fails the data set's checks: ${problems.slice(0, 5).map((p) => `${p.line > 0 ? `line ${p.line}: ` : ''}${p.message}`).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}; nothing was installed`)
    const before = d.store?.count() ?? 0
    const maxDrop = u.max_drop ?? DEFAULT_MAX_DROP
    if (!args.force && before > 0 && rows.length < before * (1 - maxDrop)) {
      throw new UpdateRefused(`${d.id}: the new copy has ${rows.length} rows where ${before} serve now, a drop of more than ${Math.round(maxDrop * 100)} %; check the source, or install it anyway with --force`)
    }
    renameSync(candidate, join(folder, file))
    const installed: InstalledUpdate = { file, sha256, rows: rows.length, source_url: source, ...(fetchedFrom !== source ? { fetched_from: fetchedFrom } : {}), retrieved, imported_at: new Date().toISOString() }
    const previous = installedUpdate(o.datasetsDir, d.id)
    writeAtomically(join(folder, 'current.json'), `${JSON.stringify(installed, null, 2)}\n`)
    // The copy serving before stays one update longer (a process may still be reading it); older ones go.
    for (const name of readdirSync(folder)) {
      if (name.endsWith('.csv') && name !== file && name !== previous?.update.file) rmSync(join(folder, name), { force: true })
    }
    return { id: d.id, before, after: rows.length, installed }
  } finally {
    rmSync(candidate, { force: true })
  }
}

/** The two newest stores of the folder stay (a process may still read the one before); older ones go. */
function pruneStores(folder: string): void {
  if (!existsSync(folder)) return
  const stores = readdirSync(folder)
    .filter((f) => f.endsWith('.sqlite'))
    .map((f) => ({ f, at: statSync(join(folder, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
  for (const { f } of stores.slice(2)) rmSync(join(folder, f), { force: true })
}

/** The data sets NAME names: one by id or table name, or every one with a fixed address (`all`). */
function chosen(law: Law, name: string): DatasetEntry[] {
  const all = datasetsOf(law)
  if (name === 'all') return all.filter((d) => d.update && 'importer' in d.update && d.update.url)
  const found = all.filter((d) => d.id === name || d.name === name)
  if (found.length === 1) return found
  const known = all.map((d) => d.name).join(', ')
  throw new UpdateRefused(found.length === 0 ? `no data set ${name}; known: ${known}` : `${name} names ${found.length} data sets; give the id: ${found.map((d) => d.id).join(', ')}`)
}

export async function main(argv: string[], o: DataOptions = defaultOptions(), out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  const usage = 'usage: npm run data -- status [--json] | update NAME|all [--from FILE_OR_URL] [--force] [--retrieved YYYY-MM-DD]\n'
  let parsed: ReturnType<typeof parse>
  const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, strict: true, options: { json: { type: 'boolean' }, from: { type: 'string' }, force: { type: 'boolean' }, retrieved: { type: 'string' } } })
  try {
    parsed = parse(argv)
  } catch (error) {
    err(`${(error as Error).message}\n${usage}`)
    return 2
  }
  const [command, name, ...extra] = parsed.positionals
  if ((command !== 'status' && command !== 'update') || extra.length > 0 || (command === 'update') !== (name !== undefined)) {
    err(usage)
    return 2
  }
  const law = o.law ?? loadLaw({ rulesDir: o.rulesDir, tablesDir: o.tablesDir, datasetsDir: o.datasetsDir })
  if (command === 'status') {
    const rows = status(law, o.today)
    const unheld = unheldSources(law)
    const unheldText = unheld.map((u) => `${u.label}: no data set (${u.why}); official lookup ${u.official_lookup}`).join('\n')
    out(parsed.values.json ? `${JSON.stringify({ datasets: rows, not_held: unheld }, null, 2)}\n` : `${statusText(rows)}\n\nSources the answers name without a data set here:\n${unheldText}\n`)
    return 0
  }
  if (name === 'all' && parsed.values.from) {
    err(`--from names one file: give one data set, not all\n${usage}`)
    return 2
  }
  let refused = 0
  try {
    for (const d of chosen(law, name!)) {
      try {
        const r = await updateDataset(d, o, { from: parsed.values.from, force: parsed.values.force, retrieved: parsed.values.retrieved })
        out(`${r.id}: installed ${r.after} rows (${r.before} before), retrieved ${r.installed.retrieved}, sha256 ${r.installed.sha256.slice(0, 12)}, in ${updateFolder(o.datasetsDir, r.id)}\n`)
      } catch (error) {
        if (!(error instanceof UpdateRefused)) throw error
        err(`${error.message}\n`)
        refused++
      }
    }
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error
    err(`${error.message}\n`)
    return 1
  }
  // The new copies open as a serving process opens them, and their store is built once, here, beside
  // them (DATA_DIR/datasets/.store), where every process and pod reading the folder finds it.
  const built = storeFolder(o.datasetsDir)
  const { problems } = refreshDatasets(datasetsOf(law), o.datasetsDir, built)
  pruneStores(built)
  for (const p of problems) err(`${p.file}:${p.line}: ${p.message}\n`)
  return refused > 0 || problems.length > 0 ? 1 : 0
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  answerHelp(import.meta.url)
  process.exitCode = await main(process.argv.slice(2))
}
