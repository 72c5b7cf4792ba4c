/**
 * @module A rule set's result shape (outputs: expressions, {formula, round}, {when, then}, mappings)
 * and the text of its notes and messages with their `{value}` placeholders, compiled.
 */
import type { CompiledExpression, NameResolver } from './expression.js'
import type { PathSegment } from '../load/source.js'
import type { NoteDef, Template } from '../model/rule-set.js'
import { compileAt, type Compiler, type Raw } from './compiler.js'

export const RESERVED = new Set(['formula', 'round', 'when', 'then'])

export function template(
  c: Compiler,
  raw: unknown,
  path: PathSegment[],
  resolver: NameResolver,
  outer?: Set<string>,
  innerNames?: Set<string>,
): Template {
  const track = (e: CompiledExpression | undefined) => {
    if (e && outer) for (const d of e.deps) if (!innerNames?.has(d)) outer.add(d)
    return e
  }
  const fallback: Template = { kind: 'object', fields: [] }
  if (typeof raw === 'string') {
    const e = track(compileAt(c, raw, path, resolver))
    return e ? { kind: 'value', expr: e } : fallback
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    c.problems.push(c.source.problem(path, 'an output is an expression, a {formula, round} pair, a {when, then} pair or a mapping of outputs'))
    return fallback
  }
  const obj = raw as Raw
  if ('formula' in obj) {
    const e = track(compileAt(c, String(obj.formula), [...path, 'formula'], resolver))
    if (!e) return fallback
    const t: Template = { kind: 'value', expr: e }
    if (typeof obj.round === 'string') {
      const r = c.roundings.get(obj.round)
      if (!r) c.problems.push(c.source.problem([...path, 'round'], `unknown rounding '${obj.round}'; declare it under roundings:`))
      else t.round = r
    }
    return t
  }
  if ('when' in obj) {
    const when = track(compileAt(c, String(obj.when), [...path, 'when'], resolver))
    const then = template(c, obj.then, [...path, 'then'], resolver, outer, innerNames)
    return when ? { kind: 'when', when, then } : fallback
  }
  const fields: [string, Template][] = []
  for (const [k, v] of Object.entries(obj)) {
    if (RESERVED.has(k)) continue
    fields.push([k, template(c, v, [...path, k], resolver, outer, innerNames)])
  }
  return { kind: 'object', fields }
}

/** A note's text with `{expression}` placeholders compiled. */
export function noteParts(c: Compiler, text: string, path: PathSegment[], resolver: NameResolver): NoteDef['parts'] {
  const parts: NoteDef['parts'] = []
  let last = 0
  // `{x}` prints a value as it is; `{$x}` prints an amount as money: $1,234,567.50.
  for (const m of text.matchAll(/\{(\$?)([^{}]+)\}/g)) {
    parts.push(text.slice(last, m.index))
    const e = compileAt(c, m[2]!, path, resolver)
    if (e) parts.push({ expr: e, money: m[1] === '$' })
    last = m.index! + m[0].length
  }
  parts.push(text.slice(last))
  return parts.filter((p) => p !== '')
}


