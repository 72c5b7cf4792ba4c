/**
 * @module Compiling one rule set file: inputs, formulas in dependency order, decisions, calls,
 * lists, fixed points, checks, outputs and notes, into the model of model/rule-set.ts.
 *
 * Every problem (unknown name, cycle, malformed decision, a table of the wrong kind) is pushed with
 * its `file:line:column`; nothing is thrown, so one run of the rule check reports them all.
 */
import { rounding, type Rounding, type RoundingMode } from '../values/round.js'
import type { Problem } from '../errors.js'
import type { NameResolver } from './expression.js'
import type { PathSegment, SourceFile } from '../load/source.js'
import { toCitations, type TableEntry } from '../data/tables.js'
import { compileAt, inputSpec, type Compiler, type Raw } from './compiler.js'
import { compileFunctions, type RawFunction } from './functions.js'
import { noteParts, template } from './outputs.js'
import { compileScope, nested, scopeLayout, waitsForFirst } from './scope.js'
import { itemFields } from './nodes.js'
import type { Check, CheckStage, InputSpec, NoteDef, RuleSet } from '../model/rule-set.js'

/** Compile a validated rule set file. @api private */
export function compileRuleSet(
  source: SourceFile,
  id: string,
  tables: (name: string) => TableEntry | undefined,
  problems: Problem[],
  shared: Map<string, Rounding> = new Map(),
): RuleSet {
  const raw = source.data as Raw
  const roundings = new Map<string, Rounding>(shared)
  for (const [name, r] of Object.entries((raw.roundings ?? {}) as Record<string, { step: string; mode: RoundingMode }>)) {
    roundings.set(name, rounding(r.step, r.mode))
  }
  const c: Compiler = { source, problems, tables, roundings, allTables: new Set(), calls: [] }
  const inputs: Record<string, InputSpec> = {}
  for (const [name, spec] of Object.entries((raw.inputs ?? {}) as Record<string, Raw>)) {
    inputs[name] = inputSpec(c, spec, ['inputs', name])
  }
  const inputNames = new Set(Object.keys(inputs))
  const formulasRaw = (raw.formulas ?? {}) as Record<string, Raw>
  for (const name of Object.keys(formulasRaw)) {
    if (inputNames.has(name)) problems.push(source.problem(['formulas', name], `duplicate name '${name}': it is already an input`))
    if (tables(name)) problems.push(source.problem(['formulas', name], `duplicate name '${name}': it is already a table of this rule set`))
  }
  const functions = compileFunctions(c, (raw.functions ?? {}) as Record<string, RawFunction>, tables)
  const layout = scopeLayout({ hasValue: () => false, table: tables, fn: (n) => functions.get(n) }, [...inputNames], Object.keys(formulasRaw))
  const rootResolver: NameResolver = layout.resolver
  const root = compileScope(c, formulasRaw, ['formulas'], rootResolver, new Set(), new Set(inputNames), layout.names)

  const expr = (text: string, path: PathSegment[], resolver = rootResolver) => compileAt(c, text, path, resolver)

  let date: RuleSet['date']
  const rawDate = raw.date as { input?: string; default: string } | undefined
  if (rawDate) {
    if (rawDate.input && !inputNames.has(rawDate.input)) problems.push(source.problem(['date', 'input'], `unknown input '${rawDate.input}'`))
    const fallback = expr(rawDate.default, ['date', 'default'])
    if (fallback) date = rawDate.input ? { input: rawDate.input, fallback } : { fallback }
  }

  // Checks in two stages: those that read a decision or a call (directly or through formulas) wait
  // for them; the others run first, so a bad request is refused before any call is made.
  const checks: CheckStage[] = []
  const rawChecks = (raw.checks ?? []) as RawCheck[]
  const waits = waitsForFirst(root)
  const compiled = rawChecks.flatMap((ch, i) => {
    const each = ch.for_each !== undefined ? checkEach(c, ch, ['checks', i], rootResolver) : undefined
    if (ch.for_each !== undefined && !each) return []
    const resolver = each?.resolver ?? rootResolver
    const when = expr(ch.when, ['checks', i, 'when'], resolver)
    if (!when) return []
    fieldProblem(c, inputs, ch, ['checks', i, 'field'], each?.each)
    // A message may print values of the request, as a note does: "{year_month(valuation_date)}";
    // a field too, as a check over a list names its item: "donees[{i}].relationship".
    const check: Check = {
      when,
      field: ch.field,
      fieldParts: noteParts(c, ch.field, ['checks', i, 'field'], resolver),
      code: ch.code ?? 'validation_error',
      message: noteParts(c, ch.message, ['checks', i, 'message'], resolver),
    }
    if (each) check.each = each.each
    const deps = [...when.deps, ...(each?.each.over.deps ?? [])]
    return [{ check, late: deps.some(waits) }]
  })
  for (const late of [false, true]) {
    const stage = compiled.filter((x) => x.late === late).map((x) => x.check)
    if (stage.length > 0) checks.push({ checks: stage, late })
  }

  // Decisions and calls are evaluated first in their scope (evaluate.ts, prepare); the iterates of a
  // fixed point are scopes the solver makes on demand, which never get that pass.
  for (const node of root.formulas.values()) {
    for (const solve of [node, ...nested(node)].filter((n) => n.kind === 'solve')) {
      for (const inner of nested(solve)) {
        if (inner.kind === 'decision' || inner.kind === 'call') {
          problems.push(source.problem(inner.path, `${inner.kind} '${inner.name}' may not stand inside the fixed point '${solve.name}'`))
        }
      }
    }
  }
  const outputs = template(c, raw.outputs as Raw, ['outputs'], rootResolver)
  const notes: NoteDef[] = ((raw.notes ?? []) as { when?: string; text: string }[]).map((note, i) => {
    const def: NoteDef = { parts: noteParts(c, note.text, ['notes', i, 'text'], rootResolver) }
    if (note.when) {
      const when = expr(note.when, ['notes', i, 'when'])
      if (when) def.when = when
    }
    return def
  })
  const rs: RuleSet = {
    id,
    functions,
    file: source.file,
    title: String(raw.title),
    references: toCitations(raw.reference),
    inputs,
    root,
    outputs,
    notes,
    tables: c.allTables,
    calls: c.calls,
    checks,
  }
  if (date) rs.date = date
  return rs
}


