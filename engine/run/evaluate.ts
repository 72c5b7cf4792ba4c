/**
 * @module Evaluating a rule set: inputs in, result out, with the citations and data date of exactly
 * what was read, the notes the rules raise, and (on request) a step-by-step explanation (trace.ts).
 *
 * Formulas are computed lazily and once each, so a branch not taken reads no parameter and cites
 * nothing. Decisions and calls run first, in dependency order, so their citations and notes come in
 * one order whatever the outputs read. Everything runs synchronously: a decision is a compiled test
 * (conditions.ts), so a call is a plain function call and a search of hundreds of calls pays for no
 * promise; `evaluate` is async only for its callers.
 */
import { Collector, KEPT_RESULTS } from './collector.js'
import type { Step } from './trace.js'
import { callKey, toJson, toValues } from '../values/convert.js'
import { Dec, isDec } from '../values/decimal.js'
import { combinedCode, EvaluationError, InputError, WorkLimitError, type FieldProblem } from '../errors.js'
import { describe } from '../compile/expression.js'
import { givenSlots } from './given.js'
import type { Law } from '../load/load.js'
import type { Currency } from '../values/money.js'
import { text } from './notes.js'
import { earliestCommonDate, fallbackDataDate, reachable } from '../check/reach.js'
import { round } from '../values/round.js'
import type { CallNode, Check, EachNode, Node, RuleSet, ScopeDef, SolveNode, Template } from '../model/rule-set.js'
import { at, type Dated, type ParameterEntry, type Scalar, type TableEntry, type TableFamily } from '../data/tables.js'
import type { Runtime, TableReadAt, TableReadOn, TableValue, TableValueOf, Value } from '../model/types.js'

export type { ParameterRead, Step } from './trace.js'

export interface Evaluated {
  result: Record<string, unknown>
  citations: string[]
  data_as_of: string
  notes: string[]
  explanation?: Step[]
  /** The steps of work the evaluation counted against the request's budget (a batch sums them). */
  steps: number
  /** The values of the formulas named in `options.formulas`, as computed (or given). */
  formulas?: Record<string, Value>
}


/**
 * Evaluate rule set `id` on `input` (a validated request body or a caller's values). `given` sets
 * formulas of the rule set (not of those it calls) to values instead of computing them, and
 * `formulas` names formulas whose values the answer also returns: a single step tested in
 * isolation (golden cases of one rule set). @api public
 */
export async function evaluate(
  catalog: Law,
  id: string,
  input: Record<string, unknown>,
  options: { explain?: boolean; currency?: Currency; given?: Record<string, unknown>; formulas?: readonly string[] } = {},
): Promise<Evaluated> {
  const rs = catalog.ruleSets.get(id)
  if (!rs) throw new EvaluationError(`unknown rule set ${id}`)
  const { service } = catalog
  const currency = options.currency ?? { code: service.default_currency, ...service.currencies[service.default_currency]! }
  const collector = new Collector(options.explain === true, currency, service.limits)
  collector.request = input
  const step = options.given || options.formulas ? { given: givenSlots(rs, options.given ?? {}), read: options.formulas ?? [], values: {} } : undefined
  const result = run(catalog, rs, toValues(rs.inputs, input), collector, undefined, step)
  // The result's JSON is a fresh object: the notes go into it, not into a copy of it.
  const json = toJson(result) as Record<string, unknown>
  json.notes = collector.notes
  const out: Evaluated = {
    result: json,
    citations: [...collector.citations.keys()],
    // Never empty: an answer that read no table is dated by the data its rule set is built on.
    data_as_of: collector.asOf || dataDateOf(catalog, rs),
    notes: collector.notes,
    steps: collector.used,
  }
  if (collector.explanation) {
    const steps = collector.explanation.finish(JSON.stringify(out.result).length, rs.id)
    out.explanation = steps
    out.result.explanation = steps
  }
  if (step) out.formulas = step.values
  return out
}

const dataDates = new WeakMap<RuleSet, string>()
/** A rule set's data date when an evaluation read no table (reach.ts `fallbackDataDate`), worked out once. */
function dataDateOf(catalog: Law, rs: RuleSet): string {
  let date = dataDates.get(rs)
  if (date === undefined) dataDates.set(rs, (date = fallbackDataDate(rs, catalog.ruleSets, catalog.tables.values())))
  return date
}

