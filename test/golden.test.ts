// Every golden case under test/golden/** as a test of its own (tools/replay runs the same cases and
// prints the mismatches for an analyst; this counts them in the suite's total).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { check, readGolden, run, stepsOnly } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT } from '../engine/project/paths.js'
import { catalog } from './helpers.js'

const test = suite('golden cases')
const { files, problems } = readGolden(GOLDEN_DIR, ROOT)
// The step budget only: a case's answer never depends on how busy the machine is.
const golden = stepsOnly(catalog())

test('every golden file is well formed', () => {
  assert.equal(problems, [])
})

for (const f of files) {
  for (const c of f.cases) {
    test(`${f.file}: ${c.name}`, async () => {
      const outcome = await run(golden, f.endpoint, c.input)
      const mismatches = check(c, outcome)
      assert.equal(mismatches, [], mismatches.map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('; '))
      // The result also matches the response schema that OpenAPI and MCP publish for it.
      if (outcome.ok) {
        const endpoint = catalog().endpoints.find((e) => e.operation_id === f.endpoint)!
        const valid = endpoint.validateResult(outcome.envelope.result)
        assert.ok(valid, `result does not match the response schema of ${f.endpoint}: ${JSON.stringify(endpoint.validateResult.errors)}`)
      }
    })
  }
}

test.run()
