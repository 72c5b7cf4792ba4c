/**
 * @module Decisions: json-rules-engine rules written in YAML, with decimal-aware operators.
 *
 * A decision names an outcome (which regime applies, whether a check fails). Its engine is built once
 * at load. The facts are formula values; the operators `lt lte gt gte eq neq` compare them as exact
 * decimals, never as binary floats. Two matching rules of the same priority are an error, not a
 * silent first-wins.
 */
import { Engine, type RuleProperties, type TopLevelCondition } from 'json-rules-engine'
import { Dec, isDec, isExactText, parseExact } from './decimal.js'
import { EvaluationError } from './errors.js'
import type { Citation } from './tables.js'
import type { Value } from './types.js'

const DECIMAL_OPERATORS: Record<string, (a: Dec, b: Dec) => boolean> = {
  lt: (a, b) => a.lt(b),
  lte: (a, b) => a.lte(b),
  gt: (a, b) => a.gt(b),
  gte: (a, b) => a.gte(b),
  eq: (a, b) => a.eq(b),
  neq: (a, b) => !a.eq(b),
}

/** json-rules-engine's own operators that stay available (text and list comparisons). */
const BUILTIN_OPERATORS = ['equal', 'notEqual', 'in', 'notIn', 'contains', 'doesNotContain']

export const OPERATORS = [...Object.keys(DECIMAL_OPERATORS), ...BUILTIN_OPERATORS]

function toDec(v: unknown): Dec | undefined {
  if (isDec(v)) return v
  if (typeof v === 'string' && isExactText(v)) return parseExact(v)
  if (typeof v === 'number' && Number.isFinite(v)) return new Dec(String(v))
  return undefined
}

function newEngine(): Engine {
  const engine = new Engine([], { allowUndefinedFacts: false, replaceFactsInEventParams: false })
  for (const [name, compare] of Object.entries(DECIMAL_OPERATORS)) {
    engine.addOperator(name, (a: unknown, b: unknown) => {
      const x = toDec(a)
      const y = toDec(b)
      if (!x || !y) throw new EvaluationError(`operator ${name} compares amounts, got ${String(a)} and ${String(b)}`)
      return compare(x, y)
    })
  }
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

  /** Throws with the json-rules-engine message when a rule is malformed. */
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
  }

  /** The outcome of the highest-priority matching rule, or the default. */
  async decide(facts: Record<string, Value>): Promise<Outcome> {
    const { events } = await this.engine.run(facts)
    if (events.length === 0) {
      if (this.fallback === undefined) throw new EvaluationError(`decision ${this.name}: no rule matched and no default is declared`)
      return { outcome: this.fallback, references: [] }
    }
    const matched = events.map((e) => this.rules[(e.params as { index: number }).index]!)
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

  constructor(private readonly rules: CheckRule[]) {
    this.engine = newEngine()
    rules.forEach((rule, i) => {
      this.engine.addRule({ conditions: rule.conditions as TopLevelCondition, event: { type: 'invalid', params: { index: i } } })
    })
  }

  async failures(facts: Record<string, Value>): Promise<CheckRule[]> {
    const { events } = await this.engine.run(facts)
    return events.map((e) => this.rules[(e.params as { index: number }).index]!).sort((a, b) => a.field.localeCompare(b.field))
  }
}
