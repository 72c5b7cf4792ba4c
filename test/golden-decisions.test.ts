// The decisions run on compiled conditions (engine/conditions.ts), not through json-rules-engine.
// This holds the fast path to json-rules-engine itself on the project's own rules: every golden case
// is answered while each decision records the facts it was given, and json-rules-engine (built here,
// in the test: production builds none) must then decide each of them the same way (outcome or error).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Facts } from '../engine/conditions.js'
import type { Decision } from '../engine/decide.js'
import { loadCatalog } from '../engine/index.js'
import type { Node, ScopeDef } from '../engine/ruleset.js'
import { readGolden, run, stepsOnly } from '../tools/golden.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../engine/project/paths.js'

const test = suite('golden cases: compiled decisions agree with json-rules-engine')

/** A catalog of its own, since its decisions are wrapped to record what they see. */
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

function nodes(scope: ScopeDef): Node[] {
  return [...scope.formulas.values()].flatMap((n) => [n, ...(n.kind === 'each' || n.kind === 'solve' ? nodes(n.scope) : [])])
}

const kinds = { decisions: 0 }
for (const rs of catalog.ruleSets.values()) {
  for (const node of nodes(rs.root)) {
    if (node.kind !== 'decision') continue
    wrapDecision(`${rs.id}: ${node.name}`, node.decision)
    kinds.decisions++
  }
}

const { files } = readGolden(GOLDEN_DIR, ROOT)

test('every decision of every golden case answers as json-rules-engine does', async () => {
  for (const f of files) for (const c of f.cases) await run(stepsOnly(catalog), f.endpoint, c.input)
  assert.ok(kinds.decisions >= 3, `the rules hold ${kinds.decisions} decisions`)
  const where = new Set(seen.map((s) => s.where))
  // Every decision the golden cases reach was compared, and they reach them all.
  assert.is(where.size, kinds.decisions, `only ${where.size} of ${kinds.decisions} were reached`)
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
