/**
 * @module The explanation of an answer (`explain: true`): one step per formula, decision and list
 * computed, each with its formula as written and where it is written (`file:line`), the table
 * values it read and what it cites. Kept apart from evaluation, which only tells it what happened;
 * without `explain` there is no Explanation and nothing is recorded.
 *
 * An explanation is bounded: a step's value longer than VALUE_BYTES is summarised, and the whole is
 * at most EXPLANATION_BYTES and at most TIMES_THE_ANSWER times the answer, a last step saying how
 * many steps were left out. An explained search of every FDA letter was 3 MB, a thousand times its
 * answer, before; no reader goes through that, and it is sent, logged and held in memory.
 */
import { isDec } from '../values/decimal.js'
import { toJson } from '../values/convert.js'
import { readYaml, type SourceFile } from '../load/source.js'
import type { Citation, Dated, TableEntry } from '../data/tables.js'
import type { Node, RuleSet } from '../model/rule-set.js'
import type { Value } from '../model/types.js'

/** A step's value longer than this, as JSON, is shown summarised (its size and first item). */
const VALUE_BYTES = 2_048
/** The most an explanation may hold, as JSON. */
const EXPLANATION_BYTES = 256 * 1024
/** And the most, as a multiple of the answer it explains. */
const TIMES_THE_ANSWER = 50

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
  /** The formula as written in the rule file (a list's `over`, a decision's rules by outcome). */
  formula?: string
  /** Where the step is written: `rules/…yaml:line`. */
  where?: string
  value: unknown
  parameters: ParameterRead[]
  citations: string[]
}

/** Each rule file read again with positions, once per loaded rule set, to place the steps of an explanation. */
// Kept by the compiled rule set, not its file name: a catalog loaded again after an edit (npm run
// dev) places its steps in the file as it is now.
const sources = new WeakMap<RuleSet, SourceFile | undefined>()
function lineOf(rs: RuleSet, path: Node['path']): number | undefined {
  if (!sources.has(rs)) sources.set(rs, readYaml(rs.file).source)
  return sources.get(rs)?.problem(path, '').line
}

/** What a node computes, as written. */
function formulaOf(node: Node): string | undefined {
  switch (node.kind) {
    case 'formula':
      return node.expr.text?.trim() ?? node.expr.texts?.written
    case 'each':
      return node.over.text === undefined ? undefined : `each of ${node.over.text.trim()}`
    case 'solve':
      return node.next.text === undefined ? undefined : `the fixed point of ${node.name} = ${node.next.text.trim()}`
    case 'decision': {
      // Its rules as written: each outcome with its condition, then the default.
      const outcomes = node.decision.outcomes
      const rules = node.whens.map((w, i) => `${outcomes[i]} when ${w.text?.trim() ?? '…'}`)
      if (node.decision.fallback !== undefined) rules.push(`else ${node.decision.fallback}`)
      return rules.join('; ')
    }
    default:
      return undefined
  }
}

/** A value as a step shows it: whole when short, else its size and first item. */
function shown(value: Value): unknown {
  const json = toJson(value)
  const text = JSON.stringify(json)
  if (text === undefined || text.length <= VALUE_BYTES) return json
  if (Array.isArray(json)) {
    const first = JSON.stringify(json[0])
    return { summarised: `a list of ${json.length} items, ${text.length} bytes; the first shown`, ...(first !== undefined && first.length <= VALUE_BYTES ? { first: json[0] } : {}) }
  }
  if (typeof json === 'string') return `${json.slice(0, VALUE_BYTES)}… (${json.length} characters)`
  const fields = Object.keys(json as object)
  return { summarised: `a record of ${fields.length} fields, ${text.length} bytes: ${fields.slice(0, 20).join(', ')}${fields.length > 20 ? ', …' : ''}` }
}

