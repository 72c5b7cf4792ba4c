/**
 * @module The in-process bench (no HTTP): start-up, one engine evaluation per rule set and endpoint
 * class, every endpoint's documented example, and a replay of every golden case, each against the
 * targets of issues 5, 10, 14 and 24.
 *
 * Each row is also measured, in the same process and the same interleaved rounds, on the baseline
 * build (bench/baseline.ts: the same request answered by the earlier commit's engine and rules), and
 * against a fixed reference workload that does not change with the code (JSON and sorting), so that
 * a row's figure can be compared across runs on a machine whose speed varies: `÷ base` and `÷ ref`.
 *
 * Every evaluation is a golden case's own input answered through `answer()` (request check, rule
 * sets, envelope), so a row measures what a caller's request costs the engine, on an input whose
 * answer the golden tests verify. Each row is timed call by call, in rounds interleaved with the
 * other rows after a warm-up round, and reports the median: other work on the machine (builds, tests)
 * moves a median less than a mean, and the minimum shows what a quiet machine gives.
 *
 *   node dist/bench/micro.js        prints the table (about 40 s: seven fresh processes for the
 *                                   cold start-up, then every row for its budget)
 *
 * `microBench()` measures and `formatMicro()` prints, so bench/run.ts can show the table beside its
 * load test.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { cpus, loadavg, tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { answer, evaluate, loadCatalog, type Catalog } from '../service/index.js'
import { check, readGolden, run, type GoldenCase, type GoldenFile } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import type { Baseline } from './baseline.js'
import type { StartupSample } from './startup.js'

export type MicroGroup = 'start-up' | 'evaluation' | 'example' | 'replay' | 'data' | 'reference'

/** The figures of one row on the baseline build, measured beside it. */
export interface BaselineFigures {
  median: number
  min: number
  p90: number
  runs: number
}

export interface MicroRow {
  group: MicroGroup
  /** What is measured, as the target names it. */
  name: string
  /** The golden case measured (file: case), where the row is one. */
  source?: string
  unit: 'µs' | 'ms'
  median: number
  min: number
  p90: number
  /** How many timed runs the figures are taken over. */
  runs: number
  /** The target of issue 5 for the median, in `unit`, where there is one. */
  target?: number
  holds?: boolean
  note?: string
  /** The same row on the baseline build, in the same run (absent where the baseline cannot answer it). */
  baseline?: BaselineFigures
  /** median ÷ the baseline's median (below 1: faster than the baseline). */
  vs_baseline?: number
  /** median ÷ the reference workload's median in the same run, both in µs. */
  vs_reference?: number
}

export interface MicroReport {
  node: string
  cpus: number
  /** Load average over the last minute when the bench started: other work on the machine adds noise. */
  load_average: number
  /** The baseline build's revision, if one was measured. */
  baseline?: string
  rows: MicroRow[]
}

/** Targets of issue 5. */
const TARGET = {
  startup_ms: 1000,
  state_us: 50,
  federal_us: 150,
  qtip_ms: 50,
  /** Issue 10. */
  grid_ms: 100,
  /** Issue 14: the couple's 97 × 97 claiming-age search. */
  ss_couple_ms: 100,
  /** Issue 14: the estimate and SSDI endpoints, engine time each. */
  ss_endpoint_us: 100,
  /** Issue 24: every endpoint's documented example (manifest `example`), in process. */
  example_ms: 50,
}

export interface MicroOptions {
  /** Fresh processes timed for the cold start-up. */
  startupRuns?: number
  /** Wall time spent timing each microsecond-scale row, over all rounds (the QTIP search gets four times as much). */
  budgetMs?: number
  /** Rounds the rows are timed in, after one round of warm-up. */
  rounds?: number
  /** The baseline build to measure each row on as well. */
  baseline?: Baseline
  /** Only the rows whose name matches (BENCH_ONLY); start-up rows are named "load + validate + compile". */
  only?: RegExp
}

/** One evaluation row: a golden case picked by its file and (part of) its name. */
interface RowSpec {
  name: string
  file: string
  /** Part of the case's name; without it, the file's first case that expects an answer. */
  caseName?: string
  unit: MicroRow['unit']
  target?: number
}

