/**
 * @module The MCP server: every endpoint manifest as a tool named by its SPEC tool name, with the
 * manifest's request schema as the input schema and the envelope as the output schema. A call answers
 * through the same `answer()` as the HTTP route, so the envelope is the same; a bad argument is a tool
 * error (`isError`) carrying the same error body as the HTTP 400, naming the field.
 *
 * Two transports share it: stdio (tools/mcp.ts, `npm run mcp`) and Streamable HTTP at POST /mcp on
 * the service (server/mcp-http.ts: stateless, a fresh server per request).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { answer, DeadlineError, InputError, type AlsoTool, type Catalog, type Endpoint, type Envelope } from '../service/index.js'
import { capDetails } from './request.js'
import { serviceVersion } from './contract.js'
import { alsoToolDescription, compactSchema, fitted, toolDescription, type TextCut } from './tool-list.js'
import { HttpError } from './errors.js'

/**
 * What the server tells a client about itself: the suites of rules/service.yaml that have a tool,
 * each with its description, so the text grows with the service (it once named estate tax alone).
 */
function instructionsOf(catalog: Catalog): string {
  const suites = Object.entries(catalog.service.suites)
    .filter(([id]) => catalog.endpoints.some((e) => e.suite === id))
    .map(([, suite]) => `- ${suite.name}: ${suite.description}`)
  return [
    'Exact, cited answers computed from versioned statutes, regulations and curated public data sets, in these suites:',
    ...suites,
    'Each tool takes the JSON arguments its input schema describes and returns the envelope ' +
      '{result, data_as_of, formula_version, citations, tier}. Figures are exact and rounded as the law says, money in the ' +
      "jurisdiction's currency; read result.notes for the assumptions made. An unsupported year or jurisdiction is refused with the supported list.",
    // The tool list is kept within 64 KB (tool-list.ts): the rest of each tool's contract is one request away.
    "Each tool's full request and result schemas, bounds and everything it will not answer are in GET /openapi.json, under the operation whose summary is the tool's title.",
  ].join('\n')
}

function toolOf(endpoint: Endpoint, cut: TextCut): Tool {
  return {
    name: endpoint.tool_name,
    title: endpoint.summary,
    description: toolDescription(endpoint, cut),
    inputSchema: compactSchema(endpoint.request, cut) as Tool['inputSchema'],
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }
}

/** A further tool on an endpoint's rules: its own name and texts, the request cut to its fields. */
function alsoToolOf(endpoint: Endpoint, tool: AlsoTool, cut: TextCut): Tool {
  return {
    name: tool.tool_name,
    title: tool.summary,
    description: alsoToolDescription(endpoint, tool, cut),
    inputSchema: compactSchema(tool.request, cut) as Tool['inputSchema'],
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }
}

const errorResult = (body: unknown): CallToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] })

/** The tools of one catalog, built once; `server()` makes an MCP server that serves them. */
export class McpTools {
  readonly tools: Tool[]
  private readonly byName: Map<string, Endpoint>
  /** A further tool's fields, by its name: arguments outside them are refused. */
  private readonly fieldsOf = new Map<string, string[]>()
  private readonly instructions: string

  constructor(
    catalog: Catalog,
    /** How a call is answered: in this thread by default; the server passes its pool's dispatch. */
    private readonly respond: (endpoint: Endpoint, body: unknown) => Promise<Envelope> = (endpoint, body) => answer(catalog, endpoint, body),
  ) {
    this.byName = new Map(catalog.endpoints.map((e) => [e.tool_name, e]))
    this.instructions = instructionsOf(catalog)
    for (const endpoint of catalog.endpoints) {
      for (const tool of endpoint.also_tools ?? []) {
        this.byName.set(tool.tool_name, endpoint)
        this.fieldsOf.set(tool.tool_name, tool.fields)
      }
    }
    // The whole list within the budget an agent's context can spare (tool-list.ts).
    this.tools = fitted((cut) => [
      ...catalog.endpoints.map((e) => toolOf(e, cut)),
      ...catalog.endpoints.flatMap((e) => (e.also_tools ?? []).map((t) => alsoToolOf(e, t, cut))),
    ])
  }

  async call(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const endpoint = this.byName.get(name)
    if (!endpoint) {
      return errorResult({ error: { code: 'not_found', message: `no tool ${name}; known: ${[...this.byName.keys()].join(', ')}`, details: [] } })
    }
    const fields = this.fieldsOf.get(name)
    const outside = fields ? Object.keys(args ?? {}).filter((k) => !fields.includes(k)) : []
    if (outside.length > 0) {
      const details = outside.map((field) => ({ field, message: `is not a field of ${name}; its fields: ${fields!.join(', ')} (${endpoint.tool_name} takes the whole request)` }))
      return errorResult({ error: { code: 'validation_error', message: details.map((d) => `${d.field} ${d.message}`).join('; '), details } })
    }
    try {
      const envelope = await this.respond(endpoint, args ?? {})
      return { content: [{ type: 'text', text: JSON.stringify(envelope) }], structuredContent: { ...envelope } }
    } catch (error) {
      if (error instanceof InputError) return errorResult({ error: { code: error.code, ...capDetails(error.message, error.details) } })
      if (error instanceof DeadlineError) return errorResult({ error: { code: error.code, message: error.message, details: [] } })
      if (error instanceof HttpError) return errorResult({ error: { code: error.code, message: error.message, details: [] } })
      console.error(`internal error in MCP tool ${name}:`, error)
      return errorResult({ error: { code: 'internal_error', message: 'internal error', details: [] } })
    }
  }

  server(): Server {
    const server = new Server({ name: 'rules-as-code', version: serviceVersion }, { capabilities: { tools: {} }, instructions: this.instructions })
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.tools }))
    server.setRequestHandler(CallToolRequestSchema, (request) => this.call(request.params.name, request.params.arguments))
    return server
  }

  /** The endpoint that answers a tool, if there is such a tool. */
  endpointOf(name: string): Endpoint | undefined {
    return this.byName.get(name)
  }
}
