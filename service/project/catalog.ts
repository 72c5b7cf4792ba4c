/**
 * @module The project's catalog for a command that serves it (npm start, npm run mcp): loaded and
 * checked once, or every problem printed as `file:line:column` and the process stopped.
 */
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../../service/index.js'
import { DATASETS_DIR, ENDPOINTS_DIR, RULES_DIR, TABLES_DIR } from './paths.js'

export function loadCatalogOrExit(): Catalog {
  try {
    return withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, endpointsDir: ENDPOINTS_DIR, datasetsDir: DATASETS_DIR }))
  } catch (error) {
    if (error instanceof RuleLoadError) {
      for (const p of error.problems) console.error(formatProblem(p))
      console.error(`refusing to start: ${error.problems.length} problem(s) in the rule files`)
      process.exit(1)
    }
    throw error
  }
}

/**
 * The work limits of rules/service.yaml, unless the operator sets WORK_LIMIT_STEPS or WORK_LIMIT_MS
 * (a positive whole number; anything else stops the start with a message).
 */
export function withOperatorLimits(catalog: Catalog, env: NodeJS.ProcessEnv = process.env): Catalog {
  const read = (name: string, fallback: number): number => {
    const raw = env[name]
    if (raw === undefined || raw === '') return fallback
    const n = Number(raw)
    if (!Number.isInteger(n) || n <= 0) {
      console.error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`)
      process.exit(1)
    }
    return n
  }
  const { steps, milliseconds } = catalog.service.limits
  catalog.service.limits = { steps: read('WORK_LIMIT_STEPS', steps), milliseconds: read('WORK_LIMIT_MS', milliseconds) }
  return catalog
}
