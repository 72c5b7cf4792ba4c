/**
 * @module Parsed formulas kept between processes.
 *
 * After the schemas, parsing every formula with jsep (and its arrow plugin, which walks the whole
 * subtree after each nested expression) was the largest part of a cold load. A parse is a pure
 * function of the text and the parser's version, so the trees of the formulas that parsed are kept
 * as JSON in one file under the temporary directory, as engine/load/source.ts keeps parsed YAML, and a
 * later process reads them instead of parsing. A formula that does not parse is never kept: it is
 * parsed, and reported, every time. A tree that JSON cannot hold exactly (a number that is not
 * finite) is not kept either. A cache that cannot be read or written is simply not used.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import jsep from 'jsep'

const require = createRequire(import.meta.url)

/** A package's version, from the package.json above its entry point (neither package exports that file). */
function version(pkg: string): string {
  let dir = dirname(require.resolve(pkg))
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string }
      if (json.name === pkg) return json.version ?? '?'
    } catch {
      // No package.json here: look further up.
    }
    if (dirname(dir) === dir) return '?'
    dir = dirname(dir)
  }
}
const PARSER = `jsep ${version('jsep')} arrow ${version('@jsep-plugin/arrow')}`
/** The file the trees are kept in. @api private */
export const FILE = join(tmpdir(), 'rules-as-code-formulas', `${createHash('sha256').update(PARSER).digest('hex').slice(0, 16)}.json`)

/** Text → its tree as JSON: read from the file at the first parse, each tree made anew when used. */
let kept: Map<string, string> | undefined
/** Trees this process parsed itself, to be added to the file. */
const added = new Map<string, string>()
/** Texts this process asked for: when the file has grown past LIMIT (formulas edited away), only these are kept. */
const used = new Set<string>()
const LIMIT = 20_000

function load(): Map<string, string> {
  if (kept) return kept
  try {
    kept = new Map(Object.entries(JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, string>))
  } catch {
    kept = new Map()
  }
  return kept
}

/** The tree of a formula (jsep's, or the same read from the cache); throws jsep's error when it does not parse. @api public */
export function parseFormula(text: string): jsep.Expression {
  used.add(text)
  const json = load().get(text) ?? added.get(text)
  if (json !== undefined) return JSON.parse(json) as jsep.Expression
  const ast = jsep(text)
  let exact = true
  const kept = JSON.stringify(ast, (_k, v: unknown) => {
    if ((typeof v === 'number' && !Number.isFinite(v)) || v === undefined) exact = false
    return v
  })
  if (exact) added.set(text, kept)
  return ast
}

/**
 * Write the trees parsed since the file was read, with those it held. Called once a catalog has
 * loaded (engine/load/load.ts); nothing is written when every formula came from the file. @api public
 */
export function saveFormulas(): void {
  if (added.size === 0) return
  try {
    let entries = [...load(), ...added]
    if (entries.length > LIMIT) entries = entries.filter(([text]) => used.has(text))
    const all = Object.fromEntries(entries)
    mkdirSync(join(FILE, '..'), { recursive: true })
    const partial = `${FILE}.${process.pid}.tmp`
    writeFileSync(partial, JSON.stringify(all))
    renameSync(partial, FILE)
    for (const [text, json] of added) kept!.set(text, json)
    added.clear()
  } catch {
    // A read-only or full temporary directory: the next start parses again.
  }
}
