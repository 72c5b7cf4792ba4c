// Every golden case under test/golden/** as a test of its own: the checks of tools/replay (which
// runs the same cases and prints the mismatches for an analyst) counted in the suite's total, plus
// the response schema. The same single pass holds the compiled decisions to json-rules-engine: each
// decision records the facts it is given, and json-rules-engine must then decide each the same way.
// (This was two files that each ran every case, and `npm test` ran the replay tool as a third pass.)
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Facts } from '../engine/compile/conditions.js'
import type { Decision } from '../engine/compile/decisions.js'
import { loadCatalog } from '../service/index.js'
import type { Node, ScopeDef } from '../engine/model/rule-set.js'
import { withOperatorLimits } from '../service/project/catalog.js'
import { check, checkRuleSetCase, checkRuleSetFiles, readGolden, run, runRuleSet, stepsOnly } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'

const test = suite('golden cases')
const { files, ruleSets, problems } = readGolden(GOLDEN_DIR, ROOT)

/**
 * A catalog of its own, with the operator's work limits as the shared one has (the runner widens
 * the wall-clock one), since its decisions are wrapped to record what they see.
 */
// The step budget only (stepsOnly): a case's answer never depends on how busy the machine is.
const catalog = stepsOnly(withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })))

interface Seen {
  where: string
  facts: Facts
  /** What the fast path answered, as JSON, or the message it threw. */
  fast: string
  reference: () => Promise<unknown>
}
const seen: Seen[] = []
// A decision called again with the same facts and answering the same is compared once: both sides
// are deterministic (DESIGN.md), so the repeat (nearly two calls in three) would compare the same
// inputs again. A repeat that answers differently is kept, and compared.
const recorded = new Set<string>()
function record(s: Seen) {
  const key = `${s.where}\0${JSON.stringify(s.facts)}\0${s.fast}`
  if (recorded.has(key)) return
  recorded.add(key)
  seen.push(s)
}

/** Record each call of the decision, answering exactly what it answers (a value or the same error). */
function wrapDecision(where: string, decision: Decision) {
  const decide = decision.decide.bind(decision)
  decision.decide = (facts) => {
    const copy = { ...facts }
    const reference = () => decision.decideByEngine(copy)
    try {
      const outcome = decide(facts)
      record({ where, facts: copy, fast: JSON.stringify(outcome), reference })
      return outcome
    } catch (error) {
      record({ where, facts: copy, fast: `error: ${(error as Error).message}`, reference })
      throw error
    }
  }
}

function nodes(scope: ScopeDef): Node[] {
  return [...scope.formulas.values()].flatMap((n) => [n, ...(n.kind === 'each' || n.kind === 'solve' ? nodes(n.scope) : [])])
}

let decisions = 0
for (const rs of catalog.ruleSets.values()) {
  for (const node of nodes(rs.root)) {
    if (node.kind !== 'decision') continue
    wrapDecision(`${rs.id}: ${node.name}`, node.decision)
    decisions++
  }
}

test('every golden file is well formed, and every rule-set case names formulas its rule set has', () => {
  assert.equal([...problems, ...checkRuleSetFiles(catalog, ruleSets)], [])
})

let ran = 0
const cases = files.reduce((n, f) => n + f.cases.length, 0) + ruleSets.reduce((n, f) => n + f.cases.length, 0)
for (const f of files) {
  for (const c of f.cases) {
    test(`${f.file}: ${c.name}`, async () => {
      ran++
      const outcome = await run(catalog, f.endpoint, c.input)
      const mismatches = check(c, outcome)
      assert.equal(mismatches, [], mismatches.map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('; '))
      // The result also matches the response schema that OpenAPI and MCP publish for it.
      if (outcome.ok) {
        const endpoint = catalog.endpoints.find((e) => e.operation_id === f.endpoint)!
        const valid = endpoint.validateResult(outcome.envelope.result)
        assert.ok(valid, `result does not match the response schema of ${f.endpoint}: ${JSON.stringify(endpoint.validateResult.errors)}`)
      }
    })
  }
}

// A rule set's own cases: some formulas given, some outputs and formulas expected (PolicyEngine's
// per-variable tests); no endpoint, so no response schema.
for (const f of ruleSets) {
  for (const c of f.cases) {
    test(`${f.file}: ${c.name}`, async () => {
      ran++
      const mismatches = checkRuleSetCase(c, await runRuleSet(catalog, f.rule_set, c))
      assert.equal(mismatches, [], mismatches.map((m) => `${m.path}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`).join('; '))
    })
  }
}

test('every decision of every golden case answers as json-rules-engine does', async () => {
  // The cases above ran first (uvu keeps the order): each decision they reached was recorded.
  assert.is(ran, cases, 'every golden case ran before this test')
  assert.ok(decisions >= 3, `the rules hold ${decisions} decisions`)
  const where = new Set(seen.map((s) => s.where))
  // Every decision the golden cases reach was compared, and they reach them all.
  assert.is(where.size, decisions, `only ${where.size} of ${decisions} were reached`)
  let failing = 0
  for (const s of seen) {
    let reference: string
    try {
      reference = JSON.stringify(await s.reference())
    } catch (error) {
      reference = `error: ${(error as Error).message}`
    }
    if (reference === s.fast) continue
    failing++
    assert.is(s.fast, reference, `${s.where} on ${JSON.stringify(s.facts)}`)
  }
  assert.is(failing, 0)
})

test.run()
