/**
 * @module The project's catalog for a command that serves it (npm start, npm run mcp): loaded and
 * checked once, or every problem printed as `file:line:column` and the process stopped.
 */
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../engine/index.js'
import { RULES_DIR, TABLES_DIR } from './paths.js'

export function loadCatalogOrExit(): Catalog {
  try {
    return loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
  } catch (error) {
    if (error instanceof RuleLoadError) {
      for (const p of error.problems) console.error(formatProblem(p))
      console.error(`refusing to start: ${error.problems.length} problem(s) in the rule files`)
      process.exit(1)
    }
    throw error
  }
}