function rowSpecs(files: GoldenFile[]): RowSpec[] {
  const states = files
    .filter((f) => f.file.includes('golden/estate/state/'))
    .map((f): RowSpec => {
      const code = basename(f.file, '.yaml')
      if (code === 'ny') return { name: 'state NY near its cliff', file: f.file, caseName: 'One dollar beyond 105%', unit: 'µs', target: TARGET.state_us }
      if (code === 'pa') return { name: 'state PA, five beneficiaries', file: f.file, caseName: 'Five beneficiaries', unit: 'µs', target: TARGET.state_us }
      return { name: `state ${code === 'no_tax' ? 'without estate tax' : code.toUpperCase()}`, file: f.file, unit: 'µs', target: TARGET.state_us }
    })
  const planning = 'test/golden/estate_planning/'
  return [
    ...states,
    { name: 'federal, NY domicile beyond the cliff', file: 'test/golden/estate/federal.yaml', caseName: 'A New York domicile beyond the cliff', unit: 'µs', target: TARGET.federal_us },
    { name: 'federal, IL domicile (solved)', file: 'test/golden/estate/federal.yaml', caseName: 'An Illinois domicile', unit: 'µs', target: TARGET.federal_us },
    { name: 'federal, no state tax', file: 'test/golden/estate/federal.yaml', unit: 'µs', target: TARGET.federal_us },
    { name: 'inherited IRA schedule', file: `${planning}inherited_ira.yaml`, unit: 'µs' },
    { name: 'annual gifts', file: `${planning}annual_gifts.yaml`, unit: 'µs' },
    { name: 'GRAT, zeroed-out 2-year', file: `${planning}split_interest_trusts.yaml`, caseName: 'A zeroed-out 2-year GRAT', unit: 'µs' },
    { name: 'QTIP optimizer full search (NY $20M)', file: `${planning}qtip_election.yaml`, caseName: 'New York $20,000,000 estate', unit: 'ms', target: TARGET.qtip_ms },
    { name: 'ADA requirements, California overlay', file: 'test/golden/ada/requirements.yaml', caseName: 'In California', unit: 'µs' },
    { name: 'Form 8606, backdoor Roth with pro-rata', file: 'test/golden/ira/form_8606.yaml', caseName: 'pro-rata trap', unit: 'µs' },
    { name: 'equity tax, ISO crossover bisection', file: 'test/golden/equity/tax.yaml', caseName: '1,569 ISO shares', unit: 'ms' },
    { name: 'flight compensation, EU261 connection (Bossen)', file: 'test/golden/flight/compensation.yaml', caseName: 'Bossen', unit: 'µs' },
    { name: '83(b) election, break-even bisection', file: 'test/golden/equity/section_83b.yaml', caseName: "founder's grant", unit: 'ms' },
    { name: 'Social Security filing strategy, couple 97 × 97', file: 'test/golden/social_security/filing_strategy.yaml', caseName: 'all 97 × 97 pairs', unit: 'ms', target: TARGET.ss_couple_ms },
    { name: 'SSDI estimate, 7-year record, two children, offset', file: 'test/golden/social_security/ssdi_estimate.yaml', caseName: 'two children and workers', unit: 'µs', target: TARGET.ss_endpoint_us },
    { name: 'SSDI work credits, 20/40 rule', file: 'test/golden/social_security/work_credits.yaml', caseName: 'A 40-year-old with steady recent work', unit: 'µs', target: TARGET.ss_endpoint_us },
    // Issue 16's data features: each a search over a data set through the shared matcher.
    { name: 'FDA warning letters, company search (3,374 letters)', file: 'test/golden/fda/warning_letters.yaml', caseName: 'Novo Nordisk since 2025', unit: 'ms' },
    { name: 'FDA enforcement history, Walmart', file: 'test/golden/fda/enforcement_history.yaml', caseName: 'Walmart', unit: 'ms' },
    { name: 'supplier certification, 1,000 firms', file: 'test/golden/supplier_diversity/certifications.yaml', caseName: 'Adams Legacy as a DBE', unit: 'ms' },
    { name: 'supplier monitoring, three firms', file: 'test/golden/supplier_diversity/monitoring.yaml', caseName: 'Two listed firms and one not found', unit: 'ms' },
    { name: 'credential verification by name, state, profession', file: 'test/golden/credentials/verify.yaml', caseName: 'A physician found by name', unit: 'ms' },
    { name: 'terms of service, check by company name', file: 'test/golden/tos/check_compliance.yaml', caseName: 'GitHub by its company name', unit: 'ms' },
    { name: 'patent status with the term computed', file: 'test/golden/patent/status.yaml', caseName: "Eliquis' formulation patent", unit: 'ms' },
  ]
}