interface RawCheck {
  when: string
  field: string
  message: string
  code?: Check['code']
  for_each?: string
  as?: string
  index?: string
}

/**
 * The scope of a check made once per item of a list (`for_each`): the item's fields (or `as`) and
 * its index, bound in a scope inside the root, as in an `each` without formulas.
 */
function checkEach(c: Compiler, ch: RawCheck, path: PathSegment[], outer: NameResolver): { each: NonNullable<Check['each']>; resolver: NameResolver } | undefined {
  const over = compileAt(c, ch.for_each!, [...path, 'for_each'], outer)
  const fields = ch.as ? [ch.as] : itemFields(c, outer, ch.for_each!, [...path, 'for_each'])
  const index = ch.index ?? 'i'
  if (fields.includes(index)) {
    c.problems.push(c.source.problem([...path, ch.index ? 'index' : 'for_each'], `the item's index is named '${index}', which is also ${ch.as ? 'the item' : 'a field of the items'}; name the index otherwise with index:`))
    return undefined
  }
  const bound = [...fields, index]
  const layout = scopeLayout(outer, bound, [])
  const scope = compileScope(c, {}, [...path, 'for_each'], layout.resolver, new Set(), new Set(bound), layout.names)
  if (!over) return undefined
  const each: NonNullable<Check['each']> = { over, index, scope }
  if (ch.as) each.as = ch.as
  return { each, resolver: layout.resolver }
}

/**
 * A check names a request field: an input, or a path into one (`deductions.marital_deduction`,
 * `donees[{i}].relationship`, a placeholder standing for an index). A name that is no input is a typo.
 */
function fieldProblem(c: Compiler, inputs: Record<string, InputSpec>, ch: RawCheck, path: PathSegment[], each: Check['each'] | undefined): void {
  const written = ch.field.replace(/\{[^{}]*\}/g, '0')
  const parts = written.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []
  let spec: InputSpec | undefined = { type: 'object', fields: inputs }
  for (const part of parts) {
    if (!spec) break
    if (part.startsWith('[')) spec = /^\[\d+\]$/.test(part) && spec.type === 'list' ? spec.items : undefined
    else spec = spec.type === 'object' && spec.fields && Object.hasOwn(spec.fields, part) ? spec.fields[part] : undefined
  }
  const example = each ? `${ch.for_each!.trim()}[{${each.index}}].<field>` : ''
  if (!spec || parts.length === 0 || !/^[a-z0-9_.[\]]+$/.test(written)) {
    c.problems.push(c.source.problem(path, `'${ch.field}' is not a request field of this rule set: a check names the input at fault${each ? `, an item's as ${example}` : ''}`))
  } else if (each && !/\{[^{}]*\}/.test(ch.field)) {
    c.problems.push(c.source.problem(path, `a check made for each item names the item's field by its index, as ${example}, not '${ch.field}'`))
  }
}
