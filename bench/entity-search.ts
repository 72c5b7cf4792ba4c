/**
 * @module Entity search at scale (issue 29 item 4, issue 32): the shared matcher's search
 * (entity_search, engine/functions/matching.ts) through its blocking index, on a SYNTHETIC data set of
 * 100,000 firm names. The synthetic names are the words of the real Maryland directory's firm names
 * (tables/supplier_diversity/md_mdot_directory/firms.csv) recombined by a seeded generator: they have
 * the shape of a directory (a few rare words, many common ones, legal forms) but name no firm. They
 * exist only in this process; nothing here is served or written as data.
 *
 *   npm run build --silent && node dist/bench/entity-search.js
 *
 * Prints: the time to build the index once (the first search), a monitoring check of 20 firms (the
 * median of nine after a first, cold one; target 200 ms, issue 29), and the p50/p95 of single typed queries (target 50 ms p95, issue 32). Not part of
 * `npm run bench`'s run; the lead runs it when the machine is quiet.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parse } from 'csv-parse/sync'
import { entitySearch } from '../engine/functions/matching.js'
import type { LookupEntry } from '../engine/data/tables.js'
import type { Value } from '../engine/model/types.js'
import { Dec } from '../engine/values/decimal.js'
import { loadCatalog } from '../service/index.js'
import { ROOT } from '../service/project/paths.js'

const SIZE = 100_000
const FIRMS = 20
const QUERIES = 200

/** A seeded generator (mulberry32), so every run builds the same synthetic set. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const real = parse(readFileSync(join(ROOT, 'tables', 'supplier_diversity', 'md_mdot_directory', 'firms.csv'), 'utf8'), { columns: true }) as Record<string, string>[]
const words = real.flatMap((r) => r.firm_name!.replace(/[,.]/gu, ' ').split(/\s+/u).filter((w) => w.length > 1))
const rnd = random(20261128)
const pick = () => words[Math.floor(rnd() * words.length)]!
/** SYNTHETIC rows: a name of two to four real words, never a real firm's name as a whole. */
const rows: Value[] = Array.from({ length: SIZE }, (_, i) => ({ firm_name: Array.from({ length: 2 + Math.floor(rnd() * 3) }, pick).join(' '), certification_number: `SYN-${i}` }))

const catalog = loadCatalog({ rulesDir: join(ROOT, 'rules'), tablesDir: join(ROOT, 'tables') })
const entry = catalog.tables.get('matching.entity.name_words') as LookupEntry
const wordRows = entry.history[entry.history.length - 1]!.value
const least = new Dec('0.90')
const search = (name: string) => entitySearch(wordRows, name, rows, 'firm_name', least, null)

let t = performance.now()
search('warm up')
console.log(`synthetic set of ${SIZE} names (words of the real directory recombined): index built in ${(performance.now() - t).toFixed(0)} ms`)

const typed = (i: number) => String((rows[Math.floor(rnd() * SIZE)] as Record<string, Value>).firm_name).slice(0, 8 + (i % 12))
// A monitoring check: 20 firms searched. The first check runs with the code still cold (as a
// process's first request does); a serving process has run many, so the target is read on the median
// of the next nine checks, each of 20 other firms.
const check = () => {
  const s = performance.now()
  for (let i = 0; i < FIRMS; i++) search(typed(i))
  return performance.now() - s
}
const cold = check()
const checks = Array.from({ length: 9 }, check).sort((a, b) => a - b)
console.log(`monitoring of ${FIRMS} firms: median ${checks[4]!.toFixed(1)} ms, max ${checks[8]!.toFixed(1)} ms of 9 checks; the first (cold) ${cold.toFixed(1)} ms (target 200 ms)`)

const times: number[] = []
for (let i = 0; i < QUERIES; i++) {
  const q = typed(i)
  const s = performance.now()
  search(q)
  times.push(performance.now() - s)
}
times.sort((a, b) => a - b)
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2)
console.log(`typed queries: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms (target 50 ms p95)`)