function findCase(files: GoldenFile[], spec: RowSpec): { file: GoldenFile; c: GoldenCase } {
  const file = files.find((f) => f.file === spec.file)
  const c = file?.cases.find((x) => (spec.caseName ? x.name.includes(spec.caseName) : x.expect !== undefined))
  if (!file || !c) throw new Error(`bench: no golden case ${spec.caseName ?? '(first answered)'} in ${spec.file}`)
  return { file, c }
}

/** The median, minimum and 90th percentile of timings, in their unit. */
function summarize(samples: number[]): Pick<MicroRow, 'median' | 'min' | 'p90' | 'runs'> {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
  return { median: at(0.5), min: sorted[0]!, p90: at(0.9), runs: sorted.length }
}

const nowMs = () => Number(process.hrtime.bigint()) / 1e6

/** Time `fn` call by call until both the budget is spent and `minRuns` are taken. */
async function time(fn: () => Promise<unknown>, budgetMs: number, minRuns: number): Promise<number[]> {
  const samples: number[] = []
  const until = nowMs() + budgetMs
  while (samples.length < minRuns || nowMs() < until) {
    const t0 = nowMs()
    await fn()
    samples.push(nowMs() - t0)
  }
  return samples
}

/** One fresh process that loads the catalog once (a build's bench/startup.js); `tmp` as its temporary directory. */
function startupSample(dist: string, tmp?: string): StartupSample {
  const child = spawnSync(process.execPath, [join(dist, 'bench', 'startup.js')], { cwd: join(dist, '..'), encoding: 'utf8', env: tmp ? { ...process.env, TMPDIR: tmp } : process.env })
  if (child.status !== 0) throw new Error(`bench: start-up run failed (${dist}): ${child.stderr}`)
  return JSON.parse(child.stdout.trim()) as StartupSample
}

/**
 * Cold start-up: each run a fresh node process that loads the catalog once (bench/startup.ts), this
 * build's and the baseline's in turn. "Cold" is a new process with the on-disk caches (parsed YAML,
 * compiled validators) filled, as every start after the first one of a deployment finds them: one
 * untimed process of each fills them first. The first start of all, with empty caches (a fresh
 * temporary directory), is its own row, taken once.
 */
function startupRows(runs: number, baseline?: Baseline): MicroRow[] {
  const dist = fileURLToPath(new URL('..', import.meta.url))
  const ours: StartupSample[] = []
  const theirs: StartupSample[] = []
  startupSample(dist)
  if (baseline) startupSample(baseline.dist)
  for (let i = 0; i < runs; i++) {
    ours.push(startupSample(dist))
    if (baseline) theirs.push(startupSample(baseline.dist))
  }
  const first = startupSample(dist, mkdtempSync(join(tmpdir(), 'bench-empty-cache-')))
  const firstBase = baseline ? startupSample(baseline.dist, mkdtempSync(join(tmpdir(), 'bench-empty-cache-'))) : undefined
  const withBase = (row: MicroRow, pick: (s: StartupSample) => number): MicroRow => {
    if (!baseline) return row
    const b = summarize(theirs.map(pick))
    return { ...row, baseline: b, vs_baseline: row.median / b.median }
  }
  const load = summarize(ours.map((s) => s.load_ms))
  const boot = summarize(ours.map((s) => s.boot_and_import_ms + s.load_ms))
  const what = `${ours[0]!.rule_sets} rule sets, ${ours[0]!.tables} tables`
  const once = (ms: number) => ({ median: ms, min: ms, p90: ms, runs: 1 })
  const firstRow: MicroRow = { group: 'start-up', name: 'load + validate + compile, first start (empty caches)', unit: 'ms', ...once(first.load_ms), note: 'a fresh temporary directory: YAML parsed, schemas compiled, both kept' }
  if (firstBase) Object.assign(firstRow, { baseline: once(firstBase.load_ms), vs_baseline: first.load_ms / firstBase.load_ms })
  return [
    withBase({ group: 'start-up', name: 'load + validate + compile, cold', unit: 'ms', ...load, target: TARGET.startup_ms, holds: load.median < TARGET.startup_ms, note: `fresh process each run, caches filled; ${what}` }, (s) => s.load_ms),
    withBase({ group: 'start-up', name: 'node boot to catalog ready, cold', unit: 'ms', ...boot, note: 'includes node itself and the module imports' }, (s) => s.boot_and_import_ms + s.load_ms),
    firstRow,
  ]
}

