// Adding an endpoint is a YAML manifest (and its rule set): with the fixture manifest added to a copy
// of the project's rules, and no other change, the new operation is in OpenAPI and is an MCP tool.
// (docs.test.ts shows it rendered on the docs page from the same catalog.)
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalogWithNewEndpoint, post, startService, type Service } from '../helpers.js'

const test = suite('a new endpoint manifest')
let service: Service
test.before(async () => {
  service = await startService(catalogWithNewEndpoint())
})
test.after(() => service.close())

test('appears in OpenAPI with its operation id, tool name and schemas', async () => {
  const doc = (await (await fetch(service.url + '/openapi.json')).json()) as Record<string, any>
  const op = doc.paths['/demo/flat-tax']?.post
  assert.ok(op, '/demo/flat-tax is not in the document')
  assert.is(op.operationId, 'demo_flat_tax')
  assert.is(op['x-tool-name'], 'calculate_demo_flat_tax')
  assert.equal(doc.components.schemas.demo_flat_tax_request.required, ['amount', 'year'])
  assert.ok(doc.components.schemas.demo_flat_tax_result.properties.tax)
  assert.ok(doc.paths['/estate/calculate-state-tax'], 'the existing endpoints are still there')
})

test('is an MCP tool that answers like the HTTP route', async () => {
  const client = new Client({ name: 'test', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url + '/mcp'), { requestInit: { headers: { 'x-api-key': service.key } } }))
  const { tools } = await client.listTools()
  assert.ok(tools.some((t) => t.name === 'calculate_demo_flat_tax'))
  const result = await client.callTool({ name: 'calculate_demo_flat_tax', arguments: { amount: 1000, year: 2026 } })
  const http = await post(service, '/demo/flat-tax', { amount: 1000, year: 2026 })
  assert.is(http.status, 200)
  assert.equal(result.structuredContent, http.json)
  await client.close()
})

test.run()
