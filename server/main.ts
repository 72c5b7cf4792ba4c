/**
 * @module `npm start`: load and check every rule file (refusing to start on any problem), open the
 * key store (issuing a first key if there is none), and serve until SIGTERM or SIGINT.
 *
 * Environment: PORT (8080), HOST (127.0.0.1), DATA_DIR (./data, holds keys.json), RULES_DIR and
 * TABLES_DIR (./rules, ./tables).
 */
import { join } from 'node:path'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../engine/index.js'
import { DATA_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../tools/paths.js'
import { createApp } from './app.js'
import { KeyStore } from './keys.js'

let catalog: Catalog
try {
  catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })
} catch (error) {
  if (error instanceof RuleLoadError) {
    for (const p of error.problems) console.error(formatProblem(p))
    console.error(`refusing to start: ${error.problems.length} problem(s) in the rule files`)
    process.exit(1)
  }
  throw error
}

const keys = new KeyStore(join(DATA_DIR, 'keys.json'))
if (keys.size === 0) {
  const { key } = await keys.issue('first key, issued by npm start')
  console.log(`No API key found in ${join(DATA_DIR, 'keys.json')}; issued one. It is shown only this once:\n\n  x-api-key: ${key}\n`)
}

const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '127.0.0.1'
const server = createApp({ catalog, keys }).listen(port, host, () => {
  console.log(`listening on http://${host}:${port} (${catalog.endpoints.length} endpoints, rules ${catalog.service.formula_version}, root ${ROOT})`)
})

function shutdown(signal: string) {
  console.log(`${signal}: closing, finishing requests in flight`)
  server.close(() => process.exit(0))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 10_000).unref()
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