/** The same load repeated in this process: what a warm JIT makes of it (not what start-up pays). */
function warmLoadRow(runs: number): MicroRow {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = nowMs()
    loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
    samples.push(nowMs() - t0)
  }
  return { group: 'start-up', name: 'load + validate + compile, warm', unit: 'ms', ...summarize(samples), note: 'repeated in one process; for comparison only' }
}

interface Timed {
  spec: RowSpec
  group: MicroGroup
  source: string
  call: () => Promise<unknown>
  samples: number[]
  /** The same request on the baseline build, timed in the same rounds. */
  baseline?: { call: () => Promise<unknown>; samples: number[] }
}

/** What the bench needs of an engine build: this one's, or the baseline's loaded from its dist. */
interface Engine {
  catalog: Catalog
  answer: (catalog: Catalog, endpoint: Catalog['endpoints'][number], body: unknown) => Promise<unknown>
}

/** The baseline build's engine and catalog, in this process; undefined if it cannot be loaded. */
async function baselineEngine(baseline: Baseline): Promise<Engine | undefined> {
  try {
    // Since the house move (issue 25) the service's entry is service/index.js; a build before it has
    // engine/index.js only.
    const entry = existsSync(join(baseline.dist, 'service', 'index.js')) ? join(baseline.dist, 'service', 'index.js') : join(baseline.dist, 'engine', 'index.js')
    const engine = (await import(pathToFileURL(entry).href)) as { loadCatalog: typeof loadCatalog; answer: Engine['answer'] }
    return { catalog: engine.loadCatalog({ rulesDir: join(baseline.dir, 'rules'), tablesDir: join(baseline.dir, 'tables') }), answer: engine.answer }
  } catch (error) {
    console.error(`bench: the baseline's engine did not load in process: ${(error as Error).message.split('\n')[0]}`)
    return undefined
  }
}

/** The same request answered by the baseline, if it answers it at all (a field it did not know yet is a refusal). */
async function baselineCall(base: Engine | undefined, operationId: string, input: unknown): Promise<Timed['baseline']> {
  const endpoint = base?.catalog.endpoints.find((e) => e.operation_id === operationId)
  if (!base || !endpoint) return undefined
  const call = () => base.answer(base.catalog, endpoint, input)
  try {
    await call()
  } catch {
    return undefined
  }
  return { call, samples: [] }
}

/**
 * A fixed workload that does not depend on this repository's code: a JSON round trip of a fixed
 * object and a sort. Its time moves only with the machine (load, CPU frequency), so a row's ratio
 * to it can be compared between runs where absolute figures cannot.
 */
