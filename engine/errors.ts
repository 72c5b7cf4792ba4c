/**
 * @module Error classes of the engine, one per kind of failure.
 *
 * A `RuleLoadError` carries every problem found in the rule and table files, each with its
 * `file:line:column`; the service refuses to start on one. An `InputError` is the caller's fault
 * (a 400); an `EvaluationError` is a defect in the rules (a 500 whose message never leaves the process).
 */

/** One problem found while loading the rule and table files. */
export interface Problem {
  file: string
  line: number
  column: number
  message: string
  /** A warning is reported but does not stop the load (a formula too long to read). */
  warning?: true
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`
}

export class RuleLoadError extends Error {
  override name = 'RuleLoadError'
  constructor(
    readonly problems: Problem[],
    /** The warnings found beside the problems, for the rule check to report too. */
    readonly warnings: Problem[] = [],
  ) {
    super(`${problems.length} problem(s) in the rule files:\n` + problems.map(formatProblem).join('\n'))
  }
}

export type InputErrorCode = 'validation_error' | 'unsupported_parameter' | 'work_limit_exceeded'

/** One field at fault in a request, named as the caller wrote it (`beneficiaries[0].relationship`). */
export interface FieldProblem {
  field: string
  message: string
}

/**
 * The code of a refusal of several faults, from the code of each: theirs when they all share one,
 * else `validation_error`. A fault found alone keeps its own code, and faults of different kinds
 * (an unknown field beside a missing one, a year not covered beside an inconsistent amount) never
 * take the code of whichever was found first. docs/errors.md states the rule. @api public
 */
export function combinedCode(codes: readonly ('validation_error' | 'unsupported_parameter')[]): 'validation_error' | 'unsupported_parameter' {
  return codes.length > 0 && codes.every((c) => c === codes[0]) ? codes[0]! : 'validation_error'
}

export class InputError extends Error {
  override name = 'InputError'
  constructor(
    readonly code: InputErrorCode,
    message: string,
    readonly details: FieldProblem[],
  ) {
    super(message)
  }
}

/**
 * A request that asks for more work than one request may do (a grid too fine, a schedule too long):
 * the caller's to narrow, so a 400 like any other input error, with its own code. The limits are
 * settings (rules/service.yaml `limits`), never statutory figures.
 */
export class WorkLimitError extends InputError {
  override name = 'WorkLimitError'
  constructor(message: string) {
    super('work_limit_exceeded', message, [])
  }
}

/**
 * A request still running when the clock's backstop (rules/service.yaml `limits.milliseconds`,
 * WORK_LIMIT_MS) runs out. The step budget is what refuses a request that asks too much; a request
 * within it that still runs this long met a busy machine or a loop counting too little, so it is no
 * fault of the caller: a 503 with Retry-After, to be sent again later, unchanged.
 */
export class DeadlineError extends Error {
  override name = 'DeadlineError'
  readonly code = 'deadline_exceeded'
  /** Seconds after which the same request may be sent again. */
  readonly retryAfter = 1
  constructor(readonly milliseconds: number) {
    super(`the request ran past ${milliseconds} ms, the longest the service lets one request run; the service is busy: send it again later`)
  }
}

/** A defect in the rules found while evaluating (division by zero, a type mismatch, no value on a date). */
export class EvaluationError extends Error {
  override name = 'EvaluationError'
}