/**
 * Evaluate one rule set; `request` is the evaluation of the request's own rule set when this one is
 * called by it; `step` gives formulas their values by slot and reads the formulas it names.
 */
function run(
  catalog: Law,
  rs: RuleSet,
  inputs: Record<string, Value>,
  collector: Collector,
  request?: Evaluation,
  step?: { given: Map<number, Value>; read: readonly string[]; values: Record<string, Value> },
): Record<string, Value> {
  const ev = new Evaluation(catalog, rs, collector, inputs, request)
  // A given formula's slot holds its value before anything reads it, so it is never computed.
  if (step) for (const [slot, value] of step.given) ev.root.bind(slot, value)
  ev.setDate()
  collector.cite(rs.references)
  check(rs, ev, false)
  ev.prepare(ev.root)
  check(rs, ev, true)
  const result = ev.render(rs.outputs, ev.root) as Record<string, Value>
  for (const note of rs.notes) {
    if (note.when && ev.bool(note.when.run(ev.root), 'note condition') === false) continue
    collector.note(text(note.parts, ev.root, collector.currency))
  }
  if (step) for (const name of step.read) step.values[name] = ev.root.get(name)
  return result
}

/**
 * Run one stage of a rule set's input checks; any failure is a 400 naming each field. A check whose
 * condition reads a table on a date before its first value (a date of death in 1799) is refused with
 * that date's field, beside the faults the other checks find: one fault does not hide another.
 */
function check(rs: RuleSet, ev: Evaluation, late: boolean): void {
  for (const stage of rs.checks) {
    if (stage.late !== late) continue
    const failures: { field: string; code: 'validation_error' | 'unsupported_parameter'; message: string }[] = []
    for (const ch of stage.checks) {
      try {
        for (const scope of checkScopes(ch, ev)) {
          if (!ev.bool(ch.when.run(scope), `the check on ${ch.field}`)) continue
          failures.push({ field: text(ch.fieldParts, scope, ev.collector.currency), code: ch.code, message: text(ch.message, scope, ev.collector.currency) })
        }
      } catch (error) {
        if (!(error instanceof InputError) || error instanceof WorkLimitError || error.code === 'work_limit_exceeded' || error.details.length === 0) throw error
        for (const d of error.details) {
          if (!failures.some((f) => f.field === d.field && f.message === d.message)) failures.push({ field: d.field, code: error.code, message: d.message })
        }
      }
    }
    if (failures.length === 0) continue
    // Several faults: by field (donees[2] before donees[10]), and in the order they are written for one field.
    failures.sort((a, b) => a.field.localeCompare(b.field, 'en', { numeric: true }))
    const details = failures.map(({ field, message }) => ({ field, message }))
    throw new InputError(combinedCode(failures.map((f) => f.code)), summary(details), details)
  }
}

/**
 * A called rule set's refusal, naming the caller's input where the call passed it under another name
 * (`tax_year: decedent_year_of_death`): the caller never sent the callee's field, so its name would
 * point nowhere. Other fields, and other errors, are left as they are.
 */
function callersFields(caller: RuleSet, node: CallNode, error: unknown): unknown {
  if (!(error instanceof InputError) || error instanceof WorkLimitError || error.details.length === 0) return error
  let renamed = false
  const details = error.details.map((d) => {
    const head = /^[a-z0-9_]+/.exec(d.field)?.[0]
    const passed = head === undefined ? undefined : node.input.get(head)?.text?.trim()
    if (passed === undefined || passed === head || !Object.hasOwn(caller.inputs, passed)) return d
    renamed = true
    return { field: passed + d.field.slice(head!.length), message: d.message }
  })
  return renamed ? new InputError(error.code, summary(details), details) : error
}

/** The scopes a check is made in: the root, or for `for_each` one per item, holding the item and its index. */
function checkScopes(ch: Check, ev: Evaluation): Scope[] {
  if (!ch.each) return [ev.root]
  const { over, as, index, scope } = ch.each
  // An optional list the caller did not send has no items to check.
  const list = over.run(ev.root) ?? []
  if (!Array.isArray(list)) throw new EvaluationError(`${ev.rs.id}: the check on ${ch.field} takes each item of ${describe(list)}`)
  const asSlot = as ? scope.slots.get(as) : undefined
  const indexSlot = scope.slots.get(index)
  return list.map((item, i) => {
    if (asSlot !== undefined && indexSlot !== undefined) {
      // The item and its index straight into their slots, as each() binds a list item: no record built.
      const child = new Scope(ev, scope, undefined, ev.root)
      child.bind(asSlot, item)
      child.bind(indexSlot, new Dec(i))
      return child
    }
    const bound = as ? { [as]: item } : { ...(item as Record<string, Value>) }
    return new Scope(ev, scope, { ...bound, [index]: new Dec(i) }, ev.root)
  })
}

