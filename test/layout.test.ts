// The house's walls (README "Architecture"): the engine takes law in and gives a cited answer out and
// knows nothing of callers; service/ holds the contract; server/ and tools/ both build on it and never
// import each other; rules/ and tables/ hold law and data only.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../service/project/paths.js'

const test = suite('layout: which folder may import which')

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? files(full, ext) : ext.test(name) ? [full] : []
  })
}

/** Each source file of a folder with the top-level folders its relative imports reach. */
function importsOf(folder: string): { file: string; reaches: string }[] {
  return files(join(ROOT, folder), /\.ts$/).flatMap((file) => {
    const text = readFileSync(file, 'utf8')
    return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => ({
      file: relative(ROOT, file),
      reaches: relative(ROOT, join(file, '..', m[1]!)).split('/')[0]!,
    }))
  })
}

const reaching = (folder: string, others: string[]) => importsOf(folder).filter((i) => others.includes(i.reaches)).map((i) => `${i.file} imports ${i.reaches}/`)

test('the engine imports nothing of the service, the server or the tools', () => {
  assert.equal(reaching('engine', ['service', 'server', 'tools']), [])
})

test('the service imports nothing of the server or the tools', () => {
  assert.equal(reaching('service', ['server', 'tools']), [])
})

test('tools/ and server/ never import each other', () => {
  assert.equal([...reaching('tools', ['server']), ...reaching('server', ['tools'])], [])
})

test('no engine file speaks of operations, tool names, OpenAPI or API keys', () => {
  const found = files(join(ROOT, 'engine'), /\.ts$/).flatMap((file) =>
    readFileSync(file, 'utf8').split('\n').flatMap((line, i) => (/operation_?id|tool_name|openapi|api[ _-]key|x-api-key/i.test(line) ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
  )
  assert.equal(found, [])
})

test('rules/ holds no endpoint manifest', () => {
  const manifests = files(join(ROOT, 'rules'), /\.ya?ml$/).filter((file) => /^kind:\s*endpoint\b/m.test(readFileSync(file, 'utf8')))
  assert.equal(manifests.map((f) => relative(ROOT, f)), [])
})

test.run()
