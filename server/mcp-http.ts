/**
 * @module POST /mcp: the MCP tools (service/mcp.ts) over one stateless Streamable HTTP exchange,
 * answered as plain JSON, each message held to the body limit of what it asks.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { Context } from 'koa'
import { bodyLimitBytes, bodyLimitText } from '../service/contract.js'
import { HttpError } from '../service/errors.js'
import type { Endpoint } from '../service/index.js'
import type { McpTools } from '../service/mcp.js'

/** JSON-RPC 2.0's code for a message that is not a valid request object (its § 5.1). */
const INVALID_REQUEST = -32600

/** A JSON-RPC error answered over HTTP before the MCP transport sees the message. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', id: null, error: { code, message } })

/** The body limit a message on POST /mcp is held to: a tool's endpoint's for tools/call, the service's for the rest. */
export type McpBodyLimit = (endpoint: Endpoint | undefined) => string

/**
 * Koa handler for POST /mcp: one stateless Streamable HTTP exchange, answered as plain JSON.
 *
 * The body was parsed with the largest limit of any tool; a message is then held to its own:
 * a tools/call whose arguments pass its endpoint's body limit gets the 413 that endpoint's route
 * gives, and any other message the service's default limit. A JSON-RPC batch is refused (MCP
 * 2025-06-18 removed them): one HTTP request of 100 messages got a 51.6 MB answer, past every limit.
 */
export async function handleMcpHttp(tools: McpTools, ctx: Context, limitOf: McpBodyLimit): Promise<void> {
  const message = (ctx.request as { body?: unknown }).body
  if (Array.isArray(message)) {
    ctx.status = 400
    ctx.type = 'application/json'
    ctx.body = rpcError(INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not accepted (MCP 2025-06-18 removed them); send one message per HTTP request')
    return
  }
  holdToLimit(tools, ctx, message, limitOf)
  const server = tools.server()
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
  ctx.respond = false
  ctx.res.on('close', () => {
    void transport.close()
    void server.close()
  })
  await server.connect(transport)
  await transport.handleRequest(ctx.req, ctx.res, (ctx.request as { body?: unknown }).body)
}

/** Throws the route's 413 when a message is larger than the limit of what it asks. @api private */
function holdToLimit(tools: McpTools, ctx: Context, message: unknown, limitOf: McpBodyLimit): void {
  const raw = (ctx.request as { rawBody?: string }).rawBody ?? ''
  const m = (message ?? {}) as { method?: unknown; params?: { name?: unknown; arguments?: unknown } }
  const call = m.method === 'tools/call' && typeof m.params?.name === 'string' ? m.params : undefined
  const endpoint = call ? tools.endpointOf(call.name as string) : undefined
  const limit = limitOf(endpoint)
  const bytes = bodyLimitBytes(limit)
  // The whole message within the limit: its arguments are too. Otherwise measure the arguments
  // alone, as the route measures its body.
  if (Buffer.byteLength(raw) <= bytes) return
  const size = call ? Buffer.byteLength(JSON.stringify(call.arguments ?? {})) : Infinity
  if (size <= bytes) return
  const text = bodyLimitText(limit)
  const what = endpoint ? `the arguments of ${String(call!.name)} are larger than its endpoint accepts (${text})` : `the request body is larger than the service accepts (${text})`
  throw new HttpError(413, 'payload_too_large', what, [{ field: endpoint ? 'params.arguments' : 'body', message: `larger than ${text}` }])
}
