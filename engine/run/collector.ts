/**
 * @module What one request gathers across the rule sets it runs: the citations and notes in the
 * order they were first met, the newest data date, the explanation (trace.ts), the results of the
 * calls made so far, and the work done against the request's limits.
 */
import { DeadlineError, WorkLimitError } from '../errors.js'
import { Explanation } from './trace.js'
import type { Currency } from '../values/money.js'
import type { Citation } from '../data/tables.js'
import type { Value } from '../model/types.js'

/** How many steps run between two looks at the clock for the backstop. */
const STEPS_BETWEEN_TIME_LIMIT_CHECKS = 1024

/** The most library results one request keeps (Collector `kept`): a setting of the engine, not law. */
export const KEPT_RESULTS = 4096

/**
 * The calls of one rule set made so far in a request: the first alone, by its values (most rule
 * sets are called once a request, and the text of their inputs would be written for nothing), then
 * all of them by the text of their inputs (convert.ts `callKey`) from the second call on.
 */
export interface CallsOf {
  first?: { values: Record<string, Value>; result: Record<string, Value> }
  byKey?: Map<string, Record<string, Value>>
}

/** What one request gathers across the rule sets it runs. @api private */
export class Collector {
  citations = new Map<string, Citation>()
  notes: string[] = []
  asOf = ''
  /** The explanation's steps, when the request asks for one (trace.ts). */
  readonly explanation: Explanation | undefined
  /**
   * Results of the rule sets called so far, by callee and inputs. Every rule set is pure (no clock,
   * no I/O: its answer is a function of its inputs and the tables), so a call made again with the
   * same inputs (a person's benefit stream at one claiming age, for every age of the spouse) is
   * answered from here. Its citations and notes were collected the first time.
   */
  readonly calls = new Map<string, CallsOf>()
  /**
   * Costly pure results of library functions by their arguments' text (Runtime `keep`), at most
   * KEPT_RESULTS of them: a bound on the memory a request may hold, not on its work.
   */
  readonly kept = new Map<string, Value>()
  /**
   * The request body, as sent: where a date out of range is found by value to name its field
   * (`dateField`). Walked only when a date is refused, never on an answer.
   */
  request: unknown
  private dateFields: Map<string, string> | undefined
  /** Work done so far, in steps, against the request's limits. */
  private work = 0
  /** The step count at which the clock is read next. */
  private nextClockCheck = STEPS_BETWEEN_TIME_LIMIT_CHECKS
  private readonly deadline: number

  constructor(
    explain: boolean,
    /** How notes print money: the endpoint's currency. */
    readonly currency: Currency,
    private readonly limits: { steps: number; milliseconds: number },
  ) {
    if (explain) this.explanation = new Explanation()
    // The clock is a far backstop against a defect (a loop that counts too little), never the rule
    // that refuses a request: the step budget does that, so an answer does not depend on the load.
    this.deadline = Date.now() + limits.milliseconds
  }
  /** Steps counted so far (what the limit is compared with; tools report it to size the budget). */
  get used(): number {
    return this.work
  }
  /**
   * Count `units` steps of work (a formula, a list item, a call, an iteration, a lambda call, or a
   * library function's share: characters searched, rows read, comparisons); refuse the request past
   * the step budget (400), or past the clock's backstop (503).
   */
  tick(units = 1) {
    this.work += units
    if (this.work > this.limits.steps) {
      throw new WorkLimitError(`the request needs more than ${this.limits.steps} evaluation steps, the most one request may take; ask for less work (a coarser grid, a shorter schedule, a shorter text)`)
    }
    // Reading the clock costs more than a step: look only every so many steps.
    if (this.work >= this.nextClockCheck) {
      this.nextClockCheck = this.work + STEPS_BETWEEN_TIME_LIMIT_CHECKS
      if (Date.now() > this.deadline) throw new DeadlineError(this.limits.milliseconds)
    }
  }
  /** The field of the request that holds `date` (`donees[1].date_of_birth`), the first in the body's order. */
  dateField(date: string): string | undefined {
    if (!this.dateFields) collectDates(this.request, '', (this.dateFields = new Map()))
    return this.dateFields.get(date)
  }
  cite(refs: Citation[]) {
    for (const r of refs) if (!this.citations.has(r.title)) this.citations.set(r.title, r)
  }
  note(text: string) {
    if (!this.notes.includes(text)) this.notes.push(text)
  }
}

/** Every date of a request by value, with the field that holds it (`donees[1].date_of_birth`). */
function collectDates(v: unknown, path: string, into: Map<string, string>): void {
  if (typeof v === 'string') {
    if (/^\d{4}-\d{2}-\d{2}$/.test(v) && !into.has(v)) into.set(v, path)
  } else if (Array.isArray(v)) v.forEach((item, i) => collectDates(item, `${path}[${i}]`, into))
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) collectDates(x, path ? `${path}.${k}` : k, into)
}
