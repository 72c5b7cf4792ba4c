/**
 * @module YAML files read with their positions, so that every problem can name `file:line:column`.
 *
 * The `yaml` package's YAML 1.2 core schema is kept: `2026-01-01:` stays a string, never a Date.
 */
import { readFileSync } from 'node:fs'
import { LineCounter, isNode, parseDocument, type Document } from 'yaml'
import type { Problem } from './errors.js'

export type PathSegment = string | number

export interface SourceFile {
  /** Path as reported in problems, relative to the working directory. */
  file: string
  data: unknown
  /** Where the node at `path` starts: line and column, both from 1. */
  locate(path: readonly PathSegment[]): { line: number; column: number }
  problem(path: readonly PathSegment[], message: string, offset?: number): Problem
}

/** Read and parse one YAML file; syntax errors are returned as problems, never thrown. @api public */
export function readYaml(file: string, text = readFileSync(file, 'utf8')): { source?: SourceFile; problems: Problem[] } {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, schema: 'core', uniqueKeys: true, prettyErrors: true })
  const problems: Problem[] = doc.errors.map((error) => {
    const pos = error.linePos?.[0] ?? { line: 1, col: 1 }
    const first = error.message.split('\n')[0] ?? error.message
    return { file, line: pos.line, column: pos.col, message: first.replace(/ at line \d+, column \d+:?$/, '') }
  })
  if (problems.length > 0) return { problems }
  const source = makeSource(file, doc, lineCounter)
  return { source, problems }
}

function makeSource(file: string, doc: Document, lineCounter: LineCounter): SourceFile {
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
    problem(path, message, offset = 0) {
      const at = locate(path)
      return { file, line: at.line, column: at.column + offset, message }
    },
  }
}
