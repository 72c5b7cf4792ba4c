/**
 * @module The clause engine measured against the curated analyses: runs POST /tos/analyze-text's rules
 * on every tables/tos/documents/<id>.md and compares each dimension's verdict with the curated one of
 * tables/tos/services/<id>.yaml (read through /tos/check-compliance's rules), printing the agreement per
 * dimension and overall as a Markdown table.
 *
 *   node dist/tools/tos-agreement.js            print the table, and each disagreement
 *   node dist/tools/tos-agreement.js --write    also replace the block between
 *                                               <!-- tos-agreement:start --> and <!-- tos-agreement:end -->
 *                                               in docs/decisions/compliance_data.md with the table
 *
 * test/tos/agreement.test.ts checks that the block in docs/decisions/compliance_data.md is what this computes now.
 */
import { answerHelp } from './help.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { answer, loadCatalog, type Catalog } from '../service/index.js'
import { ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { withOperatorLimits } from '../service/project/catalog.js'

answerHelp(import.meta.url)

interface DimensionVerdict {
  dimension: string
  verdict: string
}

export interface Comparison {
  service: string
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
      comparisons.push({ service, dimension: c.dimension, curated: c.verdict, engine: engine.find((e) => e.dimension === c.dimension)?.verdict ?? 'missing' })
    }
  }
  return { documents, comparisons, dimensions }
}

const percent = (agreed: number, total: number) => (total === 0 ? '–' : `${((100 * agreed) / total).toFixed(1)} %`)

/** The Markdown table: per dimension the documents compared, the verdicts agreed and the rate; then overall. */
export function agreementTable(a: Agreement): string {
  const lines = ['| dimension | documents | agreed | rate |', '|---|---|---|---|']
  for (const d of a.dimensions) {
    const mine = a.comparisons.filter((c) => c.dimension === d)
    const agreed = mine.filter((c) => c.curated === c.engine).length
    lines.push(`| ${d} | ${mine.length} | ${agreed} | ${percent(agreed, mine.length)} |`)
  }
  const agreed = a.comparisons.filter((c) => c.curated === c.engine).length
  lines.push(`| **overall** | ${a.comparisons.length} | ${agreed} | ${percent(agreed, a.comparisons.length)} |`)
  return lines.join('\n')
}

/** How often each curated verdict met each engine verdict (rows curated, columns engine). */
export function confusionTable(a: Agreement): string {
  const verdicts = ['allowed', 'conditional', 'prohibited', 'silent']
  const lines = [`| curated \\ engine | ${verdicts.join(' | ')} |`, `|---|${verdicts.map(() => '---').join('|')}|`]
  for (const v of verdicts) {
    lines.push(`| ${v} | ${verdicts.map((w) => a.comparisons.filter((c) => c.curated === v && c.engine === w).length).join(' | ')} |`)
  }
  return lines.join('\n')
}

/** The block docs/decisions/compliance_data.md records, between its markers. */
export function agreementBlock(a: Agreement): string {
  return [
    START,
    `Measured on the ${a.documents} curated documents (\`node dist/tools/tos-agreement.js --write\` rewrites this block; a test fails when it differs from what the tool computes):`,
    '',
    agreementTable(a),
    '',
    'Curated verdicts (rows) against the engine\'s (columns), all dimensions:',
    '',
    confusionTable(a),
    END,
  ].join('\n')
}

/** The block as docs/decisions/compliance_data.md holds it now (null when it has none). */
export function recordedBlock(rules: string): string | null {
  const start = rules.indexOf(START)
  const end = rules.indexOf(END)
  return start < 0 || end < start ? null : rules.slice(start, end + END.length)
}

async function main() {
  const catalog = withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR }))
  const a = await measureAgreement(catalog)
  console.log(agreementTable(a))
  console.log('')
  console.log(confusionTable(a))
  console.log('')
  for (const c of a.comparisons.filter((x) => x.curated !== x.engine)) console.log(`  ${c.service} ${c.dimension}: curated ${c.curated}, engine ${c.engine}`)
  if (process.argv.includes('--write')) {
    const path = join(ROOT, 'docs', 'decisions', 'compliance_data.md')
    const rules = readFileSync(path, 'utf8')
    const old = recordedBlock(rules)
    if (old === null) throw new Error(`docs/decisions/compliance_data.md has no ${START} … ${END} block to replace`)
    writeFileSync(path, rules.replace(old, agreementBlock(a)))
    console.log('docs/decisions/compliance_data.md: agreement block rewritten')
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
