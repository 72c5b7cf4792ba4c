/**
 * @module Installed updates of data sets. `npm run data -- update` puts a newer copy of a data set's
 * file in a folder of its own under DATA_DIR/datasets, with its provenance in `current.json`; the
 * pointer is written under a temporary name and renamed, so a reader sees the old copy or the new
 * one, never half of either. A loader given the folder (LoadOptions.datasetsDir) opens the
 * installed copy instead of the file shipped under tables/, and a running process reopens them
 * (`refreshDatasets`) to serve a new copy without a restart. A pointer that cannot be read, or a
 * copy whose rows fail the data set's checks, leaves the last good data serving.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Problem } from '../errors.js'
import type { DatasetEntry } from './tables.js'
import { openDatasets } from './store.js'

/** What `current.json` records of an installed copy: where it came from, when, and what it holds. */
export interface InstalledUpdate {
  /** The copy's file name in the data set's folder. */
  file: string
  sha256: string
  rows: number
  /** The publisher's address the records are from (the data set's official source). */
  source_url: string
  /** Where this copy was read from, when not the publisher's address (a local file, a mirror). */
  fetched_from?: string
  /** The day the records were retrieved (YYYY-MM-DD): the data set's as-of date once installed. */
  retrieved: string
  /** When the copy was imported (an ISO timestamp). */
  imported_at: string
}

/**
 * Where the update command builds the store of the data sets as installed, beside them, so that
 * every process and pod reading the folder opens it instead of building its own.
 */
export const storeFolder = (datasetsDir: string): string => join(datasetsDir, '.store')

/** The folder of one data set's installed copies: its id, safe as a file name. */
export function updateFolder(datasetsDir: string, id: string): string {
  return join(datasetsDir, id.replace(/[^A-Za-z0-9_.-]/g, '_'))
}

/** The installed copy of a data set and its file's path, if one is installed and readable. */
export function installedUpdate(datasetsDir: string, id: string): { update: InstalledUpdate; path: string } | undefined {
  const folder = updateFolder(datasetsDir, id)
  const pointer = join(folder, 'current.json')
  if (!existsSync(pointer)) return undefined
  try {
    const update = JSON.parse(readFileSync(pointer, 'utf8')) as InstalledUpdate
    // The file is named by the pointer only, never by a path it could lead out of the folder with.
    if (typeof update.file !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(update.file) || typeof update.retrieved !== 'string') return undefined
    const path = join(folder, update.file)
    return existsSync(path) ? { update, path } : undefined
  } catch {
    return undefined
  }
}

/** A data set as the loader opens it: its shipped file, or the copy installed for it. */
export function applyInstalled(d: DatasetEntry, datasetsDir: string | undefined): void {
  d.shipped ??= { path: d.path, file_shown: d.file_shown, as_of: d.as_of }
  const installed = datasetsDir ? installedUpdate(datasetsDir, d.id) : undefined
  if (installed) {
    d.path = installed.path
    d.file_shown = installed.path
    d.as_of = installed.update.retrieved
    d.installed = installed.update
  } else {
    Object.assign(d, d.shipped)
    delete d.installed
  }
}

/** How many times installed copies were swapped in by this process: what was answered from the old rows is stale. */
let swaps = 0
export function datasetSwaps(): number {
  return swaps
}

/** The installed copies each list of data sets refused, by their pointers. */
const REFUSED = new WeakMap<DatasetEntry[], Set<string>>()

/**
 * Reopen the data sets whose installed copy changed since they were opened (a process serving
 * them calls this now and then). The new store is opened beside the old one and swapped in only
 * when every data set's rows passed their checks; otherwise the old data keeps serving and the
 * problems are returned once. The store is opened where the update command built it (storeFolder),
 * else built in `cacheDir` on this thread: a process that must build a large one pauses for it.
 * Returns the ids swapped.
 */
export function refreshDatasets(
  datasets: DatasetEntry[],
  datasetsDir: string,
  cacheDir: string,
): { swapped: string[]; problems: Problem[] } {
  const changed = datasets.filter((d) => (installedUpdate(datasetsDir, d.id)?.update.sha256 ?? null) !== (d.installed?.sha256 ?? null))
  if (changed.length === 0) return { swapped: [], problems: [] }
  // Copies refused once are not read again each time the process looks (their rows do not change).
  const pointers = changed.map((d) => `${d.id}=${installedUpdate(datasetsDir, d.id)?.update.sha256 ?? 'shipped'}`).join(' ')
  let refused = REFUSED.get(datasets)
  if (refused?.has(pointers)) return { swapped: [], problems: [] }
  // The candidates, as copies: an entry is changed only once its new store opened.
  const next = datasets.map((d) => {
    const copy: DatasetEntry = { ...d }
    applyInstalled(copy, datasetsDir)
    return copy
  })
  const problems: Problem[] = []
  const stores = openDatasets(next.map((d) => ({ id: d.id, descriptor: d.descriptor, path: d.path, shown: d.file_shown })), cacheDir, problems, [storeFolder(datasetsDir)])
  if (problems.length > 0 || stores.size !== datasets.length) {
    if (!refused) REFUSED.set(datasets, (refused = new Set()))
    refused.add(pointers)
    return { swapped: [], problems }
  }
  datasets.forEach((d, i) => {
    const n = next[i]!
    d.path = n.path
    d.file_shown = n.file_shown
    d.as_of = n.as_of
    if (n.installed) d.installed = n.installed
    else delete d.installed
    d.store = stores.get(d.id)
  })
  swaps++
  return { swapped: changed.map((d) => d.id), problems }
}
