/**
 * @module The model of a compiled rule set: its node kinds (formula, decision, call, list, fixed
 * point), scopes, checks, notes and outputs, defined once for the compiler, the type check and the
 * evaluator. The compiler that builds it is compile/rule-set.ts.
 */
import type { Rounding } from '../values/round.js'
import type { CompiledExpression } from '../compile/expression.js'
import type { Decision } from '../compile/decisions.js'
import type { FunctionSpec, ValueType } from '../functions/spec.js'
import type { Dec } from '../values/decimal.js'
import type { PathSegment } from '../load/source.js'
import type { Citation, TableEntry } from '../data/tables.js'
import type { Value } from './types.js'
export type InputType = 'amount' | 'integer' | 'text' | 'boolean' | 'date' | 'object' | 'list'

export interface InputSpec {
  type: InputType
  default?: Value
  fields?: Record<string, InputSpec>
  items?: InputSpec
}

export interface NodeBase {
  name: string
  label?: string
  references: Citation[]
  round?: Rounding
  /** Names in the same scope this node reads. */
  deps: Set<string>
  tables: Set<TableEntry>
  path: PathSegment[]
}
export interface FormulaNode extends NodeBase {
  kind: 'formula'
  expr: CompiledExpression
}
export interface DecisionNode extends NodeBase {
  kind: 'decision'
  decision: Decision
  /** Each fact a condition reads, compiled: an input, a formula or a parameter. */
  facts: Map<string, CompiledExpression>
  /** Each rule's `when` as written, kept for the type check (it must be true or false); never run. */
  whens: CompiledExpression[]
}
export interface CallNode extends NodeBase {
  kind: 'call'
  target: string
  fallback?: string
  /** Only when this holds is the rule set run; otherwise the call's value is null. */
  when?: CompiledExpression
  input: Map<string, CompiledExpression>
}
export interface EachNode extends NodeBase {
  kind: 'each'
  over: CompiledExpression
  /** The name the item is bound to; without it, a record item's fields are bound by name. */
  as?: string
  /** Values carried from one item to the next (a balance), each with its start and its next value. */
  carry: { name: string; start: CompiledExpression; next: CompiledExpression }[]
  /** Stop after the first item for which this is true. */
  until?: CompiledExpression
  scope: ScopeDef
  result: Template
}
export interface SolveNode extends NodeBase {
  kind: 'solve'
  start: CompiledExpression
  next: CompiledExpression
  scope: ScopeDef
  tolerance: Dec
  maxIterations: number
}
export type Node = FormulaNode | DecisionNode | CallNode | EachNode | SolveNode

export interface ScopeDef {
  /**
   * Every name of the scope, in slot order: its bound names (inputs, a list item's fields and
   * carried values, a fixed point's unknown) first, then its formulas. A compiled formula reads a
   * name by its slot (and how many scopes out it stands), so evaluation reads arrays, not maps.
   */
  names: string[]
  /** How many of `names` are bound, not computed. */
  bound: number
  /** Each name's slot. */
  slots: Map<string, number>
  /** The formula in each slot (undefined for a bound name). */
  nodes: (Node | undefined)[]
  formulas: Map<string, Node>
  /** Dependency order of the formulas. */
  order: string[]
  /**
   * The decisions, calls, and lists whose items hold either, in dependency order: evaluated before
   * anything else in the scope, so that what they cite and note comes in one order whatever the
   * outputs read, and so that a check reading none of them runs before them.
   */
  firstOrder: string[]
}

/** The shape of a result: nested fields whose leaves are expressions. */
export type Template =
  | { kind: 'value'; expr: CompiledExpression; round?: Rounding }
  | { kind: 'object'; fields: [string, Template][] }
  | { kind: 'when'; when: CompiledExpression; then: Template }

/** One input check: when its condition holds, the request is refused naming the field. */
export interface Check {
  when: CompiledExpression
  /** The field as written, for messages about the check itself. */
  field: string
  /** The field at fault, which may print values as a message does: `donees[{i}].relationship`. */
  fieldParts: NoteDef['parts']
  code: 'validation_error' | 'unsupported_parameter'
  /** The message, which may print values of the request, as a note does. */
  message: NoteDef['parts']
  /**
   * `for_each`: the check is made once per item of a list, in a scope holding the item (its fields,
   * or the name `as`) and its index from 0 (`index`, by default `i`); each item that fails is a fault
   * of its own, with its own field and message.
   */
  each?: { over: CompiledExpression; as?: string; index: string; scope: ScopeDef }
}

export interface CheckStage {
  checks: Check[]
  /** Whether this stage waits for the rule set's decisions and calls. */
  late: boolean
}

export interface NoteDef {
  when?: CompiledExpression
  parts: (string | { expr: CompiledExpression; money: boolean })[]
}

export interface RuleSet {
  id: string
  /** The type of its result, as the load check worked it out from its outputs (check/rule-set-types.ts). */
  outputType?: ValueType
  /** The type of each formula of its root scope, as the load check worked it out (check/rule-set-types.ts). */
  formulaTypes?: Map<string, ValueType>
  /** The functions it declares (`functions:`), callable from its formulas like the library's. */
  functions: Map<string, FunctionSpec>
  file: string
  title: string
  references: Citation[]
  inputs: Record<string, InputSpec>
  date?: { input?: string; fallback: CompiledExpression }
  root: ScopeDef
  /**
   * Input checks in two stages: those that read only plain formulas run first; those that read a
   * decision or a call (directly or through formulas) run once those are evaluated.
   */
  checks: CheckStage[]
  outputs: Template
  notes: NoteDef[]
  /** Every table this rule set reads, directly or in a nested scope. */
  tables: Set<TableEntry>
  /** Rule sets it may call (templates not yet expanded) and their fallbacks. */
  calls: CallNode[]
}