/** The message of several faults: one field's, each said; several fields, named. */
function summary(details: FieldProblem[]): string {
  const fields = [...new Set(details.map((d) => d.field))]
  if (details.length === 1) return `${details[0]!.field} ${details[0]!.message}`
  if (fields.length === 1) return `${fields[0]} ${details.map((d) => d.message.replace(/\.$/, '')).join('; ')}`
  return `${fields.length} fields are inconsistent: ${fields.join(', ')}`
}

/** A scope of names: the root of a rule set, one list item, or one iterate of a fixed point. */
class Scope implements Runtime {
  /**
   * The scope's values by slot (ScopeDef.names): the bound ones set here, a formula's when it is
   * first read. Undefined is "not computed yet"; no value is undefined (an absent one is null).
   */
  private readonly values: (Value | undefined)[]
  constructor(
    readonly ev: Evaluation,
    readonly def: ScopeDef,
    bound: Record<string, Value> | undefined,
    readonly parent?: Scope,
  ) {
    this.values = new Array<Value | undefined>(def.names.length)
    // Own names only: `constructor` or `toString` is no value of a scope. Without `bound`, every
    // bound name starts null and the caller sets them by slot (bind).
    for (let i = 0; i < def.bound; i++) {
      const name = def.names[i]!
      this.values[i] = bound !== undefined && Object.hasOwn(bound, name) ? (bound[name] as Value) : null
    }
  }

  /** Set a bound name by its slot (an `each` item and its carried values, without a record of them). */
  bind(index: number, value: Value): void {
    this.values[index] = value
  }

  remember(name: string, value: Value): void {
    this.values[this.def.slots.get(name)!] = value
  }

  /** Whether a name of this scope has its value already (a formula given one). */
  known(name: string): boolean {
    return this.values[this.def.slots.get(name)!] !== undefined
  }

  /** The value in a slot of this scope (`depth` 0) or of one further out. */
  slot(depth: number, index: number): Value {
    if (depth > 0) return this.parent!.slot(depth - 1, index)
    const known = this.values[index]
    if (known !== undefined) return known
    const node = this.def.nodes[index]
    if (!node) throw new EvaluationError(`${this.ev.rs.id}: '${this.def.names[index]}' has no value`)
    const value = this.ev.compute(node, this)
    this.values[index] = value
    return value
  }

  /** A value by name: this scope's, else an outer one's. */
  get(name: string): Value {
    const index = this.def.slots.get(name)
    if (index !== undefined) return this.slot(0, index)
    if (this.parent) return this.parent.get(name)
    throw new EvaluationError(`${this.ev.rs.id}: '${name}' has no value`)
  }
  read<E extends TableEntry>(entry: E, on?: TableReadOn<E>): TableValueOf<E> {
    return this.ev.readTable(entry, on) as TableValueOf<E>
  }
  inForce(entry: TableEntry, date: string): boolean {
    if (entry.kind === 'series' || entry.kind === 'dataset') return true
    return at<unknown>(entry.history, date) !== undefined
  }
  family(id: string): TableFamily | undefined {
    return this.ev.catalog.families?.get(id)
  }
  citeValue(entry: ParameterEntry, dated: Dated<Scalar>): void {
    this.ev.use(entry)
    this.ev.collector.cite(dated.references)
    if (dated.unverified) this.ev.collector.note(`${entry.label}: ${dated.unverified}`)
    this.ev.collector.explanation?.read(entry, dated)
  }
  dataDate(asOf: string): void {
    if (asOf > this.ev.collector.asOf) this.ev.collector.asOf = asOf
  }
  work(units: number): void {
    this.ev.collector.tick(units)
  }
  currency(): Currency {
    return this.ev.collector.currency
  }
  keep<T extends Value>(key: string, compute: () => T): T {
    const kept = this.ev.collector.kept
    const known = kept.get(key)
    if (known !== undefined) return known as T
    const value = compute()
    if (kept.size < KEPT_RESULTS) kept.set(key, value)
    return value
  }
}

