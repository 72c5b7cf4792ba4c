// YAML read with positions, and the parse cache a second process reads instead of the YAML.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readYaml } from '../../engine/load/source.js'

const test = suite('engine/source: readYaml')

// A text no other test writes, so the first read below parses it and the second finds it kept.
const text = `formula_version: "2026.1"\ntitle: cache probe ${process.pid}-${Date.now()}\ntables:\n  rate:\n    values:\n      "2026-01-01": { value: "0.16" }\n`

test('a second read of the same text gives the same data, and a problem still names its line and column', () => {
  const first = readYaml('probe.yaml', text)
  const second = readYaml('probe.yaml', text)
  assert.equal(first.problems, [])
  assert.equal(second.problems, [])
  assert.equal(second.source!.data, first.source!.data)
  // The kept copy has no positions: asking for one parses the text then, and finds the same place.
  assert.equal(second.source!.locate(['tables', 'rate', 'values', '2026-01-01', 'value']), first.source!.locate(['tables', 'rate', 'values', '2026-01-01', 'value']))
  assert.equal(second.source!.problem(['tables', 'rate'], 'a problem'), { file: 'probe.yaml', line: 5, column: 5, message: 'a problem' })
})

test('dates stay text and a syntax error is a problem, never a kept copy', () => {
  const dated = readYaml('dated.yaml', `on: 2026-01-01\nid: ${Date.now()}\n`)
  assert.equal((dated.source!.data as { on: unknown }).on, '2026-01-01')
  const bad = `a: [1, 2\nb: ${Date.now()}\n`
  assert.ok(readYaml('bad.yaml', bad).problems.length > 0)
  assert.ok(readYaml('bad.yaml', bad).problems.length > 0)
})

test.run()
