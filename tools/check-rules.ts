/**
 * @module The rule check: load every rule and table file and report each problem as
 * `file:line:column: message`. Exits 1 on any problem, 0 when the catalog loads clean; a warning
 * (`warning: file:line:column: …`, a formula over 300 characters) is reported without failing it.
 *
 *   node dist/tools/check-rules.js [--rules DIR] [--tables DIR] [--endpoints DIR]
 */
import { answerHelp } from './help.js'
import { performance } from 'node:perf_hooks'
import { formatProblem, loadCatalog, RuleLoadError } from '../service/index.js'
import { ENDPOINTS_DIR, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'

answerHelp(import.meta.url)

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback
}

const started = performance.now()
try {
  const catalog = loadCatalog({ rulesDir: arg('--rules', RULES_DIR), tablesDir: arg('--tables', TABLES_DIR), endpointsDir: arg('--endpoints', ENDPOINTS_DIR) })
  const ms = (performance.now() - started).toFixed(0)
  const warnings = catalog.warnings ?? []
  // Warnings refuse nothing: an address the registry of sources holds written out by hand, a formula too long to read.
  for (const w of warnings) console.warn(`warning: ${formatProblem(w)}`)
  const warned = warnings.length > 0 ? `, ${warnings.length} warning(s)` : ''
  console.log(`rule check: ${catalog.ruleSets.size} rule sets, ${catalog.tables.size} tables, ${catalog.endpoints.length} endpoints, no problems${warned} (${ms} ms)`)
} catch (error) {
  if (!(error instanceof RuleLoadError)) throw error
  for (const p of error.problems) console.error(formatProblem(p))
  for (const w of error.warnings) console.warn(`warning: ${formatProblem(w)}`)
  console.error(`rule check: ${error.problems.length} problem(s)`)
  process.exit(1)
}
