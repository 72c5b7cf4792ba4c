// GET /openapi.json: a valid OpenAPI 3.1 document (checked by @seriousme/openapi-schema-validator,
// which validates against the official 3.1 schema), listing every path of every manifest endpoint,
// and describing the envelope and error bodies the service really answers.
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalog, post, startService, type Service } from '../helpers.js'

const test = suite('OpenAPI document')
let service: Service
let doc: Record<string, any>
test.before(async () => {
  service = await startService()
  const res = await fetch(service.url + '/openapi.json')
  assert.is(res.status, 200)
  doc = (await res.json()) as Record<string, any>
})
test.after(() => service.close())

test('is served with no key and validates as OpenAPI 3.1', async () => {
  const validator = new Validator()
  const result = await validator.validate(structuredClone(doc))
  assert.ok(result.valid, JSON.stringify(result.errors))
  assert.is(validator.version, '3.1')
  assert.is(doc.openapi, '3.1.0')
})

test('lists every path of every manifest endpoint with its operation id and tool name', () => {
  for (const endpoint of catalog().endpoints) {
    endpoint.paths.forEach((path, i) => {
      const op = doc.paths[path]?.post
      assert.ok(op, `${path} is missing`)
      assert.is(op['x-tool-name'], endpoint.tool_name, path)
      // A path with a second MCP tool (SPEC's /ira/form-8606) names it, and its description says what it takes.
      for (const tool of endpoint.also_tools ?? []) {
        assert.ok((op['x-also-tools'] as string[]).includes(tool.tool_name), `${path} lists ${tool.tool_name}`)
        assert.ok((op.description as string).includes(tool.tool_name), `${path} describes ${tool.tool_name}`)
      }
      if (i === 0) assert.is(op.operationId, endpoint.operation_id, path)
      else assert.is(op['x-same-as'], endpoint.operation_id, path)
      assert.equal(op.requestBody.content['application/json'].schema, { $ref: `#/components/schemas/${endpoint.operation_id}_request` })
      for (const status of ['400', '401', '413', '415', '429', '503']) assert.ok(op.responses[status].$ref, `${path} ${status}`)
      assert.match(op.description, /will not answer/)
    })
    assert.equal(doc.components.schemas[`${endpoint.operation_id}_request`], endpoint.request)
    assert.equal(doc.components.schemas[`${endpoint.operation_id}_result`], endpoint.response)
  }
})

test('429 and 503 use the error schema and carry Retry-After', () => {
  for (const name of ['TooManyRequests', 'ServiceUnavailable']) {
    const response = doc.components.responses[name]
    assert.equal(response.content['application/json'].schema, { $ref: '#/components/schemas/Error' }, name)
    assert.equal(response.headers['Retry-After'], { $ref: '#/components/headers/RetryAfter' }, name)
  }
  assert.is(doc.components.headers.RetryAfter.schema.type, 'integer')
})

test("groups operations by their suite's name, as SPEC.md names the suites, and says which of two paths is the primary one", () => {
  const service = catalog().service
  const suiteNames = Object.values(service.suites).map((s) => s.name)
  for (const endpoint of catalog().endpoints) {
    endpoint.paths.forEach((path, i) => {
      const op = doc.paths[path].post
      assert.equal(op.tags, [service.suites[endpoint.suite]!.name], path)
      if (endpoint.paths.length > 1) {
        assert.is(op['x-primary-path'], endpoint.paths[0], path)
        assert.ok(op.summary.endsWith(i === 0 ? '(primary path)' : `(second path; primary: ${endpoint.paths[0]})`), op.summary)
      }
    })
  }
  assert.ok(doc.tags.some((t: { name: string }) => t.name === 'Estate Planning Suite'))
  // Besides the suites: POST /batch (any suite's requests) and the public service routes.
  assert.ok(doc.tags.every((t: { name: string }) => t.name === 'service' || t.name === 'batch' || suiteNames.includes(t.name)), JSON.stringify(doc.tags))
})

test('operation ids are unique, as OpenAPI requires', () => {
  const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId))
  assert.is(new Set(ids).size, ids.length, ids.join(', '))
})

test('declares the x-api-key security scheme, and the public routes need no key', () => {
  assert.equal(doc.components.securitySchemes.apiKey, { ...doc.components.securitySchemes.apiKey, type: 'apiKey', in: 'header', name: 'x-api-key' })
  assert.equal(doc.security, [{ apiKey: [] }])
  for (const path of ['/healthz', '/readyz', '/version', '/openapi.json', '/docs']) assert.equal(doc.paths[path].get.security, [], path)
})

// Resolve the document's local $refs with ajv, so a real answer is checked against what it publishes.
function validatorFor(ref: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ $id: 'openapi.json', components: doc.components })
  return ajv.compile({ $ref: `openapi.json${ref}` })
}

test('a real answer matches the published envelope, and real errors the published error body', async () => {
  const envelope = validatorFor(doc.paths['/estate/calculate-state-tax'].post.responses['200'].content['application/json'].schema.$ref)
  const ok = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 7500000 })
  assert.ok(envelope(ok.json), JSON.stringify(envelope.errors))
  const federal = validatorFor('#/components/schemas/federal_estate_tax_response')
  const fed = await post(service, '/estate/calculate-federal-tax', { gross_estate: 20000000, state_of_domicile: 'NY' })
  assert.ok(federal(fed.json), JSON.stringify(federal.errors))
  assert.not.ok(envelope(fed.json), 'the state envelope must not accept a federal answer')

  const error = validatorFor('#/components/schemas/Error')
  const bad = await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: -1 })
  assert.is(bad.status, 400)
  assert.ok(error(bad.json), JSON.stringify(error.errors))
  const unauthorized = await post(service, '/estate/calculate-state-tax', {}, { 'x-api-key': 'nope.nope' })
  assert.is(unauthorized.status, 401)
  assert.ok(error(unauthorized.json), JSON.stringify(error.errors))
})

test.run()
