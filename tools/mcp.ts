/**
 * @module `npm run mcp`: the MCP server over stdio, for desktop clients that start it as a local
 * process. It loads and checks every rule file first and exits with the problems on stderr if any
 * fails. stdout carries only the protocol; logs go to stderr.
 *
 * No API key is asked for: the client runs this process on the caller's own machine, with the
 * caller's own files. The HTTP transport (POST /mcp on the service) requires `x-api-key`.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../engine/index.js'
import { McpTools } from '../server/mcp.js'
import { RULES_DIR, TABLES_DIR } from './paths.js'

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

const server = new McpTools(catalog).server()
await server.connect(new StdioServerTransport())
console.error(`MCP server on stdio: ${catalog.endpoints.length} tools, rules ${catalog.service.formula_version}`)