/** The steps of one request's explanation, as the evaluation reports them. @api private */
export class Explanation {
  readonly steps: Step[] = []
  /** Each kept step's size as JSON, and their sum: past EXPLANATION_BYTES further steps are counted, not kept. */
  private readonly sizes: number[] = []
  private bytes = 0
  private leftOut = 0
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
  close(rs: RuleSet, node: Node, value: Value, refs: Citation[]): void {
    // A table read once per list item is the same read each time: listed once.
    const seen = new Set<string>()
    const parameters = this.frames.pop()!.filter((p) => {
      const key = `${p.id}@${p.effective_date}`
      return !seen.has(key) && seen.add(key) !== undefined
    })
    if (this.bytes > EXPLANATION_BYTES) {
      this.leftOut++
      return
    }
    const formula = formulaOf(node)
    const line = lineOf(rs, node.path)
    const s: Step = {
      rule_set: rs.id,
      step: node.name,
      ...(node.label ? { label: node.label } : {}),
      ...(formula !== undefined ? { formula } : {}),
      ...(line !== undefined ? { where: `${rs.file}:${line}` } : {}),
      value: shown(value),
      parameters,
      citations: refs.map((r) => r.title),
    }
    const size = JSON.stringify(s).length + 1
    this.bytes += size
    this.sizes.push(size)
    this.steps.push(s)
  }

  /**
   * The explanation of an answer of `answerBytes`: its steps cut to the bound, the last one saying
   * how many were left out and why.
   */
  finish(answerBytes: number, ruleSet: string): Step[] {
    const bound = Math.min(EXPLANATION_BYTES, TIMES_THE_ANSWER * answerBytes)
    let size = 2
    let kept = 0
    while (kept < this.steps.length && size + this.sizes[kept]! <= bound) size += this.sizes[kept++]!
    const leftOut = this.leftOut + this.steps.length - kept
    if (leftOut === 0) return this.steps
    const steps = this.steps.slice(0, kept)
    steps.push({
      rule_set: ruleSet,
      step: 'left_out',
      label: `${leftOut} further step(s) left out: an explanation is bounded at ${bound} bytes (${TIMES_THE_ANSWER} times the answer, at most ${EXPLANATION_BYTES})`,
      value: { steps: leftOut },
      parameters: [],
      citations: [],
    })
    return steps
  }

  /**
   * A list's items as an explanation shows them: the first and the last in full and one summary
   * step for those between, so that a 97 × 97 grid explains in a few hundred steps, not in
   * hundreds of thousands. Call `item(i)` before each item and `end` after the last.
   */
  items(rs: RuleSet, node: Node): { item(i: number): void; end(count: number): void } {
    const { steps, sizes } = this
    const grow = (bytes: number) => {
      this.bytes += bytes
    }
    const cut = (length: number) => {
      for (let k = length; k < sizes.length; k++) this.bytes -= sizes[k]!
      steps.length = length
      sizes.length = length
    }
    let firstEnd = 0
    let lastStart = 0
    let summarised = 0
    return {
      item(i) {
        if (i === 1) firstEnd = steps.length
        // The item before this one was neither the first nor, now, the last: its steps give way.
        if (i >= 2) {
          cut(lastStart)
          summarised++
        }
        lastStart = steps.length
      },
      end(count) {
        if (summarised === 0) return
        const formula = formulaOf(node)
        const line = lineOf(rs, node.path)
        const summary: Step = {
          rule_set: rs.id,
          step: node.name,
          label: `${summarised} item(s) between the first and the last, not shown one by one`,
          ...(formula !== undefined ? { formula } : {}),
          ...(line !== undefined ? { where: `${rs.file}:${line}` } : {}),
          value: { items: count, summarised },
          parameters: [],
          citations: [],
        }
        const size = JSON.stringify(summary).length + 1
        steps.splice(firstEnd, 0, summary)
        sizes.splice(firstEnd, 0, size)
        grow(size)
      },
    }
  }
}
