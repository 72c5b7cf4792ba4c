/**
 * @module YAML files read with their positions, so that every problem can name `file:line:column`.
 *
 * The `yaml` package's YAML 1.2 core schema is kept: `2026-01-01:` stays a string, never a Date.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LineCounter, isNode, isScalar, parseDocument, type Document } from 'yaml'
import type { Problem } from '../errors.js'

export type PathSegment = string | number

export interface SourceFile {
  /** Path as reported in problems, relative to the working directory. */
  file: string
  data: unknown
  /** Where the node at `path` starts: line and column, both from 1. */
  locate(path: readonly PathSegment[]): { line: number; column: number }
  problem(path: readonly PathSegment[], message: string, offset?: number): Problem
}

/**
 * Parsing YAML with positions is most of a cold start (hundreds of files). A file that parsed clean is
 * kept as JSON under the temporary directory, keyed by a hash of its text and the parser's version, the
 * way data sets keep their SQLite store: the next process reads the JSON and parses the YAML again only
 * if it must report a problem in that file. A cache that cannot be written is simply not used.
 */
export const CACHE_DIR = join(tmpdir(), 'rules-as-code-yaml')
const PARSER = `yaml ${(createRequire(import.meta.url)('yaml/package.json') as { version: string }).version} core`

function cacheFile(text: string): string {
  return join(CACHE_DIR, `${createHash('sha256').update(PARSER).update('\0').update(text).digest('hex')}.json`)
}

function readCached(text: string): { data: unknown } | undefined {
  try {
    return { data: JSON.parse(readFileSync(cacheFile(text), 'utf8')) as unknown }
  } catch {
    return undefined
  }
}

function writeCached(text: string, data: unknown): void {
  try {
    // JSON holds what the core schema reads, except numbers that are not finite: such a file is not kept.
    let exact = true
    const json = JSON.stringify(data, (_k, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) exact = false
      return v
    })
    if (!exact) return
    mkdirSync(CACHE_DIR, { recursive: true })
    const target = cacheFile(text)
    const partial = `${target}.${process.pid}.tmp`
    writeFileSync(partial, json)
    renameSync(partial, target)
  } catch {
    // A read-only or full temporary directory: the next start parses again.
  }
}

/** Read and parse one YAML file; syntax errors are returned as problems, never thrown. @api public */
export function readYaml(file: string, text = readFileSync(file, 'utf8')): { source?: SourceFile; problems: Problem[] } {
  const cached = readCached(text)
  if (cached) {
    // Positions are needed only to report a problem: the document is parsed then, once.
    let full: SourceFile | undefined
    const parsed = (): SourceFile => (full ??= parsedSource(file, text).source!)
    return {
      source: { file, data: cached.data, locate: (path) => parsed().locate(path), problem: (path, message, offset) => parsed().problem(path, message, offset) },
      problems: [],
    }
  }
  const result = parsedSource(file, text)
  if (result.source) writeCached(text, result.source.data)
  return result
}

function parsedSource(file: string, text: string): { source?: SourceFile; problems: Problem[] } {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, schema: 'core', uniqueKeys: true, prettyErrors: true })
  const problems: Problem[] = doc.errors.map((error) => {
    const pos = error.linePos?.[0] ?? { line: 1, col: 1 }
    const first = error.message.split('\n')[0] ?? error.message
    return { file, line: pos.line, column: pos.col, message: first.replace(/ at line \d+, column \d+:?$/, '') }
  })
  if (problems.length > 0) return { problems }
  const source = makeSource(file, doc, lineCounter, text)
  return { source, problems }
}

function makeSource(file: string, doc: Document, lineCounter: LineCounter, text: string): SourceFile {
  const locate = (path: readonly PathSegment[]) => {
    // Walk up until a node exists: a missing key is reported where its parent starts.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true)
      if (isNode(node) && node.range) {
        const pos = lineCounter.linePos(node.range[0])
        return { line: pos.line, column: pos.col }
      }
    }
    return { line: 1, column: 1 }
  }
  return {
    file,
    data: doc.toJS({ maxAliasCount: 100 }),
    locate,
    problem(path, message, offset) {
      // An offset is a place inside a formula: found in the text the way YAML read the scalar.
      const node = path.length === 0 ? doc.contents : doc.getIn(path, true)
      if (offset !== undefined && isScalar(node) && typeof node.value === 'string' && node.range) {
        const pos = lineCounter.linePos(textOffset(text, node.range[0], node.value, offset))
        return { file, line: pos.line, column: pos.col, message }
      }
      const at = locate(path)
      return { file, line: at.line, column: at.column + (offset ?? 0), message }
    },
  }
}

/**
 * Where the character at `offset` of a string scalar's value stands in the file's text. The value is
 * what YAML made of the source: quotes dropped, a folded (`>-`) or plain scalar's line breaks and
 * indentation turned into one space, escapes read. Walk the value and the source together from the
 * scalar's start: equal characters advance both; a space in the value stands for a line break and
 * the indentation after it; anything else in the source (a quote, a block header, an escape) is
 * skipped. A formula has no escapes or quotes of its own to confuse the walk in practice.
 */
function textOffset(text: string, start: number, value: string, offset: number): number {
  let src = start
  // A block scalar's header line (`>-`, `|`) holds none of the value.
  if (text[src] === '>' || text[src] === '|') {
    const eol = text.indexOf('\n', src)
    src = eol < 0 ? src : eol + 1
  }
  for (let i = 0; i < offset && i < value.length && src < text.length; i++) {
    const v = value[i]
    while (src < text.length && text[src] !== v && !(v === ' ' && (text[src] === '\n' || text[src] === '\r'))) src++
    if (text[src] === '\n' || text[src] === '\r') {
      while (src < text.length && /\s/.test(text[src]!)) src++
      continue
    }
    src++
  }
  // The character at offset itself: skip what precedes it in the source (an opening quote, indentation).
  const target = value[offset]
  if (target !== undefined) while (src < text.length && text[src] !== target) src++
  return src
}