/** A call's inputs as the text of its memo key (toValues writes them in the order the callee declares them: no sorting needed). */
function inputsKey(values: Record<string, Value>): string {
  let key = ''
  for (const name in values) key += `|${callKey(values[name]!)}`
  return key
}

/** Whether a value is a record (not a decimal, not a list, not null). */
function isRecord(v: Value): v is { [key: string]: Value } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isDec(v)
}

/** A call site's answers, one level per input value in the site's order, the answer under SAME_RESULT. */
type SameCalls = Map<unknown, unknown>
const SAME_RESULT = Symbol('result')

class Evaluation {
  root: Scope
  date = ''
  dateGiven = true
  /**
   * Each table as read on the calculation date. A second read of one (a lookup per list item) has
   * nothing left to cite or note, so it is answered from here; only an explanation records it again.
   */
  private readonly readOnDate = new Map<TableEntry, Dated<unknown>>()
  /** The evaluation of the request's own rule set: this one, or the caller at the top of the calls. */
  readonly request: Evaluation
  /** On the request's own evaluation: each call site's answers by the identity of its input values. */
  readonly sameCalls = new Map<CallNode, Map<string, SameCalls>>()
  constructor(
    readonly catalog: Law,
    readonly rs: RuleSet,
    readonly collector: Collector,
    inputs: Record<string, Value>,
    request?: Evaluation,
  ) {
    this.root = new Scope(this, rs.root, inputs)
    this.request = request ?? this
  }

  setDate() {
    const d = this.rs.date
    if (!d) return
    const given = d.input ? this.root.get(d.input) : null
    this.dateGiven = given !== null
    const value = given !== null ? given : d.fallback.run(this.root)
    if (typeof value !== 'string') throw new EvaluationError(`${this.rs.id}: the calculation date is ${describe(value)}`)
    this.date = value
  }

  use(entry: TableEntry) {
    this.collector.cite(entry.references)
    if (entry.as_of > this.collector.asOf) this.collector.asOf = entry.as_of
  }

  /** Every table read of the evaluation, whatever the table's kind (Runtime `read`). */
  readTable(entry: TableEntry, on?: TableReadAt | { key: string }): TableValue {
    switch (entry.kind) {
      case 'series': {
        this.use(entry)
        const key = (on as { key: string }).key
        const v = entry.points.get(key)
        if (!v) throw new EvaluationError(`${entry.id} has no point ${key}`)
        const refs = entry.pointReferences.get(key)
        if (refs) this.collector.cite(refs)
        return v
      }
      case 'dataset':
        this.use(entry)
        if (!entry.store) throw new EvaluationError(`${entry.id} has no store: the catalog was loaded without its data sets`)
        return entry.store
      default: {
        const date = (on as TableReadAt | undefined)?.date
        const history = entry.history as Dated<TableValue>[]
        return (date === undefined ? this.read(entry, history) : this.readAt(entry, history, date)).value
      }
    }
  }

  /** The value of a table on another date of the case (a date of birth), with its citation and caveats. */
  readAt<T>(entry: TableEntry, history: Dated<T>[], date: string): Dated<T> {
    const dated = at(history, date)
    if (!dated) throw this.beforeTheRules(entry, history[0]?.from, date)
    this.use(entry)
    this.collector.cite(dated.references)
    if (dated.unverified) this.collector.note(`${entry.label}: ${dated.unverified}`)
    this.collector.explanation?.read(entry, dated)
    return dated
  }

