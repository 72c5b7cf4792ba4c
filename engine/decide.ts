/**
 * @module Decisions: json-rules-engine rules written in YAML, with decimal-aware operators.
 *
 * A decision names an outcome (which regime applies, whether a check fails). Its engine is built once
 * at load. The facts are formula values; the operators `lt lte gt gte eq neq` compare them as exact
 * decimals, never as binary floats. Two matching rules of the same priority are an error, not a
 * silent first-wins.
 *
 * Why two paths: `engine.run` costs tens of microseconds (17 µs for New York's three-rule decision,
 * 40 µs for the dispatcher's nine checks: promises, cloned conditions, a hashed fact cache; the issue
 * measured ~80 µs), and a request runs a decision or a check stage in every rule set it reaches,
 * hundreds of times in a QTIP search. So evaluation takes the fast path: the same conditions compiled
 * at load to synchronous closures (conditions.ts). The json-rules-engine Engine is still built once
 * at load: it validates each rule with its own messages, and `decideByEngine` / `failuresByEngine`
 * run it as the reference the fast path is held to (test/engine/decide.test.ts on every operator and
 * on random condition trees, test/golden-decisions.test.ts on every golden case).
 */
import { Engine, type RuleProperties, type TopLevelCondition } from 'json-rules-engine'
import { DECIMAL_OPERATORS, OPERATORS, compileConditions, decimalOperator, type Facts, type Test } from './conditions.js'
import { EvaluationError } from './errors.js'
import type { Citation } from './tables.js'

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

/** A decision compiled once: an engine with its rules (ruleset.ts compiles the facts they read). @api private */
export class Decision {
  private readonly engine: Engine
  private readonly tests: Test[]

  /** Throws with the json-rules-engine message (or the compiler's) when a rule is malformed. */
  constructor(
    readonly name: string,
    private readonly rules: DecisionRule[],
    private readonly fallback: string | undefined,
  ) {
    this.engine = newEngine()
    rules.forEach((rule, i) => {
      const props: RuleProperties = {
        conditions: rule.conditions as TopLevelCondition,
        event: { type: rule.outcome, params: { index: i } },
        priority: rule.priority ?? 1,
        name: `${name}#${i}`,
      }
      this.engine.addRule(props)
    })
    this.tests = rules.map((rule) => compileConditions(rule.conditions))
  }

  /** The outcome of the highest-priority matching rule, or the default. */
  decide(facts: Facts): Outcome {
    return this.choose(matches(this.tests, facts))
  }

  /** The same, through json-rules-engine: the reference the fast path is tested against. */
  async decideByEngine(facts: Facts): Promise<Outcome> {
    return this.choose(await engineMatches(this.engine, facts))
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

export interface CheckRule {
  conditions: unknown
  field: string
  message: string
  code: 'validation_error' | 'unsupported_parameter'
  /** Its position in the rule set's checks. */
  index: number
}

/** Input checks of one rule set, in one engine: each matching rule is a problem with a field. @api private */
export class Checks {
  private readonly engine: Engine
  private readonly tests: Test[]

  constructor(private readonly rules: CheckRule[]) {
    this.engine = newEngine()
    rules.forEach((rule, i) => {
      this.engine.addRule({ conditions: rule.conditions as TopLevelCondition, event: { type: 'invalid', params: { index: i } } })
    })
    this.tests = rules.map((rule) => compileConditions(rule.conditions))
  }

  /** The checks that fail, by field; checks on one field in the order they are written. */
  failures(facts: Facts): CheckRule[] {
    return this.byField(matches(this.tests, facts))
  }

  /** The same, through json-rules-engine (in the order its events come): the fast path's reference. */
  async failuresByEngine(facts: Facts): Promise<CheckRule[]> {
    return this.byField(await engineMatches(this.engine, facts))
  }

  private byField(indexes: number[]): CheckRule[] {
    return indexes.map((i) => this.rules[i]!).sort((a, b) => a.field.localeCompare(b.field))
  }
}