const REFERENCE_DATA = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row ${i}`, amount: (i * 7919) % 10007, tags: ['a', 'b', String(i % 13)] })))
function referenceWorkload(): Promise<number> {
  const rows = JSON.parse(REFERENCE_DATA) as { amount: number }[]
  rows.sort((a, b) => a.amount - b.amount)
  return Promise.resolve(JSON.stringify(rows).length)
}

/** A row's case, checked against its golden answer: a case whose answer is wrong is not a measure. */
async function prepare(catalog: Catalog, files: GoldenFile[], spec: RowSpec, base?: Engine): Promise<Timed> {
  const { file, c } = findCase(files, spec)
  const mismatches = check(c, await run(catalog, file.endpoint, c.input))
  if (mismatches.length > 0) throw new Error(`bench: ${file.file}: ${c.name} does not match its golden answer`)
  const endpoint = catalog.endpoints.find((e) => e.operation_id === file.endpoint)!
  return { spec, group: 'evaluation', source: `${file.file}: ${c.name}`, call: () => answer(catalog, endpoint, c.input), samples: [], baseline: await baselineCall(base, file.endpoint, c.input) }
}

/**
 * Every endpoint's documented example (the manifest's `example`, the body OpenAPI and the docs page
 * send), answered in process: issue 24 wants each under 50 ms. An example that does not answer is a
 * failed row, not a skipped one.
 */
async function exampleRows(catalog: Catalog, base?: Engine): Promise<{ timed: Timed[]; failed: MicroRow[] }> {
  const rows: Timed[] = []
  const failed: MicroRow[] = []
  for (const endpoint of catalog.endpoints) {
    if (!endpoint.example) continue
    const input = endpoint.example
    const call = () => answer(catalog, endpoint, input)
    try {
      await call()
    } catch (error) {
      const name = `example ${endpoint.operation_id}`
      failed.push({ group: 'example', name, source: `${endpoint.file}: example`, unit: 'ms', median: NaN, min: NaN, p90: NaN, runs: 0, target: TARGET.example_ms, holds: false, note: `not answered: ${(error as Error).message}` })
      continue
    }
    rows.push({
      spec: { name: `example ${endpoint.operation_id}`, file: endpoint.file, unit: 'ms', target: TARGET.example_ms },
      group: 'example',
      source: `${endpoint.file}: example`,
      call,
      samples: [],
      baseline: await baselineCall(base, endpoint.operation_id, input),
    })
  }
  return { timed: rows, failed }
}

/**
 * Time every row in interleaved rounds (each round gives each row a slice of the budget), so that a
 * burst of other work on the machine lands on many rows a little rather than on one row wholly.
 * The first round is the warm-up and is not kept.
 */
async function timeRows(rows: Timed[], budgetMs: number, rounds: number): Promise<void> {
  for (let round = 0; round <= rounds; round++) {
    for (const row of rows) {
      const slow = row.spec.unit === 'ms'
      const slice = (slow ? budgetMs * 4 : budgetMs) / rounds
      // The row and its baseline back to back, so both see the same moment of the machine.
      const samples = await time(row.call, slice, slow ? 2 : 40)
      if (round > 0) row.samples.push(...samples)
      if (row.baseline) {
        const before = await time(row.baseline.call, slice, slow ? 2 : 40)
        if (round > 0) row.baseline.samples.push(...before)
      }
    }
  }
}

function evaluationRow(row: Timed): MicroRow {
  const { spec } = row
  const scale = (samples: number[]) => samples.map((s) => (spec.unit === 'µs' ? s * 1000 : s))
  const stats = summarize(scale(row.samples))
  const out: MicroRow = { group: row.group, name: spec.name, source: row.source, unit: spec.unit, ...stats }
  if (spec.target !== undefined) {
    out.target = spec.target
    out.holds = stats.median < spec.target
  }
  if (row.baseline && row.baseline.samples.length > 0) {
    out.baseline = summarize(scale(row.baseline.samples))
    out.vs_baseline = stats.median / out.baseline.median
  }
  return out
}

/** Every golden case answered once per pass, several passes; the median pass. */
async function replayRow(catalog: Catalog, files: GoldenFile[]): Promise<MicroRow> {
  const cases = files.flatMap((f) => f.cases.map((c) => ({ endpoint: f.endpoint, c })))
  const pass = async () => {
    let failed = 0
    for (const { endpoint, c } of cases) if (check(c, await run(catalog, endpoint, c.input)).length > 0) failed++
    return failed
  }
  const failed = await pass()
  if (failed > 0) throw new Error(`bench: ${failed} golden case(s) do not match`)
  // A pass is tens of milliseconds: the first one above was its warm-up.
  const samples = await time(pass, 2000, 5)
  return { group: 'replay', name: `replay every golden case (${cases.length})`, unit: 'ms', ...summarize(samples), note: 'warm; answer() and the comparison' }
}

/** Measure start-up, each evaluation row and the replay. @api public */
export async function microBench(options: MicroOptions = {}): Promise<MicroReport> {
  const budgetMs = options.budgetMs ?? 600
  const wanted = (name: string) => !options.only || options.only.test(name)
  const baseline = options.baseline
  const report: MicroReport = { node: process.version, cpus: cpus().length, load_average: Number(loadavg()[0]!.toFixed(2)), baseline: baseline && `${baseline.rev} (${baseline.commit.slice(0, 12)})`, rows: [] }
  // Cold first, before this process has loaded anything that could share a cache with the children.
  if (wanted('load + validate + compile')) {
    report.rows.push(...startupRows(options.startupRuns ?? 7, baseline))
    report.rows.push(warmLoadRow(5))
  }
  const catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
  const base = baseline ? await baselineEngine(baseline) : undefined
  const { files, problems } = readGolden(GOLDEN_DIR, ROOT)
  if (problems.length > 0) throw new Error(`bench: malformed golden files: ${problems.join('; ')}`)
  const reference: Timed = { spec: { name: 'reference workload (JSON round trip and sort, fixed)', file: '', unit: 'µs' }, group: 'reference', source: 'bench/micro.ts', call: referenceWorkload, samples: [] }
  const timed: Timed[] = [reference]
  for (const spec of rowSpecs(files)) if (wanted(spec.name)) timed.push(await prepare(catalog, files, spec, base))
  const examples = await exampleRows(catalog, base)
  timed.push(...examples.timed.filter((row) => wanted(row.spec.name)))
  await timeRows(timed, budgetMs, options.rounds ?? 5)
  const rows = [...timed.map(evaluationRow), ...examples.failed.filter((row) => wanted(row.name))]
  if (wanted("couple's claiming-age grid")) rows.push(await gridRow(budgetMs))
  if (wanted('replay every golden case')) rows.push(await replayRow(catalog, files))
  if (wanted('data set')) rows.push(...dataRows())
  report.rows.push(...rows)
  // Each row against the reference workload, both in µs.
  const ref = rows[0]!.median
  for (const row of report.rows) if (row.group !== 'reference' && row.group !== 'data') row.vs_reference = (row.unit === 'ms' ? row.median * 1000 : row.median) / ref
  return report
}

/** The heap in use after a full collection, in MiB (gc exposed for this process by a V8 flag). */
function heapMiB(): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

/**
 * What a 10,000-row table costs at start-up and in each worker's heap: as a data set (CSV into the
 * shared SQLite store: the first process builds it, every later one opens it) and, for comparison,
 * as a YAML lookup (parsed and held by every worker). Synthetic rows made here, in a temp folder.
 */
export function dataRows(): MicroRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'bench-data-'))
  const rules = join(dir, 'rules')
  const tables = join(dir, 'tables', 'synthetic')
  mkdirSync(rules, { recursive: true })
  mkdirSync(tables, { recursive: true })
  copyFileSync(join(RULES_DIR, 'service.yaml'), join(rules, 'service.yaml'))
  const n = 10_000
  const csv = ['code,name,lat,lon,elevation']
  const yamlRows: string[] = []
  for (let i = 0; i < n; i++) {
    const code = `S${String(i).padStart(5, '0')}`
    csv.push(`${code},Synthetic site ${i},${(i % 180) - 90}.${i % 997},${(i % 360) - 180}.${i % 991},${i % 4000}`)
    yamlRows.push(`          - { code: ${code}, name: "Synthetic site ${i}", lat: "${(i % 180) - 90}.${i % 997}", lon: "${(i % 360) - 180}.${i % 991}", elevation: "${i % 4000}" }`)
  }
  writeFileSync(join(tables, 'sites.csv'), csv.join('\n') + '\n')
  const head = (kind: string) => `formula_version: "${'2026.1'}"\ntitle: Synthetic bench rows (not data)\nas_of: "2026-01-01"\ntables:\n  sites:\n    kind: ${kind}\n    label: Synthetic sites (bench only)\n`
  const datasetYaml = `${head('dataset')}    file: sites.csv\n    format: csv\n    columns: { code: text, name: text, lat: amount, lon: amount, elevation: integer }\n    key: [code]\n    source: { title: "Synthetic rows made by bench/micro.ts" }\n    licence: "none: synthetic"\n    retrieved: "2026-01-01"\n`
  const lookupYaml = `${head('lookup')}    reference: { title: "Synthetic rows made by bench/micro.ts" }\n    keys: [code]\n    columns: { name: text, lat: amount, lon: amount, elevation: amount }\n    values:\n      "2026-01-01":\n        rows:\n${yamlRows.join('\n')}\n`
  const measure = (yaml: string, cache: string) => {
    writeFileSync(join(tables, 'sites.yaml'), yaml)
    const before = heapMiB()
    const t0 = nowMs()
    const catalog = loadCatalog({ rulesDir: rules, tablesDir: join(dir, 'tables'), dataCacheDir: cache })
    const ms = nowMs() - t0
    const heap = heapMiB() - before
    return { ms, heap, keep: catalog }
  }
  const cache = join(dir, 'cache')
  const build = measure(datasetYaml, cache)
  const reopen = measure(datasetYaml, cache)
  const lookup = measure(lookupYaml, cache)
  const row = (name: string, m: { ms: number; heap: number }, note: string): MicroRow => ({
    group: 'data',
    name,
    unit: 'ms',
    median: m.ms,
    min: m.ms,
    p90: m.ms,
    runs: 1,
    note: `${note}; heap held after load: ${m.heap.toFixed(1)} MiB`,
  })
  return [
    row('10,000-row data set, first load (check rows, build the store)', build, 'once per change of the data, by the first process'),
    row('10,000-row data set, each later worker (open the store)', reopen, 'the store is shared through the page cache'),
    row('10,000-row YAML lookup, each worker', lookup, 'for comparison: parsed and held by every worker'),
  ]
}

/**
 * The couple's claiming-age grid of issue 10 (test/fixtures/grid, a fixture with made-up figures):
 * 97 × 97 pairs of claiming ages, each person's stream a 40-year loop, the best pair by argmax.
 * Its answer is checked by test/engine/grid.test.ts against a direct computation.
 */
async function gridRow(budgetMs: number): Promise<MicroRow> {
  const fixture = join(ROOT, 'test', 'fixtures', 'grid')
  const catalog = loadCatalog({ rulesDir: join(fixture, 'rules'), tablesDir: join(fixture, 'tables') })
  const input = { first_benefit: 2000, second_benefit: 1200 }
  const call = () => evaluate(catalog, 'couple.grid', input)
  await time(call, budgetMs, 3)
  const stats = summarize(await time(call, budgetMs * 4, 10))
  return {
    group: 'evaluation',
    name: "couple's claiming-age grid, 97 × 97 pairs, 40-year inner loop (fixture)",
    source: 'test/fixtures/grid/rules/couple/grid.yaml',
    unit: 'ms',
    ...stats,
    target: TARGET.grid_ms,
    holds: stats.median < TARGET.grid_ms,
  }
}

/** The report as a plain-text table. @api public */
export function formatMicro(report: MicroReport): string {
  const fmt = (v: number, unit: MicroRow['unit']) => (unit === 'µs' || v < 10 ? v.toFixed(1) : v.toFixed(0))
  const header = ['', 'row', 'median', 'min', 'p90', 'runs', 'base median', '÷ base', '÷ ref', 'target', 'holds']
  const lines = report.rows.map((r) => [
    r.group,
    r.name,
    r.runs === 0 ? 'no answer' : `${fmt(r.median, r.unit)} ${r.unit}`,
    r.runs === 0 ? '' : `${fmt(r.min, r.unit)} ${r.unit}`,
    r.runs === 0 ? '' : `${fmt(r.p90, r.unit)} ${r.unit}`,
    String(r.runs),
    r.baseline ? `${fmt(r.baseline.median, r.unit)} ${r.unit}` : '',
    r.vs_baseline === undefined ? '' : r.vs_baseline.toFixed(2),
    r.vs_reference === undefined || Number.isNaN(r.vs_reference) ? '' : r.vs_reference.toFixed(r.vs_reference < 10 ? 2 : 0),
    r.target === undefined ? '' : `< ${r.target} ${r.unit}`,
    r.holds === undefined ? '' : r.holds ? 'pass' : 'FAIL',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const pad = (cells: string[]) => cells.map((c, i) => (i >= 2 && i <= 8 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd()
  const missed = report.rows.filter((r) => r.holds === false).map((r) => r.name)
  const unanswered = report.rows.filter((r) => r.runs === 0).map((r) => `${r.name}: ${r.note}`)
  return [
    `micro bench (in process, no HTTP): node ${report.node}, ${report.cpus} cpus, load average ${report.load_average} at start; baseline ${report.baseline ?? 'none'} (÷ base: median ÷ the baseline's, same rounds; ÷ ref: median ÷ the fixed reference workload's)`,
    pad(header),
    ...lines.map(pad),
    ...unanswered,
    missed.length === 0 ? 'every target holds' : `targets missed: ${missed.join('; ')}`,
  ].join('\n')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await microBench({ only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, 'i') : undefined })
  console.log(formatMicro(report))
}
