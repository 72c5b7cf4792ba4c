// Every operation publishes a realistic example request, and the example answers 200: what the
// docs page's "Try it out" sends. Every error response's example carries its own code.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openApiDocument } from '../../service/openapi.js'
import { catalog, post, startService, type Service } from '../helpers.js'

const test = suite('server/openapi: examples')
let service: Service

test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>; components: { responses: Record<string, { content: Record<string, { example: { error: { code: string } } }> }> } }

test('every operation of every path has an example request, and it answers 200', async () => {
  const doc = openApiDocument(catalog()) as unknown as Doc
  let tried = 0
  for (const endpoint of catalog().endpoints) {
    for (const path of endpoint.paths) {
      const example = doc.paths[path]?.post?.requestBody?.content['application/json']?.example
      assert.ok(example, `${path} has an example`)
      const r = await post(service, path, example)
      assert.is(r.status, 200, `${path}: ${r.text.slice(0, 300)}`)
      tried++
    }
  }
  assert.ok(tried >= 10)
})

test('each error response shows an example with its own code', () => {
  const doc = openApiDocument(catalog()) as unknown as Doc
  const codes = Object.fromEntries(Object.entries(doc.components.responses).map(([name, r]) => [name, r.content['application/json']!.example.error.code]))
  assert.equal(codes, { BadRequest: 'validation_error', Unauthorized: 'unauthorized', PayloadTooLarge: 'payload_too_large', UnsupportedMediaType: 'unsupported_media_type', TooManyRequests: 'too_many_requests', ServiceUnavailable: 'service_unavailable' })
})

test.run()
