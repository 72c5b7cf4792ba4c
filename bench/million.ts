/**
 * @module A data set at the size of the full NPPES file, measured: a synthetic file of a million rows
 * or more with the shape of the NPPES providers (a 10-digit NPI, individuals and organisations,
 * names, credential, taxonomy, state, city, enumeration date) is imported into the data set store
 * (engine/data/store.ts: checked, then written to SQLite with its key and words index), then a
 * lookup by NPI (`rows`, the key index) and a search by name (`search`, the FTS5 words index) are
 * each timed over many random queries. Prints the import time, the store's size and each query's
 * p50 / p99 / max, with the run's commit and load (bench/baseline.ts).
 *
 * The rows are SYNTHETIC: names are made of generated syllables drawn with Zipf frequencies (some
 * surnames and words common, most rare, as in the real file), never real records; the file is
 * written under the temporary folder and removed, and is never served.
 *
 *   npm run build && node dist/bench/million.js [ROWS=1000000] [QUERIES=5000]
 *
 * BENCH_COMPARE=<another build's dist/engine/data/store.js> also opens the same file with that build's
 * store code (importing it when its store is not in the cache, timed) and times its search by name in
 * the same run, query by query alternately with this build's, counting the searches whose answers
 * differ: a same-run baseline (e.g. main's build beside a branch's).
 *
 * Targets (issue 29): a lookup by number and a search by name each within 10 ms at p99.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, readdirSync, createWriteStream } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { once } from 'node:events'
import { openDatasets } from '../engine/data/store.js'
import type { DatasetDescriptor } from '../engine/data/rows.js'
import type { Problem } from '../engine/errors.js'
import { runInfo, finishRunInfo } from './baseline.js'
import { given, ORGANISATION, pick, random, STATES, surname, word } from './synthetic-names.js'

const ROWS = Number(process.argv[2] ?? 1_000_000)
const QUERIES = Number(process.argv[3] ?? 5000)

const FORMS = ['LLC', 'INC', 'PC', 'PLLC', 'PA', 'LTD', '']
const CREDENTIALS = ['MD', 'DO', 'NP', 'PA-C', 'DDS', 'RN', 'PT', 'DC', 'OD', 'PHARMD', '']
const TAXONOMIES = [['207R00000X', 'Internal Medicine'], ['208D00000X', 'General Practice'], ['363L00000X', 'Nurse Practitioner'], ['1223G0001X', 'Dentist, General Practice'], ['225100000X', 'Physical Therapist'], ['261QD0000X', 'Clinic/Center Dental'], ['333600000X', 'Pharmacy']] as const

const descriptor: DatasetDescriptor = {
  file: 'providers.csv',
  format: 'csv',
  columns: { npi: 'text', enumeration_type: 'text', name: 'text', credential: 'text', taxonomy_code: 'text', taxonomy_desc: 'text', state: 'text', city: 'text', enumeration_date: 'date' },
  key: ['npi'],
  search: ['name'],
}

async function writeFile(path: string): Promise<{ npis: string[]; names: string[] }> {
  // Every 97th row's number is a lookup, so that each timed lookup asks a number not asked before in
  // the run: a store keeps the answers of its key queries (engine/data/store.ts KeptAnswers), and a
  // number asked again would time that memory, not the index.
  const out = createWriteStream(path)
  out.write(`${Object.keys(descriptor.columns).join(',')}\n`)
  const npis: string[] = []
  const names: string[] = []
  for (let i = 0; i < ROWS; i++) {
    const organisation = random() < 0.25
    const npi = String(1_000_000_000 + i * 7 + Math.floor(random() * 7))
    const name = organisation ? `${surname()} ${pick(ORGANISATION)} ${pick(ORGANISATION)} ${pick(FORMS)}`.trim() : `${given()} ${random() < 0.4 ? `${given().slice(0, 1)} ` : ''}${surname()}`
    const [code, desc] = pick(TAXONOMIES)
    const day = `${2005 + Math.floor(random() * 20)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`
    const line = `${npi},${organisation ? 'NPI-2' : 'NPI-1'},${name},${organisation ? '' : pick(CREDENTIALS)},${code},${desc.includes(',') ? `"${desc}"` : desc},${pick(STATES)},${word(300_000 + Math.floor(random() * 3000))},${day}\n`
    if (!out.write(line)) await once(out, 'drain')
    // Every 997th row's name is kept as a query, as a caller types it; every 97th row's number.
    if (i % 97 === 0) npis.push(npi)
    if (i % 997 === 0) names.push(name)
  }
  out.end()
  await once(out, 'finish')
  return { npis, names }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const ms = (x: number) => x.toFixed(3)

async function main(): Promise<void> {
  const info = runInfo()
  // BENCH_DIR keeps the file and its store between runs (a second run reuses the store, so only the
  // queries are timed again); by default both go under the temporary folder and are removed.
  const kept = process.env.BENCH_DIR
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'million-'))
  try {
    mkdirSync(dir, { recursive: true })
    const path = join(dir, 'providers.csv')
    const { npis, names } = await writeFile(path)
    const fileBytes = statSync(path).size
    const problems: Problem[] = []
    const cache = join(dir, 'cache')
    const stores = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.endsWith('.sqlite')) : [])
    const before = stores().length
    const started = performance.now()
    const store = openDatasets([{ id: 'nppes_synthetic', descriptor, path, shown: 'providers.csv' }], cache, problems).get('nppes_synthetic')
    const importMs = performance.now() - started
    const reused = stores().length === before
    if (!store || problems.length > 0) throw new Error(`the import failed: ${problems.map((p) => p.message).join('; ')}`)
    const storeBytes = readdirSync(cache).reduce((n, f) => n + statSync(join(cache, f)).size, 0)
    // Each query's wall time, and its CPU time (the process's user + system time around it): on a
    // shared machine the CPU time is what the query itself costs, the wall time adds the waits.
    const cpu: Record<string, number[]> = {}
    const time = (what: string, run: (i: number) => unknown, reset = () => {}): number[] => {
      for (let i = 0; i < 200; i++) run(i)
      reset()
      const t: number[] = []
      const c: number[] = (cpu[what] = [])
      for (let i = 0; i < QUERIES; i++) {
        const s = performance.now()
        const c0 = process.cpuUsage()
        run(i)
        const used = process.cpuUsage(c0)
        t.push(performance.now() - s)
        c.push((used.user + used.system) / 1000)
      }
      c.sort((a, b) => a - b)
      return t.sort((a, b) => a - b)
    }
    let found = 0
    // The warm-up's numbers and the timed ones all differ (see writeFile), while there are enough.
    let nextNumber = 0
    const byNumber = time('number', () => (found += store.rows([npis[nextNumber++ % npis.length]!]).length), () => (found = 0))
    // As typed: the name in lower case, a letter dropped from its last word.
    const typed = names.map((n) => n.toLowerCase().replace(/.(\s*)$/, '$1'))
    let hits = 0
    const byName = time('name', (i) => {
      const rows = store.search(typed[i % typed.length]!, 50)
      if (rows.some((r) => r.name === names[i % names.length])) hits++
    }, () => (hits = 0))
    // The same searches with another build's store code, alternating query by query with this one's.
    const compare = process.env.BENCH_COMPARE
    let compared: { importMs: number; reused: boolean; ours: number[][]; theirs: number[][]; differ: number } | undefined
    if (compare) {
      const other = (await import(pathToFileURL(compare).href)) as { openDatasets: typeof openDatasets }
      // Its own folder, so the store size above stays this build's.
      const theirCache = join(dir, 'compare-cache')
      const theirStores = () => (existsSync(theirCache) ? readdirSync(theirCache).filter((f) => f.endsWith('.sqlite')) : [])
      const before2 = theirStores().length
      const s2 = performance.now()
      const theirStore = other.openDatasets([{ id: 'nppes_synthetic', descriptor, path, shown: 'providers.csv' }], theirCache, problems).get('nppes_synthetic')
      const importMs2 = performance.now() - s2
      if (!theirStore || problems.length > 0) throw new Error(`the comparison's import failed: ${problems.map((p) => p.message).join('; ')}`)
      const measure = (s: typeof store, text: string): [number, number, string] => {
        const w = performance.now()
        const c0 = process.cpuUsage()
        const rows = s.search(text, 50)
        const used = process.cpuUsage(c0)
        return [performance.now() - w, (used.user + used.system) / 1000, JSON.stringify(rows)]
      }
      for (let i = 0; i < 200; i++) (measure(store, typed[i % typed.length]!), measure(theirStore, typed[i % typed.length]!))
      const ours: number[][] = [[], []]
      const theirs: number[][] = [[], []]
      let differ = 0
      for (let i = 0; i < QUERIES; i++) {
        const text = typed[i % typed.length]!
        // Alternate which goes first, so neither always finds the other's pages warm.
        const [a, b] = i % 2 === 0 ? [measure(store, text), measure(theirStore, text)] : (([y, x]) => [x, y])([measure(theirStore, text), measure(store, text)])
        ours[0]!.push(a[0]), ours[1]!.push(a[1]), theirs[0]!.push(b[0]), theirs[1]!.push(b[1])
        if (a[2] !== b[2]) differ++
      }
      for (const list of [...ours, ...theirs]) list.sort((x, y) => x - y)
      compared = { importMs: importMs2, reused: theirStores().length === before2, ours, theirs, differ }
    }
    const end = finishRunInfo(info)
    const row = (what: string, t: number[], c: number[]) => `| ${what} | ${ms(quantile(t, 0.5))} | ${ms(quantile(t, 0.99))} | ${ms(t[t.length - 1]!)} | ${ms(quantile(c, 0.5))} | ${ms(quantile(c, 0.99))} | ${quantile(t, 0.99) <= 10 ? 'yes' : '**no**'} |`
    console.log(`commit ${info.commit}${info.dirty ? ' (dirty)' : ''}, Node ${info.node}, ${info.cores} cores, load ${info.load_before.join('/')} → ${end.load_after?.join('/')}`)
    console.log(`${ROWS.toLocaleString('en-US')} synthetic rows, file ${(fileBytes / 2 ** 20).toFixed(0)} MiB; ${reused ? `store reused from BENCH_DIR (opened in ${importMs.toFixed(0)} ms)` : `import (check + store + indexes) ${(importMs / 1000).toFixed(1)} s`}; store ${(storeBytes / 2 ** 20).toFixed(0)} MiB`)
    console.log(`| Query (${QUERIES.toLocaleString('en-US')} each) | p50 ms | p99 ms | max ms | CPU p50 ms | CPU p99 ms | p99 ≤ 10 ms |`)
    console.log('|---|---|---|---|---|---|---|')
    console.log(row('lookup by NPI (key index)', byNumber, cpu.number!))
    console.log(row('search by name, 50 best (words index)', byName, cpu.name!))
    if (compared) {
      console.log(row('search by name, this build (alternating)', compared.ours[0]!, compared.ours[1]!))
      console.log(row(`search by name, ${compare} (alternating)`, compared.theirs[0]!, compared.theirs[1]!))
    }
    console.log(`lookups found ${found} rows (each a number not asked before: ${Math.min(QUERIES + 200, npis.length) === QUERIES + 200 ? "yes" : "no, too few rows"}); the searched name was among the 50 best in ${hits} of ${QUERIES} searches`)
    if (compared) console.log(`comparison build: ${compared.reused ? 'store reused' : `import ${(compared.importMs / 1000).toFixed(1)} s`}; answers differed in ${compared.differ} of ${QUERIES} searches`)
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
