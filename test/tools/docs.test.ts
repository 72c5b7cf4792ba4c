// The generated documents cannot drift: docs/api/ (one page per suite, their index, the recorded
// answers) and docs/functions.md are what `npm run docs` writes today, from the manifests, the
// service's answers to their examples and the function library. A manifest, a rule or a function
// changed without `npm run docs` fails here, naming the file.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { functionNames } from '../../engine/functions/index.js'
import { recordedAnswer } from '../../service/examples.js'
import { openApiDocument } from '../../service/openapi.js'
import { ROOT } from '../../service/project/paths.js'
import { generatedDocs } from '../../tools/docs/index.js'
import { catalog } from '../helpers.js'

const test = suite('tools/docs: the generated documents are current')
const DOCS = join(ROOT, 'docs')
let generated: Map<string, string>

test.before(async () => {
  generated = await generatedDocs(catalog())
})

test('every generated file is committed as generated (run npm run docs after a change)', () => {
  for (const [path, text] of generated) {
    const file = join(DOCS, path)
    assert.ok(existsSync(file), `docs/${path} is missing: run npm run docs`)
    const committed = readFileSync(file, 'utf8')
    if (committed === text) continue
    const a = committed.split('\n')
    const b = text.split('\n')
    const line = a.findIndex((l, i) => l !== b[i])
    assert.unreachable(`docs/${path} differs from what npm run docs writes now, first at line ${line + 1}:\n  committed: ${a[line]?.slice(0, 200)}\n  generated: ${b[line]?.slice(0, 200)}`)
  }
})

test('docs/api/ holds no page that is not generated (a removed suite leaves none behind)', () => {
  const stale = readdirSync(join(DOCS, 'api')).filter((f) => !generated.has(`api/${f}`))
  assert.equal(stale, [])
})

test('every operation and every path is in exactly one suite page, with a row for each request field', () => {
  const pages = [...generated].filter(([path]) => /^api\/(?!README).*\.md$/.test(path))
  for (const endpoint of catalog().endpoints) {
    const holding = pages.filter(([, text]) => text.includes(`\n## ${endpoint.operation_id}\n`))
    assert.equal(holding.map(([p]) => p), [`api/${endpoint.suite}.md`], endpoint.operation_id)
    const section = holding[0]![1].split(`\n## ${endpoint.operation_id}\n`)[1]!.split('\n## ')[0]!
    for (const path of endpoint.paths) {
      assert.equal(pages.filter(([, text]) => text.includes(`\`POST ${path}\``)).length, 1, path)
      assert.ok(section.includes(`\`POST ${path}\``), `${path} in the section of ${endpoint.operation_id}`)
    }
    for (const field of Object.keys((endpoint.request.properties ?? {}) as Record<string, unknown>)) {
      assert.ok(section.includes(`| \`${field}\` |`), `${endpoint.operation_id}: a row for ${field}`)
    }
  }
})

test("the docs page's 200 example of every operation is the answer the page records", () => {
  const doc = openApiDocument(catalog()) as { paths: Record<string, { post: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }> }
  const recorded = JSON.parse(generated.get('api/answers.json')!) as { operation_id: string; answer: unknown }[]
  for (const endpoint of catalog().endpoints) {
    const answer = recorded.find((r) => r.operation_id === endpoint.operation_id)?.answer
    assert.ok(answer, `${endpoint.operation_id} has a recorded answer`)
    assert.equal(recordedAnswer(endpoint)?.answer, answer, endpoint.operation_id)
    for (const path of endpoint.paths) assert.equal(doc.paths[path]!.post.responses['200']!.content['application/json']!.example, answer, path)
  }
})

test('docs/functions.md has a row for every function of the library', () => {
  const text = generated.get('functions.md')!
  for (const name of functionNames()) assert.ok(text.includes(`| \`${name}\` |`), `no row for ${name}()`)
})

test.run()
