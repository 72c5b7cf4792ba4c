// The library's registry: own names only, each function documented for analysts in RULES.md.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { FAMILIES, functionNames, libraryFunction } from '../../../engine/functions/index.js'
import { ROOT } from '../../../service/project/paths.js'

const test = suite('engine/functions/index: the registry')

test('a name of the prototype is no function', () => {
  for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) assert.is(libraryFunction(name), undefined, name)
})

test('every function is in one family, and RULES.md documents each in its table', () => {
  const rules = readFileSync(join(ROOT, 'RULES.md'), 'utf8')
  const names = Object.values(FAMILIES).flatMap((f) => Object.keys(f))
  assert.equal([...names].sort(), functionNames())
  for (const name of names) assert.ok(rules.includes(`| \`${name}\` |`), `RULES.md has no row for ${name}()`)
})

test('every function says what it returns and declares its arguments', () => {
  for (const name of functionNames()) {
    const spec = libraryFunction(name)!
    assert.ok(spec.doc.length > 10, name)
    assert.ok(spec.args.length > 0, name)
  }
})

test.run()
