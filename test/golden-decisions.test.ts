// The decisions and checks run on compiled conditions (engine/conditions.ts), not through
// json-rules-engine. This holds the fast path to json-rules-engine itself on the project's own rules:
// every golden case is answered while each decision and check stage records the facts it was given,
// and json-rules-engine must then decide each of them the same way (outcome, failures in order, or error).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Facts } from '../engine/conditions.js'
import type { Checks, Decision } from '../engine/decide.js'
import { loadCatalog } from '../engine/index.js'
import type { Node, ScopeDef } from '../engine/ruleset.js'
import { readGolden, run } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../tools/paths.js'

const test = suite('golden cases: compiled decisions and checks agree with json-rules-engine')

/** A catalog of its own, since its decisions and checks are wrapped to record what they see. */
const catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })

interface Seen {
  where: string
  facts: Facts
  /** What the fast path answered, as JSON, or the message it threw. */
  fast: string
  reference: () => Promise<unknown>
}
const seen: Seen[] = []

function outcome(f: () => unknown): string {
  try {
    return JSON.stringify(f())
  } catch (error) {
    return `error: ${(error as Error).message}`
  }
}

function record(where: string, facts: Facts, fast: string, reference: () => Promise<unknown>) {
  seen.push({ where, facts: { ...facts }, fast, reference })
}

function wrapDecision(where: string, decision: Decision) {
  const decide = decision.decide.bind(decision)
  decision.decide = (facts) => {
    record(where, facts, outcome(() => decide(facts)), () => decision.decideByEngine(facts))
    return decide(facts)
  }
}

function wrapChecks(where: string, checks: Checks) {
  const failures = checks.failures.bind(checks)
  checks.failures = (facts) => {
    record(where, facts, outcome(() => failures(facts)), () => checks.failuresByEngine(facts))
    return failures(facts)
  }
}

function nodes(scope: ScopeDef): Node[] {
  return [...scope.formulas.values()].flatMap((n) => [n, ...(n.kind === 'each' || n.kind === 'solve' ? nodes(n.scope) : [])])
}

const kinds = { decisions: 0, checks: 0 }
for (const rs of catalog.ruleSets.values()) {
  for (const node of nodes(rs.root)) {
    if (node.kind !== 'decision') continue
    wrapDecision(`${rs.id}: ${node.name}`, node.decision)
    kinds.decisions++
  }
  rs.checks.forEach((stage) => {
    wrapChecks(`${rs.id}: ${stage.late ? 'late' : 'early'} checks`, stage.engine)
    kinds.checks++
  })
}

const { files } = readGolden(GOLDEN_DIR, ROOT)

test('every decision and check stage of every golden case answers as json-rules-engine does', async () => {
  for (const f of files) for (const c of f.cases) await run(catalog, f.endpoint, c.input)
  assert.ok(kinds.decisions >= 3 && kinds.checks >= 6, `the rules hold ${kinds.decisions} decisions and ${kinds.checks} check stages`)
  const where = new Set(seen.map((s) => s.where))
  // Every decision and check stage the golden cases reach was compared, and they reach most of them.
  assert.ok(where.size >= kinds.decisions + kinds.checks - 2, `only ${where.size} of ${kinds.decisions + kinds.checks} were reached`)
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
  assert.ok(seen.some((s) => s.fast !== '[]' && s.where.includes('checks')), 'some golden case fails a check')
})

test.run()
