/**
 * @module What one request gathers across the rule sets it runs: the citations and notes in the
 * order they were first met, the newest data date, the explanation's steps, the results of the
 * calls made so far, and the work done against the request's limits.
 */
import { WorkLimitError } from './errors.js'
import type { ParameterRead, Step } from './evaluate.js'
import type { Currency } from './money.js'
import type { Citation } from './tables.js'
import type { Value } from './types.js'

/** What one request gathers across the rule sets it runs. @api private */
/** How many steps run between two looks at the clock for the time limit. */
const STEPS_BETWEEN_TIME_LIMIT_CHECKS = 1024

export class Collector {
  citations = new Map<string, Citation>()
  notes: string[] = []
  asOf = ''
  steps: Step[] | undefined
  frames: ParameterRead[][] = []
  quiet = 0
  /**
   * Results of the rule sets called so far, by callee and inputs. Every rule set is pure (no clock,
   * no I/O: its answer is a function of its inputs and the tables), so a call made again with the
   * same inputs (a person's benefit stream at one claiming age, for every age of the spouse) is
   * answered from here. Its citations and notes were collected the first time.
   */
  readonly calls = new Map<string, Record<string, Value>>()
  /** The request's dates by value, with the field holding each: what a date out of range is named by. */
  readonly dateFields = new Map<string, string>()
  /** Work done so far, against the request's limits. */
  private work = 0
  private readonly deadline: number

  constructor(
    explain: boolean,
    /** How notes print money: the endpoint's currency. */
    readonly currency: Currency,
    private readonly limits: { steps: number; milliseconds: number },
  ) {
    if (explain) this.steps = []
    // The clock bounds how long a request may run; it never changes what an answer says.
    this.deadline = Date.now() + limits.milliseconds
  }
  /** Count one step of work (a formula, a list item, a call, an iteration); refuse the request past a limit. */
  tick() {
    if (++this.work > this.limits.steps) {
      throw new WorkLimitError(`the request needs more than ${this.limits.steps} evaluation steps, the most one request may take; ask for less work (a coarser grid, a shorter schedule)`)
    }
    // Reading the clock costs more than a step: look only every so many steps.
    if (this.work % STEPS_BETWEEN_TIME_LIMIT_CHECKS === 0 && Date.now() > this.deadline) {
      throw new WorkLimitError(`the request ran past ${this.limits.milliseconds} ms, the longest one request may take; ask for less work (a coarser grid, a shorter schedule)`)
    }
  }
  cite(refs: Citation[]) {
    for (const r of refs) if (!this.citations.has(r.title)) this.citations.set(r.title, r)
  }
  note(text: string) {
    if (!this.notes.includes(text)) this.notes.push(text)
  }
}
