/**
 * @module The clause engine measured against the curated analyses: runs POST /tos/analyze-text's rules
 * on every tables/tos/documents/<id>.md and compares each dimension's verdict with the curated one of
 * tables/tos/services/<id>.yaml (read through /tos/check-compliance's rules), printing the agreement per
 * dimension and overall as a Markdown table, for the development part and the held-out part apart.
 *
 * The split was fixed before any pattern was tuned against it, by a rule that needs no list: a service is
 * held out when the first byte of the SHA-256 of its id (the file name under tables/tos/services) is
 * divisible by 3 (`heldOut`). Patterns, cues and the combination may be tuned while reading the development
 * part's disagreements only; the tool prints the held-out part's figures but never its disagreements.
 * A service curated later falls into its part by the same rule.
 *
 *   node dist/tools/tos-agreement.js            print the table, and each disagreement
 *   node dist/tools/tos-agreement.js --write    also replace the block between
 *                                               <!-- tos-agreement:start --> and <!-- tos-agreement:end -->
 *                                               in docs/decisions/compliance_data.md with the table, and the
 *                                               tos-agreement-summary block of RULES.md
 *
 * test/tos/agreement.test.ts checks that the block in docs/decisions/compliance_data.md is what this computes now.
 */
import { answerHelp } from './help.js'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { answer, loadCatalog, type Catalog } from '../service/index.js'
import { ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { withOperatorLimits } from '../service/project/catalog.js'

// Only when run as a command: tools/tos-explain.ts imports the split from here and answers its own --help.
if (process.argv[1] === fileURLToPath(import.meta.url)) answerHelp(import.meta.url)

interface DimensionVerdict {
  dimension: string
  verdict: string
}

export type Part = 'development' | 'held_out'

/** The fixed split: held out when the first byte of SHA-256(service id) is divisible by 3. */
export function partOf(service: string): Part {
  return createHash('sha256').update(service).digest()[0]! % 3 === 0 ? 'held_out' : 'development'
}

export interface Comparison {
  service: string
  part: Part
  dimension: string
  curated: string
  engine: string
}

export interface Agreement {
  documents: number
  comparisons: Comparison[]
  /** Dimensions in the order answers list them. */
  dimensions: string[]
}

const START = '<!-- tos-agreement:start -->'
const END = '<!-- tos-agreement:end -->'
const SUMMARY_START = '<!-- tos-agreement-summary:start -->'
const SUMMARY_END = '<!-- tos-agreement-summary:end -->'

async function result(catalog: Catalog, operation: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const endpoint = catalog.endpoints.find((e) => e.operation_id === operation)
  if (!endpoint) throw new Error(`no endpoint ${operation}`)
  return (await answer(catalog, endpoint, body)).result as Record<string, unknown>
}

/** Every curated service with a document, the engine's verdict and the curated one per dimension. */
export async function measureAgreement(catalog: Catalog, tablesDir = TABLES_DIR): Promise<Agreement> {
  // What is measured is the verdicts, not the speed: the time limit is lifted to a minute a document
  // while the tool runs (the step limit still holds), so that a busy machine measures the same numbers.
  const limits = catalog.service.limits
  catalog.service.limits = { ...limits, milliseconds: Math.max(limits.milliseconds, 60_000) }
  try {
    return await measure(catalog, tablesDir)
  } finally {
    catalog.service.limits = limits
  }
}

async function measure(catalog: Catalog, tablesDir: string): Promise<Agreement> {
  const services = [...(catalog.families?.get('tos.services')?.members.keys() ?? [])]
  const comparisons: Comparison[] = []
  let documents = 0
  let dimensions: string[] = []
  for (const service of services) {
    const file = join(tablesDir, 'tos', 'documents', `${service}.md`)
    if (!existsSync(file)) continue
    documents++
    const curated = (await result(catalog, 'check_tos_compliance', { service })).dimensions as DimensionVerdict[]
    const engine = (await result(catalog, 'analyze_tos_text', { text: readFileSync(file, 'utf8') })).dimensions as DimensionVerdict[]
    dimensions = engine.map((d) => d.dimension)
    for (const c of curated) {
      comparisons.push({ service, part: partOf(service), dimension: c.dimension, curated: c.verdict, engine: engine.find((e) => e.dimension === c.dimension)?.verdict ?? 'missing' })
    }
  }
  return { documents, comparisons, dimensions }
}

const percent = (agreed: number, total: number) => (total === 0 ? '–' : `${((100 * agreed) / total).toFixed(1)} %`)

const rate = (cs: Comparison[]) => {
  const agreed = cs.filter((c) => c.curated === c.engine).length
  return `${agreed} / ${cs.length} | ${percent(agreed, cs.length)}`
}

/** The Markdown table: per dimension, on each part, the verdicts agreed of those compared and the rate; then overall. */
export function agreementTable(a: Agreement): string {
  const dev = a.comparisons.filter((c) => c.part === 'development')
  const held = a.comparisons.filter((c) => c.part === 'held_out')
  const lines = ['| dimension | development: agreed | rate | held out: agreed | rate |', '|---|---|---|---|---|']
  for (const d of a.dimensions) {
    lines.push(`| ${d} | ${rate(dev.filter((c) => c.dimension === d))} | ${rate(held.filter((c) => c.dimension === d))} |`)
  }
  lines.push(`| **overall** | ${rate(dev)} | ${rate(held)} |`)
  return lines.join('\n')
}

/** How often each curated verdict met each engine verdict on the development part (rows curated, columns engine). */
export function confusionTable(a: Agreement): string {
  const dev = a.comparisons.filter((c) => c.part === 'development')
  const verdicts = ['allowed', 'conditional', 'prohibited', 'silent']
  const lines = [`| curated \\ engine | ${verdicts.join(' | ')} |`, `|---|${verdicts.map(() => '---').join('|')}|`]
  for (const v of verdicts) {
    lines.push(`| ${v} | ${verdicts.map((w) => dev.filter((c) => c.curated === v && c.engine === w).length).join(' | ')} |`)
  }
  return lines.join('\n')
}

/** The block docs/decisions/compliance_data.md records, between its markers. */
export function agreementBlock(a: Agreement): string {
  return [
    START,
    `Measured on the ${a.documents} curated documents, ${parts(a)} (\`node dist/tools/tos-agreement.js --write\` rewrites this block; a test fails when it differs from what the tool computes):`,
    '',
    agreementTable(a),
    '',
    'Curated verdicts (rows) against the engine\'s (columns), all dimensions, development part only:',
    '',
    confusionTable(a),
    END,
  ].join('\n')
}

function parts(a: Agreement): string {
  const ids = (p: Part) => [...new Set(a.comparisons.filter((c) => c.part === p).map((c) => c.service))]
  return `${ids('development').length} in the development part and ${ids('held_out').length} held out (${ids('held_out').join(', ')})`
}

/** The short block RULES.md carries: the per-dimension table on both parts. */
export function summaryBlock(a: Agreement): string {
  return [SUMMARY_START, agreementTable(a), SUMMARY_END].join('\n')
}

/** The block as docs/decisions/compliance_data.md holds it now (null when it has none); `summary` for RULES.md's. */
export function recordedBlock(rules: string, summary = false): string | null {
  const [open, close] = summary ? [SUMMARY_START, SUMMARY_END] : [START, END]
  const start = rules.indexOf(open)
  const end = rules.indexOf(close)
  return start < 0 || end < start ? null : rules.slice(start, end + close.length)
}

async function main() {
  const catalog = withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR }))
  const a = await measureAgreement(catalog)
  console.log(agreementTable(a))
  console.log('')
  console.log(confusionTable(a))
  console.log('')
  // Only the development part's disagreements are printed: the held-out part is for measuring, never for tuning.
  for (const c of a.comparisons.filter((x) => x.part === 'development' && x.curated !== x.engine)) console.log(`  ${c.service} ${c.dimension}: curated ${c.curated}, engine ${c.engine}`)
  if (process.argv.includes('--write')) {
    const path = join(ROOT, 'docs', 'decisions', 'compliance_data.md')
    const rules = readFileSync(path, 'utf8')
    const old = recordedBlock(rules)
    if (old === null) throw new Error(`docs/decisions/compliance_data.md has no ${START} … ${END} block to replace`)
    writeFileSync(path, rules.replace(old, agreementBlock(a)))
    console.log('docs/decisions/compliance_data.md: agreement block rewritten')
    const summaryPath = join(ROOT, 'RULES.md')
    const summary = readFileSync(summaryPath, 'utf8')
    const oldSummary = recordedBlock(summary, true)
    if (oldSummary === null) throw new Error(`RULES.md has no ${SUMMARY_START} … ${SUMMARY_END} block to replace`)
    writeFileSync(summaryPath, summary.replace(oldSummary, summaryBlock(a)))
    console.log('RULES.md: agreement summary rewritten')
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
