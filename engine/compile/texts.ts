/**
 * @module A formula whose value is declared text, written as notes are, so that a message is
 * declared rather than built by `compact([cond ? concat(…) : null, …])`:
 *
 *   texts: [{when, text}, …]   the list of the texts whose `when` holds, in order;
 *   text: [{when, text}, …]    the first of them, or null when none holds;
 *   text: "…"                  one text, always.
 *
 * An item without `when` always holds. A text is a template in the notes' language (`{x}` prints a
 * value as it is, `{$x}` an amount as money), so there is one template language, not two; unlike a
 * note, a text whose placeholder is null is an error, not the word "null".
 */
import { EvaluationError } from '../errors.js'
import { describe, type CompiledExpression, type DeclaredText, type NameResolver } from './expression.js'
import { text } from '../run/notes.js'
import type { PathSegment } from '../load/source.js'
import type { TableEntry } from '../data/tables.js'
import type { Runtime, Value } from '../model/types.js'
import { compileAt, type Compiler } from './compiler.js'
import { noteParts } from './outputs.js'

export type RawTexts = string | { when?: string; text: string }[]

/** Compile `text:` (`first`) or `texts:` of the formula `name` into one expression. @api private */
export function compileTexts(c: Compiler, name: string, raw: RawTexts, first: boolean, path: PathSegment[], resolver: NameResolver): CompiledExpression {
  // `path` is the formula's `text` or `texts`: a single text stands there, a list's items below it.
  const items: DeclaredText[] =
    typeof raw === 'string'
      ? [{ parts: noteParts(c, raw, path, resolver) }]
      : raw.map((item, i) => {
          const def: DeclaredText = { parts: noteParts(c, item.text, [...path, i, 'text'], resolver) }
          if (item.when !== undefined) {
            const when = compileAt(c, item.when, [...path, i, 'when'], resolver)
            if (when) def.when = when
          }
          return def
        })
  const deps = new Set<string>()
  const tables = new Set<TableEntry>()
  for (const item of items) {
    for (const e of [item.when, ...item.parts.map((p) => (typeof p === 'string' ? undefined : p.expr))]) {
      if (!e) continue
      for (const d of e.deps) deps.add(d)
      for (const t of e.tables) tables.add(t)
    }
  }
  const holds = (item: DeclaredText, i: number, rt: Runtime): boolean => {
    if (!item.when) return true
    const v = item.when.run(rt)
    if (typeof v !== 'boolean') throw new EvaluationError(`the condition of text ${i + 1} of '${name}' is ${describe(v)}`)
    return v
  }
  // "Late since null." is no sentence: a placeholder without a value is a defect of the rules, as
  // it was in concat(), not a word to print.
  const refuseNull = (e: CompiledExpression): never => {
    throw new EvaluationError(`'${name}' prints {${e.text ?? ''}}, which is null`)
  }
  const run = first
    ? (rt: Runtime): Value => {
        for (const [i, item] of items.entries()) if (holds(item, i, rt)) return text(item.parts, rt, rt.currency(), refuseNull)
        return null
      }
    : (rt: Runtime): Value => {
        const out: Value[] = []
        for (const [i, item] of items.entries()) if (holds(item, i, rt)) out.push(text(item.parts, rt, rt.currency(), refuseNull))
        return out
      }
  const listed = (typeof raw === 'string' ? [{ text: raw }] : raw).map((item) => `${'when' in item && item.when !== undefined ? `when ${item.when.trim()}: ` : ''}${JSON.stringify(item.text)}`)
  const written = `${first ? 'text' : 'texts'}: ${listed.join('; ')}`
  return { run, deps, tables, texts: { first, items, written }, path }
}
