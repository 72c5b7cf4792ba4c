/**
 * @module The explanation of an answer (`explain: true`): one step per formula, decision and list
 * computed, each with the table values it read and what it cites. Kept apart from evaluation, which
 * only tells it what happened; without `explain` there is no Explanation and nothing is recorded.
 */
import { isDec } from '../values/decimal.js'
import { toJson } from '../values/convert.js'
import type { Citation, Dated, TableEntry } from '../data/tables.js'
import type { Node } from '../model/rule-set.js'
import type { Value } from '../model/types.js'

/** A table value a step read: the table, the date its value took effect, the value when it is an amount. */
export interface ParameterRead {
  id: string
  effective_date: string
  value?: string
}

export interface Step {
  rule_set: string
  step: string
  label?: string
  value: unknown
  parameters: ParameterRead[]
  citations: string[]
}

/** The steps of one request's explanation, as the evaluation reports them. @api private */
export class Explanation {
  readonly steps: Step[] = []
  /** The reads of each step being computed, innermost last. */
  private readonly frames: ParameterRead[][] = []
  /** While above 0 (the iterations of a fixed point), nothing is recorded. */
  private hushed = 0

  /** Whether steps are recorded now. */
  get recording(): boolean {
    return this.hushed === 0
  }

  /** Record nothing until `speak`: a search's trials are not the answer's steps. */
  hush(): void {
    this.hushed++
  }
  speak(): void {
    this.hushed--
  }

  /** A step starts: the table reads until it ends are its own. */
  open(): void {
    this.frames.push([])
  }

  /** A table read, in the step being computed (if one is). */
  read(entry: TableEntry, dated: Dated<unknown>): void {
    const frame = this.frames[this.frames.length - 1]
    if (frame) frame.push({ id: entry.id, effective_date: dated.from, ...(isDec(dated.value) ? { value: dated.value.toString() } : {}) })
  }

  /** The step ends with its value and what it cites. */
  close(ruleSet: string, node: Node, value: Value, refs: Citation[]): void {
    const parameters = this.frames.pop()!
    const s: Step = { rule_set: ruleSet, step: node.name, value: toJson(value), parameters, citations: refs.map((r) => r.title) }
    if (node.label) s.label = node.label
    this.steps.push(s)
  }

  /**
   * A list's items as an explanation shows them: the first and the last in full and one summary
   * step for those between, so that a 97 × 97 grid explains in a few hundred steps, not in
   * hundreds of thousands. Call `item(i)` before each item and `end` after the last.
   */
  items(ruleSet: string, node: Node): { item(i: number): void; end(count: number): void } {
    const steps = this.steps
    let firstEnd = 0
    let lastStart = 0
    let summarised = 0
    return {
      item(i) {
        if (i === 1) firstEnd = steps.length
        // The item before this one was neither the first nor, now, the last: its steps give way.
        if (i >= 2) {
          steps.length = lastStart
          summarised++
        }
        lastStart = steps.length
      },
      end(count) {
        if (summarised === 0) return
        steps.splice(firstEnd, 0, {
          rule_set: ruleSet,
          step: node.name,
          label: `${summarised} item(s) between the first and the last, not shown one by one`,
          value: { items: count, summarised },
          parameters: [],
          citations: [],
        })
      },
    }
  }
}