  /**
   * A table read on a date before its first value: the caller's date (a date of birth in 1799), so
   * a 400 naming the request field that holds that date, whichever formula read it. A date the
   * rules derived (a birthday plus 70½ years) is named by the request field it equals, if any;
   * otherwise the answer says a date of the request is out of the rules' range.
   *
   * On the calculation date (`calculation`) the bound reported is the earliest date the whole
   * calculation can use: the latest first date of the dated tables of the rule sets it reaches, so
   * that a request sent again with it is not refused for another table. On another date (a date of
   * birth) it is the first date of the table read there.
   */
  beforeTheRules(entry: TableEntry, from: string | undefined, date: string, calculation = false): InputError {
    const field = calculation && this === this.request ? this.rs.date?.input : this.collector.dateField(date)
    const refuse = (detail: string) => new InputError('unsupported_parameter', field ? `${field} ${detail}` : `a date of the request: ${detail}`, [{ field: field ?? 'body', message: detail }])
    if (from === undefined) return refuse(`${date} is outside the rules' range: they hold no value of "${entry.label}" (${entry.id})`)
    let bound = from
    let limiting = entry
    if (calculation) {
      // A called rule set read on the request's own date answers for the request's whole calculation.
      const ev = date === this.request.date ? this.request : this
      const common = ev.earliestDate()
      if (common && common.date > bound) {
        bound = common.date
        limiting = common.entry
      }
    }
    const table = `"${limiting.label}" (${limiting.id})`
    return refuse(
      calculation
        ? `${date} is before ${bound}, the earliest date this calculation can use: its figures for ${table} start then; supported: from ${bound}`
        : `${date} is before ${bound}, the first date for which the rules hold ${table}; supported: from ${bound}`,
    )
  }

  /**
   * The first date on which every dated table this evaluation's rule set may read has a value, with
   * its calls templated on this request's inputs (`estate.state.{state}`) taken as this request names them.
   */
  earliestDate(): ReturnType<typeof earliestCommonDate> {
    const known = (name: string): Value | undefined => (Object.hasOwn(this.rs.inputs, name) ? this.root.get(name) : undefined)
    return earliestCommonDate(reachable(this.rs, this.catalog.ruleSets, known))
  }

  /** The value of a table on the calculation date, with its citation, data date and caveats. */
  read<T>(entry: TableEntry, history: Dated<T>[]): Dated<T> {
    const known = this.readOnDate.get(entry) as Dated<T> | undefined
    if (known) {
      this.collector.explanation?.read(entry, known)
      return known
    }
    if (!this.date) throw new EvaluationError(`${this.rs.id} reads ${entry.id} but declares no calculation date`)
    // A date the caller sent that comes before the law the rules hold is the caller's to change (400);
    // the supported years' defaults are checked at load, so any other miss is a defect in the rules.
    if (this.dateGiven && history.length > 0 && this.date < history[0]!.from) throw this.beforeTheRules(entry, history[0]!.from, this.date, true)
    const dated = this.readAt(entry, history, this.date)
    this.readOnDate.set(entry, dated)
    if (!this.dateGiven) {
      const year = this.date.slice(0, 4)
      const later = history.find((h) => h.from > this.date && h.from.startsWith(year))
      if (later) {
        this.collector.note(
          `${entry.label} changes on ${later.from}; no ${this.rs.date?.input ?? 'date'} was given, so the law in force on ${this.date} was applied. Send ${this.rs.date?.input ?? 'the date'} for a death on or after ${later.from}.`,
        )
      }
    }
    return dated
  }

  compute(node: Node, scope: Scope): Value {
    const c = this.collector
    c.tick()
    const trace = c.explanation?.recording ? c.explanation : undefined
    trace?.open()
    let value: Value
    switch (node.kind) {
      case 'formula':
        value = node.expr.run(scope)
        break
      case 'each':
        value = this.each(node, scope)
        break
      case 'solve':
        value = this.solve(node, scope)
        break
      default:
        throw new EvaluationError(`${this.rs.id}: ${node.kind} '${node.name}' may stand only at the top of a rule set`)
    }
    // A value that is null (not applicable, not given) has nothing to round and stays null.
    if (node.round && value !== null) {
      if (!isDec(value)) throw new EvaluationError(`${this.rs.id}: '${node.name}' rounds but is ${describe(value)}`)
      value = round(value, node.round)
    }
    c.cite(node.references)
    trace?.close(this.rs, node, value, node.references)
    return value
  }

  /** Evaluate the nodes a scope evaluates first (decisions, calls, lists holding them), in order. */
  prepare(scope: Scope): void {
    for (const name of scope.def.firstOrder) {
      if (scope.known(name)) continue
      const node = scope.def.formulas.get(name)!
      let value: Value
      if (node.kind === 'call') value = this.call(node, scope)
      else if (node.kind === 'decision') value = this.decide(node, scope)
      else if (node.kind === 'each') {
        value = this.each(node, scope)
        this.collector.cite(node.references)
      } else throw new EvaluationError(`${this.rs.id}: '${name}' is not evaluated first`)
      scope.remember(name, value)
    }
  }

