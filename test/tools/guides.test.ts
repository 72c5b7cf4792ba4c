// The two guides stay guides: README.md at most 300 lines and RULES.md at most 600 (the reference
// lives under docs/); every relative link of README.md, RULES.md and docs/**.md reaches a file; and
// every request of the README, with the part of its answer that its jq filter keeps, is what the
// service answers today.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { answer } from '../../service/index.js'
import { ROOT } from '../../service/project/paths.js'
import { catalog } from '../helpers.js'

const test = suite('README.md and RULES.md: short guides whose links and examples hold')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length

test('README.md is at most 300 lines and RULES.md at most 600', () => {
  assert.ok(lineCount(read('README.md')) <= 300, `README.md has ${lineCount(read('README.md'))} lines`)
  assert.ok(lineCount(read('RULES.md')) <= 600, `RULES.md has ${lineCount(read('RULES.md'))} lines`)
})

test('README.md gives the two commands', () => {
  const readme = read('README.md')
  assert.ok(readme.includes('npm ci && npm start'), 'npm ci && npm start')
  assert.ok(/^npm test\b/m.test(readme), 'npm test')
})

/** Every Markdown file a reader reaches: the two guides and everything under docs/. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir)).flatMap((name) => {
      const path = join(dir, name)
      return statSync(join(ROOT, path)).isDirectory() ? walk(path) : name.endsWith('.md') ? [path] : []
    })
  return ['README.md', 'RULES.md', ...walk('docs')]
}

test('every relative link of README.md, RULES.md and docs/**.md points at a file that exists', () => {
  const broken: string[] = []
  for (const file of markdownFiles()) {
    // Links in code blocks are examples, not links.
    const text = read(file).replace(/^```[\s\S]*?^```/gm, '')
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue
      const path = join(dirname(join(ROOT, file)), decodeURIComponent(target.split('#')[0]!))
      if (!existsSync(path)) broken.push(`${file}: ${target}`)
    }
  }
  assert.equal(broken, [])
})

/** The few jq filters the README uses: `.a.b`, `{a, b: .c.d}` and stages joined by `|`. */
function jq(filter: string, input: unknown): unknown {
  const get = (value: unknown, path: string): unknown =>
    path === '.' ? value : path.slice(1).split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value)
  return filter.split('|').map((s) => s.trim()).reduce<unknown>((value, stage) => {
    if (!stage.startsWith('{')) return get(value, stage)
    return Object.fromEntries(
      stage.slice(1, -1).split(',').map((entry) => {
        const [key, path] = entry.split(':').map((s) => s.trim())
        return [key!, get(value, path ?? `.${key}`)]
      }),
    )
  }, input)
}

test("every request of the README answers what the README shows (its jq filter's part of the answer)", async () => {
  const readme = read('README.md')
  const examples = [...readme.matchAll(/```sh\n(curl [\s\S]*?)```\s*\n```json\n([\s\S]*?)```/g)]
  assert.ok(examples.length >= 4, `one request per suite; found ${examples.length}`)
  for (const [, command, shown] of examples) {
    const path = /(?:localhost|127\.0\.0\.1):\d+(\/[^\s'"]+)/.exec(command!)?.[1]
    const body = /-d '([^']*)'/.exec(command!)?.[1]
    const filter = /\| jq '([^']*)'/.exec(command!)?.[1] ?? '.'
    assert.ok(path && body, `a path and a body in: ${command}`)
    const endpoint = catalog().endpoints.find((e) => e.paths.includes(path!))
    assert.ok(endpoint, `an endpoint at ${path}`)
    const envelope = await answer(catalog(), endpoint!, JSON.parse(body!))
    assert.equal(JSON.parse(shown!), jq(filter, JSON.parse(JSON.stringify(envelope))), `${path} ${body} | jq '${filter}'`)
  }
})

test.run()
