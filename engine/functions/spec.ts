/**
 * @module What a function of the formula library declares: its documentation, the types of its
 * arguments and of its result (checked at load), and its implementation (run per evaluation).
 *
 * Each family of functions (dates, math, lists, text, tables, data) is one file in this folder that
 * exports a `FunctionLibrary`; `index.ts` joins them into the one registry the compiler reads. A
 * function is general: no rate, threshold or date of law lives in this folder.
 */
import type { TableEntry, TableFamily } from '../data/tables.js'
import type { Runtime, Value } from '../model/types.js'

/**
 * The type of a value in a formula, known at load.
 * - `amount`, `integer` and `rate` are decimals (an integer is a whole decimal; a rate a fraction);
 *   arithmetic mixes them freely, and the load check treats them as one family, `number`.
 * - `date` is an ISO date text (YYYY-MM-DD); `text` any other text.
 * - `null` is the type of the literal `null` and of an optional input left out.
 * - `any` is a value whose type the checker cannot know (it accepts and is accepted everywhere).
 */
export type ValueType =
  | 'amount'
  | 'integer'
  | 'rate'
  | 'text'
  | 'date'
  | 'boolean'
  | 'null'
  | 'any'
  | { list: ValueType }
  /** A record with known fields, or `'open'` when its fields are not known at load. */
  | { record: Record<string, ValueType> | 'open' }

/** What an argument position accepts. */
export type ArgType =
  | ValueType
  /** Any of amount, integer, rate. */
  | 'number'
  /** A list of anything. */
  | 'list'
  /** A number, or a list of numbers (min, max, sum take either). */
  | 'numbers'
  /** A list whose items are accepted as this (`{ list: 'number' }`: a list of amounts of any kind). */
  | { list: ArgType }
  /** A table of this kind, named directly (`schedule(rate_schedule, x)`). */
  | { table: TableEntry['kind'] }
  /** A table family, named by its folder as a text literal (`members('employment.law')`), checked at load. */
  | { family: true }
  /**
   * A function written in the formula (`x => x.amount > 0`) taking `params` arguments. The checker
   * types its parameters with `paramTypes(argTypes)` (the types of the other arguments, e.g. the
   * item type of the list before it) and its body must have type `body` when given.
   */
  | { lambda: number; paramTypes: (args: ValueType[]) => ValueType[]; body?: ValueType | 'number' }

/** A lambda as an implementation receives it: call it with the values of its parameters. */
export type Lambda = (...params: Value[]) => Value

/** What an implementation may use besides its arguments. @api private */
export interface CallContext {
  /** The evaluation's runtime: table reads go through it, so that they are cited. */
  rt: Runtime
  /** The table named by the first argument, for a function whose first argument is `{ table }`. */
  table?: TableEntry
  /** The table family named by the `{ family }` argument. */
  family?: TableFamily
  /** Stop the evaluation with a message naming this call (an EvaluationError). */
  fail(message: string): never
  /**
   * Count `units` steps of work against the request's limits, in proportion to the work done
   * (characters searched, rows read, comparisons made); past the budget it throws the request's
   * refusal. Every function that loops over more than its arguments' items calls it; a lambda's
   * calls are counted already.
   */
  work(units: number): void
}

export interface FunctionSpec {
  /** What it returns, in one sentence (shown in RULES.md and in load errors). */
  doc: string
  /** The types of the arguments in order. */
  args: ArgType[]
  /** How many of `args` must be given (the rest are optional); default: all of them. */
  required?: number
  /** The type of any further arguments (min, max, concat take any number). */
  rest?: ArgType
  /** The result type: fixed, or computed from the argument types (the item type of a list). */
  returns: ValueType | ((args: ValueType[]) => ValueType)
  /**
   * The implementation. Arguments are evaluated values, a lambda is a `Lambda`, a table argument is
   * passed as `null` (read it through `cx.table`). It may trust the load check for types but must
   * `cx.fail` on values the types cannot rule out (an impossible date, an empty list, a zero divisor).
   */
  impl(args: (Value | Lambda)[], cx: CallContext): Value
  /**
   * True when the result depends only on the arguments (no table read, no clock): the compiler may
   * fold a call whose arguments are all literals at load, and report an impossible value there.
   */
  pure?: boolean
  /**
   * Read the table before the other arguments are evaluated, so that its citation comes before
   * theirs in the answer (the order `schedule()` has always cited in).
   */
  tableFirst?: boolean
  /**
   * For a function reading a family member's parameter by name: the argument holding the name.
   * Written as a literal, the result type is the join of that parameter's types across the members
   * (any where no member has it yet); computed, it is `any`, checked as it is read.
   */
  parameterArg?: number
  /** A problem with the table a call names, found at load (a lookup given the wrong number of keys). */
  checkTable?(table: TableEntry, argumentCount: number): string | undefined
  /** A problem with an argument written as a literal, found at load (a pattern that does not compile). */
  checkLiteral?(index: number, value: Value): string | undefined
}

export type FunctionLibrary = Record<string, FunctionSpec>
