/**
 * @module `npm run mcp`: the MCP server over stdio, for desktop clients that start it as a local
 * process. It loads and checks every rule file first and exits with the problems on stderr if any
 * fails. stdout carries only the protocol; logs go to stderr.
 *
 * No API key is asked for: the client runs this process on the caller's own machine, with the
 * caller's own files. The HTTP transport (POST /mcp on the service) requires `x-api-key`.
 */
import { answerHelp } from './help.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { McpTools } from '../service/mcp.js'
import { loadCatalogOrExit } from '../service/project/catalog.js'

answerHelp(import.meta.url)

const catalog = loadCatalogOrExit()
const server = new McpTools(catalog).server()
await server.connect(new StdioServerTransport())
console.error(`MCP server on stdio: ${catalog.endpoints.length} tools, rules ${catalog.service.formula_version}`)
