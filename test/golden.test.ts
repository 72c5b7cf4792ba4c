// Every golden case under test/golden/** as a test of its own (tools/replay runs the same cases and
// prints the mismatches for an analyst; this counts them in the suite's total).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { check, readGolden, run } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT } from '../tools/paths.js'
import { catalog } from './helpers.js'

const test = suite('golden cases')
const { files, problems } = readGolden(GOLDEN_DIR, ROOT)

test('every golden file is well formed', () => {
  assert.equal(problems, [])
})

for (const f of files) {
  for (const c of f.cases) {
    test(`${f.file}: ${c.name}`, async () => {
      const mismatches = check(c, await run(catalog(), f.endpoint, c.input))
      assert.equal(mismatches, [], mismatches.map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('; '))
    })
  }
}

test.run()