  decide(node: Node, scope: Scope): Value {
    if (node.kind !== 'decision') throw new EvaluationError('not a decision')
    const trace = this.collector.explanation
    trace?.open()
    const facts: Record<string, Value> = {}
    for (const [f, e] of node.facts) facts[f] = e.run(scope)
    const { outcome, references } = node.decision.decide(facts)
    const refs = [...node.references, ...references]
    this.collector.cite(refs)
    trace?.close(this.rs, node, outcome, refs)
    return outcome
  }

  call(node: CallNode, scope: Scope): Value {
    if (node.when && !this.bool(node.when.run(scope), `when of '${node.name}'`)) return null
    let target = node.target.includes('{') ? node.target.replace(/\{([a-z0-9_]+)\}/g, (_m, n: string) => String(scope.get(n)).toLowerCase()) : node.target
    if (!this.catalog.ruleSets.has(target) && node.fallback) target = node.fallback
    const callee = this.catalog.ruleSets.get(target)
    if (!callee) throw new EvaluationError(`${this.rs.id}: no rule set ${target}`)
    const input: Record<string, Value> = {}
    for (const [k, e] of node.input) input[k] = e.run(scope)
    // The same call site given the very same values again (a spouse's claiming age, read from one
    // list for every age of the other) is answered without building its text key: values are never
    // changed once made, so the same objects are the same inputs.
    let same = this.request.sameCalls.get(node)
    if (!same) {
      // The site's first call in the request: most sites are called once (a state's call of the
      // federal rules), so their index by identity is begun only at the second.
      this.request.sameCalls.set(node, new Map())
      return this.callSite(node, callee, target, input)
    }
    let level = same.get(target)
    if (!level) same.set(target, (level = new Map()))
    for (const k in input) {
      const v = input[k]!
      let next = level.get(v) as SameCalls | undefined
      if (!next) level.set(v, (next = new Map()))
      level = next
    }
    const again = level.get(SAME_RESULT) as Record<string, Value> | undefined
    if (again) return again
    const result = this.callSite(node, callee, target, input)
    level.set(SAME_RESULT, result)
    return result
  }

  /** A call answered by the request's memo or run, its refusal naming the caller's fields. */
  private callSite(node: CallNode, callee: RuleSet, target: string, input: Record<string, Value>): Record<string, Value> {
    try {
      return this.callByKey(callee, target, input)
    } catch (error) {
      throw callersFields(this.rs, node, error)
    }
  }

  /** A call answered from the request's memo by its inputs' text key, or run. */
  private callByKey(callee: RuleSet, target: string, input: Record<string, Value>): Record<string, Value> {
    const values = toValues(callee.inputs, input)
    const memo = this.collector.calls
    const made = memo.get(target)
    if (!made) {
      const result = this.runCall(callee, values)
      memo.set(target, { first: { values, result } })
      return result
    }
    if (!made.byKey) {
      made.byKey = new Map()
      if (made.first) made.byKey.set(inputsKey(made.first.values), made.first.result)
      made.first = undefined
    }
    const key = inputsKey(values)
    const known = made.byKey.get(key)
    if (known) return known
    const result = this.runCall(callee, values)
    made.byKey.set(key, result)
    return result
  }

  /** Run a called rule set: a step of its own, beside those of its formulas. */
  private runCall(callee: RuleSet, values: Record<string, Value>): Record<string, Value> {
    this.collector.tick()
    return run(this.catalog, callee, values, this.collector, this.request)
  }

