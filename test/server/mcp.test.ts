// The MCP server, driven by the SDK's own client over both transports: Streamable HTTP at POST /mcp
// (with the API key) and stdio (dist/tools/mcp.js, what `npm run mcp` runs after building).
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { catalog, post, startService, type Service } from '../helpers.js'

const STATE = { state: 'NY', tax_year: 2026, gross_estate: 7500000 }
const FEDERAL = { gross_estate: 20000000, state_of_domicile: 'MA', deductions: { charitable_deduction: 500000 } }

let service: Service
const clients: Record<string, Client> = {}

async function httpClient(key: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url + '/mcp'), { requestInit: { headers: { 'x-api-key': key } } }))
  return client
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text

for (const transport of ['http', 'stdio'] as const) {
  const test = suite(`MCP over ${transport}`)
  test.before(async () => {
    service ??= await startService()
    if (transport === 'http') clients.http = await httpClient(service.key)
    else {
      const client = new Client({ name: 'test', version: '1' })
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'dist', 'tools', 'mcp.js')], cwd: ROOT, stderr: 'pipe' }))
      clients.stdio = client
    }
  })
  test.after(async () => {
    await clients[transport]!.close()
    if (transport === 'stdio') await service.close()
  })

  test('lists every endpoint as a tool under its spec name, with the request schema\'s fields as input, in at most 64 KB', async () => {
    const { tools } = await clients[transport]!.listTools()
    const endpoints = catalog().endpoints
    const also = endpoints.flatMap((e) => (e.also_tools ?? []).map((t) => t.tool_name))
    assert.equal(tools.map((t) => t.name).sort(), [...endpoints.map((e) => e.tool_name), ...also].sort())
    // The whole list fits an agent's context (it was 516 KB); the full schemas are in /openapi.json.
    const bytes = JSON.stringify({ tools }).length
    assert.ok(bytes <= 64 * 1024, `tools/list is ${bytes} bytes`)
    /** The fields of a schema, nested ones by their path: the same names, types and required fields as the request. */
    const shape = (schema: unknown, at = ''): string[] => {
      const s = schema as { type?: string; required?: string[]; properties?: Record<string, unknown>; items?: unknown }
      return [
        `${at}:${s.type}:${(s.required ?? []).join(',')}`,
        ...Object.entries(s.properties ?? {}).flatMap(([name, sub]) => shape(sub, `${at}.${name}`)),
        ...(s.items ? shape(s.items, `${at}[]`) : []),
      ]
    }
    for (const e of endpoints) {
      const tool = tools.find((t) => t.name === e.tool_name)!
      assert.equal(shape(tool.inputSchema), shape(e.request), e.tool_name)
      assert.match(tool.description ?? '', /Not answered: /)
      assert.is(tool.title, e.summary)
      // Every top-level field the request describes is described to the agent too, if briefly.
      for (const [name, field] of Object.entries((e.request.properties ?? {}) as Record<string, { description?: string }>)) {
        if (field.description) assert.ok(((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)[name]?.description, `${e.tool_name}.${name}`)
      }
    }
    for (const name of ['calculate_state_estate_tax', 'calculate_estate_tax', 'calculate_inherited_ira_schedule', 'calculate_optimal_qtip_election', 'optimize_annual_gifts', 'calculate_grat']) {
      assert.ok(tools.some((t) => t.name === name), name)
    }
  })

  test('the instructions name every suite that has a tool, with its description (not estate tax alone)', async () => {
    const instructions = clients[transport]!.getInstructions() ?? ''
    const { service: { suites }, endpoints } = catalog()
    for (const [id, suite] of Object.entries(suites)) {
      if (endpoints.some((e) => e.suite === id)) assert.ok(instructions.includes(`${suite.name}: ${suite.description}`), suite.name)
    }
    assert.match(instructions, /flight delay compensation/)
  })

  test('a second tool on a path (analyze_backdoor_roth) takes the request cut to its fields and answers as the route does', async () => {
    const { tools } = await clients[transport]!.listTools()
    const tool = tools.find((t) => t.name === 'analyze_backdoor_roth')!
    const endpoint = catalog().endpoints.find((e) => e.tool_name === 'calculate_ira_basis_and_conversion')!
    const fields = Object.keys((tool.inputSchema.properties ?? {}) as Record<string, unknown>)
    assert.ok(fields.includes('conversions') && fields.includes('year_end_value'), 'the backdoor steps are in its input')
    assert.not.ok(fields.includes('plan_elective_deferrals'), 'the mega-backdoor fields are not')
    assert.equal(fields.sort(), [...endpoint.also_tools![0]!.fields].sort())
    assert.match(tool.description ?? '', /same rules as calculate_ira_basis_and_conversion/)
    const input = { filing_status: 'single', age_at_year_end: 40, compensation: 200000, modified_agi: 200000, traditional_contributions: 7500, deducted_contributions: 0, conversions: 7500, year_end_value: 92500 }
    const result = await clients[transport]!.callTool({ name: 'analyze_backdoor_roth', arguments: input })
    const http = await post(service, '/ira/form-8606', input)
    assert.is(http.status, 200)
    assert.not.ok(result.isError, text(result))
    assert.is(text(result), http.text)
    const refused = await clients[transport]!.callTool({ name: 'analyze_backdoor_roth', arguments: { ...input, plan_elective_deferrals: 24500 } })
    assert.ok(refused.isError)
    const body = JSON.parse(text(refused)) as { error: { code: string; details: { field: string }[] } }
    assert.is(body.error.code, 'validation_error')
    assert.equal(body.error.details.map((d) => d.field), ['plan_elective_deferrals'])
  })

  test('the state and federal estate tools return the HTTP route envelope, byte for byte', async () => {
    for (const [tool, path, input] of [
      ['calculate_state_estate_tax', '/estate/calculate-state-tax', STATE],
      ['calculate_estate_tax', '/estate/calculate-federal-tax', FEDERAL],
    ] as const) {
      const result = await clients[transport]!.callTool({ name: tool, arguments: input })
      const http = await post(service, path, input)
      assert.is(http.status, 200)
      assert.not.ok(result.isError, text(result))
      assert.is(text(result), http.text, tool)
      assert.equal(result.structuredContent, http.json, tool)
    }
  })

  test('a bad argument is a tool error naming the field, and the server goes on', async () => {
    const result = (await clients[transport]!.callTool({ name: 'calculate_state_estate_tax', arguments: { ...STATE, gross_estate: 'lots' } })) as CallToolResult
    assert.ok(result.isError)
    const body = JSON.parse(text(result)) as { error: { code: string; details: { field: string }[] } }
    assert.is(body.error.code, 'validation_error')
    assert.equal(body.error.details.map((d) => d.field), ['gross_estate'])

    const year = JSON.parse(text(await clients[transport]!.callTool({ name: 'calculate_estate_tax', arguments: { ...FEDERAL, decedent_year_of_death: 2019 } })))
    assert.is(year.error.code, 'unsupported_parameter')
    assert.match(year.error.message, /supported: 2022, 2023, 2024, 2025, 2026/)

    const missing = JSON.parse(text(await clients[transport]!.callTool({ name: 'calculate_estate_tax', arguments: {} })))
    assert.ok(missing.error.details.some((d: { field: string }) => d.field === 'gross_estate'))

    const unknown = (await clients[transport]!.callTool({ name: 'no_such_tool', arguments: {} })) as CallToolResult
    assert.ok(unknown.isError)
    assert.match(text(unknown), /calculate_state_estate_tax/)

    const again = await clients[transport]!.callTool({ name: 'calculate_state_estate_tax', arguments: STATE })
    assert.not.ok(again.isError)
  })

  if (transport === 'http') {
    test('/mcp needs the API key like every other route', async () => {
      let failed: unknown
      try {
        await httpClient('wrong.key')
      } catch (error) {
        failed = error
      }
      assert.ok(failed, 'a client with a wrong key must not connect')
      const res = await fetch(service.url + '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      assert.is(res.status, 401)
    })
  }

  test.run()
}
