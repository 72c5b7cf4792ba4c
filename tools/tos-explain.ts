/**
 * @module A development aid: for one curated document and one dimension, the curated verdict and clause
 * beside the engine's clauses (kind, verdict, pattern), to read a disagreement of the development part.
 *   node dist/tools/tos-explain.js <service> <dimension>
 * It refuses a held-out service: that part is for measuring, never for tuning.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { answer, loadCatalog } from '../service/index.js'
import { RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { withOperatorLimits } from '../service/project/catalog.js'
import { partOf } from './tos-agreement.js'
import { answerHelp } from './help.js'

answerHelp(import.meta.url)

const [service, dimension] = process.argv.slice(2)
if (!service || !dimension) throw new Error('usage: tos-explain <service> <dimension>')
if (partOf(service) === 'held_out') throw new Error(`${service} is held out: its disagreements are not read`)
const catalog = withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR }))
catalog.service.limits = { ...catalog.service.limits, milliseconds: 60_000 }
const run = async (op: string, body: Record<string, unknown>) =>
  (await answer(catalog, catalog.endpoints.find((e) => e.operation_id === op)!, body)).result as Record<string, unknown>
const curated = ((await run('check_tos_compliance', { service })).dimensions as Record<string, unknown>[]).find((d) => d.dimension === dimension)
console.log('curated:', JSON.stringify(curated, null, 1))
const text = readFileSync(join(TABLES_DIR, 'tos', 'documents', `${service}.md`), 'utf8')
const engine = ((await run('analyze_tos_text', { text, dimensions: [dimension] })).dimensions as Record<string, unknown>[])[0]!
console.log('engine:', engine.verdict)
for (const c of engine.clauses as Record<string, unknown>[]) console.log(`- [${c.contribution} → ${c.verdict}] (${c.pattern}) ${String(c.clause).replace(/\s+/g, ' ').slice(0, 400)}`)
