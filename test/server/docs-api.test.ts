// GET /docs/api/<suite>.md: the generated reference page each operation of the docs page links to
// (OpenAPI externalDocs), served as text with no key; nothing else of the folder or the tree is.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { openApiDocument } from '../../service/openapi.js'
import { catalog, startService, type Service } from '../helpers.js'

const test = suite('server/docs: the reference pages')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(() => service.close())

test("every operation's externalDocs link answers its suite's page, which holds the operation", async () => {
  const doc = openApiDocument(catalog()) as { paths: Record<string, { post?: { operationId: string; externalDocs?: { url: string } } }> }
  for (const endpoint of catalog().endpoints) {
    const url = doc.paths[endpoint.paths[0]!]!.post!.externalDocs!.url
    assert.is(url, `/docs/api/${endpoint.suite}.md`)
    const res = await fetch(service.url + url)
    assert.is(res.status, 200, url)
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; charset=utf-8/)
    assert.ok((await res.text()).includes(`\n## ${endpoint.operation_id}\n`), `${url} holds ${endpoint.operation_id}`)
  }
})

test('only the Markdown pages of docs/api are served', async () => {
  for (const path of ['/docs/api/answers.json', '/docs/api/..%2F..%2Fpackage.json', '/docs/api/nope.md', '/docs/api/__proto__']) {
    const res = await fetch(service.url + path)
    assert.is(res.status, 404, path)
  }
})

test.run()