  /** The items of a list, one scope each, with the carried values passed on. */
  each(node: EachNode, scope: Scope): Value {
    // An optional list input the caller did not send maps to no items (an empty list).
    const list = node.over.run(scope) ?? []
    if (!Array.isArray(list)) throw new EvaluationError(`${this.rs.id}: '${node.name}' maps over ${describe(list)}`)
    const carried: Record<string, Value> = {}
    for (const c of node.carry) carried[c.name] = c.start.run(scope)
    const out: Value[] = []
    const asSlot = node.as ? node.scope.slots.get(node.as) : undefined
    const carrySlots = node.carry.map((c) => node.scope.slots.get(c.name)!)
    const explained = this.collector.explanation?.recording ? this.collector.explanation.items(this.rs, node) : undefined
    for (let i = 0; i < list.length; i++) {
      const item = list[i]!
      this.collector.tick()
      explained?.item(i)
      let child: Scope
      if (asSlot !== undefined) {
        // The item and the carried values straight into their slots, the carried ones last as a
        // record of { item, ...carried } would have them: one scope per item, nothing else built.
        child = new Scope(this, node.scope, undefined, scope)
        child.bind(asSlot, item)
        for (let j = 0; j < carrySlots.length; j++) child.bind(carrySlots[j]!, carried[node.carry[j]!.name]!)
      } else if (isRecord(item)) {
        // The item's fields and the carried values straight into their slots, the carried ones
        // first as they would override the item's in { ...item, ...carried }: no record built.
        child = new Scope(this, node.scope, undefined, scope)
        const { names, bound } = node.scope
        for (let j = 0; j < bound; j++) {
          const name = names[j]!
          if (Object.hasOwn(carried, name)) child.bind(j, carried[name]!)
          else if (Object.hasOwn(item, name)) child.bind(j, item[name]!)
        }
      } else child = new Scope(this, node.scope, { ...(item as unknown as Record<string, Value>), ...carried }, scope)
      this.prepare(child)
      out.push(this.render(node.result, child) ?? null)
      if (node.until && this.bool(node.until.run(child), `until of '${node.name}'`)) break
      for (const c of node.carry) carried[c.name] = c.next.run(child)
    }
    explained?.end(out.length)
    return out
  }

  /**
   * The fixed point x = next(x) by the secant method, then plain iteration if the secant stalls.
   * A piecewise-linear `next` (a tax deductible in its own base) converges to the exact point in a
   * few steps once two iterates share a piece.
   */
  solve(node: SolveNode, scope: Scope): Value {
    const g = (x: Dec): Dec => {
      this.collector.tick()
      const child = new Scope(this, node.scope, { [node.name]: x }, scope)
      const v = node.next.run(child)
      if (!isDec(v)) throw new EvaluationError(`${this.rs.id}: '${node.name}' iterates to ${describe(v)}`)
      return v
    }
    const start = node.start.run(scope)
    if (!isDec(start)) throw new EvaluationError(`${this.rs.id}: '${node.name}' starts at ${describe(start)}`)
    this.collector.explanation?.hush()
    let solution: Dec | undefined
    try {
      let x0 = start
      let h0 = g(x0).minus(x0)
      let x1 = x0.plus(h0)
      for (let i = 0; i < node.maxIterations && !solution; i++) {
        const h1 = g(x1).minus(x1)
        if (h1.abs().lte(node.tolerance)) solution = x1
        else {
          const slope = h1.minus(h0)
          const next = slope.isZero() ? x1.plus(h1) : x1.minus(h1.times(x1.minus(x0)).div(slope))
          x0 = x1
          h0 = h1
          x1 = next
        }
      }
      let x = start
      for (let i = 0; i < node.maxIterations && !solution; i++) {
        const gx = g(x)
        if (gx.minus(x).abs().lte(node.tolerance)) solution = gx
        x = gx
      }
    } finally {
      this.collector.explanation?.speak()
    }
    if (!solution) throw new EvaluationError(`${this.rs.id}: '${node.name}' did not converge in ${node.maxIterations} iterations`)
    // One last pass at the solution, traced, so the explanation shows the final figures.
    const child = new Scope(this, node.scope, { [node.name]: solution }, scope)
    for (const name of node.scope.order) child.get(name)
    return solution
  }

  render(t: Template, scope: Scope): Value | undefined {
    switch (t.kind) {
      case 'value': {
        const v = t.expr.run(scope)
        if (t.round && v !== null) {
          if (!isDec(v)) throw new EvaluationError(`${this.rs.id}: an output rounds but is ${describe(v)}`)
          return round(v, t.round)
        }
        return v
      }
      case 'when':
        return this.bool(t.when.run(scope), 'output condition') ? this.render(t.then, scope) : undefined
      case 'object': {
        const out: Record<string, Value> = {}
        for (const [k, sub] of t.fields) {
          const v = this.render(sub, scope)
          if (v !== undefined) out[k] = v
        }
        return out
      }
    }
  }

  bool(v: Value, what: string): boolean {
    if (typeof v !== 'boolean') throw new EvaluationError(`${this.rs.id}: ${what} is ${describe(v)}`)
    return v
  }
}


