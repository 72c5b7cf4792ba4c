/**
 * @module `replay --update`: rewrite, in a golden file's own text, only the expected values that
 * differ from the current answers. Every other byte (other cases, comments, order, quoting, flow or
 * block style) stays as written, so the diff of an update is exactly the values that moved.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { isCollection, isScalar, parseDocument, Scalar, stringify, type Node } from 'yaml'
import type { Catalog } from '../service/index.js'
import { checkCase, runCase, type AnyGoldenFile, type GoldenCase, type Mismatch, type RuleSetCase } from './golden.js'

/** One case whose expected values were rewritten, with what moved. */
export interface Written {
  name: string
  mismatches: Mismatch[]
}

/**
 * Bring the expected values of the golden file at `path` (read as `f`) to the current answers.
 * Cases that expect an error, or whose run fails, are left for a person to read. Returns the cases
 * it wrote; the file is written only when there is one.
 */
export async function updateFile(catalog: Catalog, f: AnyGoldenFile, path: string): Promise<Written[]> {
  const text = readFileSync(path, 'utf8')
  const doc = parseDocument(text)
  const edits: { start: number; end: number; text: string }[] = []
  const written: Written[] = []
  for (const [i, c] of (f.cases as (GoldenCase | RuleSetCase)[]).entries()) {
    if (!c.expect || c.expect_error) continue
    const outcome = await runCase(catalog, f, c)
    if (!outcome.ok) continue
    // An endpoint case's result is rewritten; its phrases (citations_include, notes_include) are a person's choice.
    const values = 'rule_set' in f ? c : { ...c, expect: { result: (c as GoldenCase).expect?.result ?? {} } }
    const mismatches = checkCase(f, values, outcome)
    if (mismatches.length === 0) continue
    for (const m of mismatches) {
      const node = doc.getIn(['cases', i, 'expect', ...segments(m.path)], true) as Node | undefined
      if (!node?.range) throw new Error(`${f.file}: case "${c.name}": no expected value at ${m.path} to rewrite`)
      // A block collection's range runs on past its last line break: the edit stops at its last character.
      const [start] = node.range
      const end = start + text.slice(start, node.range[1]).trimEnd().length
      edits.push({ start, end, text: valueText(node, m.actual, start - (text.lastIndexOf('\n', start - 1) + 1)) })
    }
    written.push({ name: c.name, mismatches })
  }
  if (edits.length === 0) return written
  // From the end of the file back, so that each edit's offsets still hold.
  let out = text
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end)
  const reread = parseDocument(out)
  if (reread.errors.length > 0) throw new Error(`${f.file}: the rewritten file does not parse (${reread.errors[0]!.message}); nothing was written`)
  writeFileSync(path, out)
  return written
}

/** A mismatch path (`result.years[2].pia`) as the keys under a case's `expect`. */
function segments(path: string): (string | number)[] {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

/**
 * The text of a new value where `old` stands, in `old`'s style: a scalar keeps its quoting (a
 * quoted amount stays quoted), a flow collection stays flow, a block collection stays block at its
 * indentation with each item or field in the style of the one it replaces (or of the first item).
 * A collection where a scalar stood is written in flow style, which fits on the scalar's line.
 */
function valueText(old: Node | undefined, value: unknown, column: number): string {
  if (value === null || typeof value !== 'object') {
    if (!isScalar(old)) return stringify(value).trimEnd()
    const quoted = old.type === Scalar.QUOTE_DOUBLE || old.type === Scalar.QUOTE_SINGLE || (typeof old.value === 'string' && typeof value !== 'string')
    const v = quoted && typeof value === 'number' ? String(value) : value
    if (old.type === Scalar.QUOTE_SINGLE && typeof v === 'string') return `'${v.replace(/'/g, "''")}'`
    if (quoted && typeof v === 'string') return JSON.stringify(v)
    return stringify(v).trimEnd()
  }
  if (!isCollection(old) || old.flow) return flowText(value, old)
  const pad = ' '.repeat(column)
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    const items = old.items as Node[]
    return value.map((v, i) => `${i === 0 ? '' : pad}- ${valueText(items[i] ?? items[0], v, column + 2)}`).join('\n')
  }
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length === 0) return '{}'
  return entries
    .map(([k, v], i) => {
      const was = old.get(k, true) as Node | undefined
      const key = `${i === 0 ? '' : pad}${stringify(k).trimEnd()}:`
      const block = v !== null && typeof v === 'object' && isCollection(was) && !was.flow
      return block ? `${key}\n${pad}  ${valueText(was, v, column + 2)}` : `${key} ${valueText(was, v, column)}`
    })
    .join('\n')
}

/** A value in flow style as the golden files write it: `{ a: 1, b: [1, 2] }`, each part in the style of the part it replaces. */
function flowText(value: unknown, old: Node | undefined): string {
  if (value === null || typeof value !== 'object') return valueText(old, value, 0)
  const was = (key: string | number) => (isCollection(old) ? (old.get(key, true) as Node | undefined) : undefined)
  if (Array.isArray(value)) return `[${value.map((v, i) => flowText(v, was(i) ?? was(0))).join(', ')}]`
  const fields = Object.entries(value as Record<string, unknown>).map(([k, v]) => `${stringify(k).trimEnd()}: ${flowText(v, was(k))}`)
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`
}
