/**
 * @module Decisions: json-rules-engine rules, with decimal-aware operators.
 *
 * A decision names an outcome among several rules (which regime applies, which class a beneficiary
 * is in), each rule's condition written as a formula (`when:`) and compiled to a json-rules-engine
 * condition tree (condition-tree.ts). The facts are formula values; the operators
 * `lt lte gt gte eq neq` compare them as exact decimals, never as binary floats. Two matching rules
 * of the same priority are an error, not a silent first-wins. (An input check is not a decision: it
 * is one true/false expression, rule-set.ts.)
 *
 * Why the conditions are compiled: `engine.run` costs tens of microseconds (17 µs for New York's
 * three-rule decision: promises, cloned conditions, a hashed fact cache), and a QTIP search runs a
 * decision hundreds of times. So evaluation runs the same conditions compiled at load to synchronous
 * closures (conditions.ts), and production builds no json-rules-engine Engine at all. A test builds
 * one (`decideByEngine`) as the reference the compiled conditions are held to
 * (test/engine/decide.test.ts on every operator and on random condition trees,
 * test/golden.test.ts on every decision every golden case reaches).
 */
import { Engine, type RuleProperties, type TopLevelCondition } from 'json-rules-engine'
import { DECIMAL_OPERATORS, OPERATORS, compileConditions, decimalOperator, type Facts, type Test } from './conditions.js'
import { EvaluationError } from '../errors.js'
import type { Citation } from '../data/tables.js'

export { OPERATORS }

function newEngine(): Engine {
  const engine = new Engine([], { allowUndefinedFacts: false, replaceFactsInEventParams: false })
  for (const name of DECIMAL_OPERATORS) engine.addOperator(name, decimalOperator(name))
  return engine
}

/** Every fact a condition tree reads, and every operator it uses. @api private */
export function conditionFacts(conditions: unknown, facts = new Set<string>(), operators = new Set<string>()) {
  if (Array.isArray(conditions)) {
    for (const c of conditions) conditionFacts(c, facts, operators)
  } else if (conditions && typeof conditions === 'object') {
    const c = conditions as Record<string, unknown>
    if (typeof c.fact === 'string') facts.add(c.fact)
    if (typeof c.operator === 'string') operators.add(c.operator)
    const v = c.value as Record<string, unknown> | undefined
    if (v && typeof v === 'object' && typeof v.fact === 'string') facts.add(v.fact)
    for (const key of ['all', 'any', 'not']) if (key in c) conditionFacts(c[key], facts, operators)
  }
  return { facts, operators }
}

/** Indexes of the rules an engine run matched, in the order the engine reports them. */
async function engineMatches(engine: Engine, facts: Facts): Promise<number[]> {
  const { events } = await engine.run({ ...facts })
  return events.map((e) => (e.params as { index: number }).index)
}

/** Indexes of the rules whose compiled conditions hold, in rule order. */
function matches(tests: Test[], facts: Facts): number[] {
  const out: number[] = []
  tests.forEach((test, i) => {
    if (test(facts)) out.push(i)
  })
  return out
}

export interface DecisionRule {
  conditions: unknown
  outcome: string
  priority?: number
  references: Citation[]
}

export interface Outcome {
  outcome: string
  references: Citation[]
}

/** A decision compiled once: its rules' condition trees as closures (nodes.ts compiles the facts they read). @api private */
export class Decision {
  /** json-rules-engine's own engine for these rules: built only when a test holds the fast path to it. */
  private engine: Engine | undefined
  private readonly tests: Test[]

  /** Throws with the compiler's message when a tree is malformed (conditions.ts checks the shape). */
  constructor(
    readonly name: string,
    private readonly rules: DecisionRule[],
    /** The outcome when no rule holds (`default:`). */
    readonly fallback: string | undefined,
  ) {
    this.tests = rules.map((rule) => compileConditions(rule.conditions))
  }

  private reference(): Engine {
    if (this.engine) return this.engine
    const engine = newEngine()
    this.rules.forEach((rule, i) => {
      const props: RuleProperties = {
        conditions: rule.conditions as TopLevelCondition,
        event: { type: rule.outcome, params: { index: i } },
        priority: rule.priority ?? 1,
        name: `${this.name}#${i}`,
      }
      engine.addRule(props)
    })
    this.engine = engine
    return engine
  }

  /** Each rule's outcome, in the order written. */
  get outcomes(): string[] {
    return this.rules.map((r) => r.outcome)
  }

  /** The outcome of the highest-priority matching rule, or the default. */
  decide(facts: Facts): Outcome {
    return this.choose(matches(this.tests, facts))
  }

  /** The same, through json-rules-engine: the reference the fast path is tested against. */
  async decideByEngine(facts: Facts): Promise<Outcome> {
    return this.choose(await engineMatches(this.reference(), facts))
  }

  private choose(indexes: number[]): Outcome {
    if (indexes.length === 0) {
      if (this.fallback === undefined) throw new EvaluationError(`decision ${this.name}: no rule matched and no default is declared`)
      return { outcome: this.fallback, references: [] }
    }
    const matched = [...indexes].sort((a, b) => a - b).map((i) => this.rules[i]!)
    const top = Math.max(...matched.map((r) => r.priority ?? 1))
    const best = matched.filter((r) => (r.priority ?? 1) === top)
    if (best.length > 1) {
      throw new EvaluationError(`decision ${this.name}: rules for ${best.map((r) => r.outcome).join(' and ')} both match at priority ${top}`)
    }
    return { outcome: best[0]!.outcome, references: best[0]!.references }
  }
}
