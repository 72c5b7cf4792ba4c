/**
 * @module What compiling one rule set file shares: the file, the problems found so far, its tables
 * and roundings; and the two helpers every part uses, compiling one expression where it stands and
 * reading an input's declaration. Problems are pushed with their `file:line:column`, never thrown.
 */
import { OPERATORS, conditionFacts } from './decisions.js'
import { isExactText, parseExact } from '../values/decimal.js'
import { isoDateProblem } from '../values/calendar.js'
import type { Problem } from '../errors.js'
import { CompileError, compileExpression, type CompiledExpression, type NameResolver } from './expression.js'
import type { Rounding } from '../values/round.js'
import type { PathSegment, SourceFile } from '../load/source.js'
import type { TableEntry } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { CallNode, InputSpec, InputType } from '../model/rule-set.js'

export interface Compiler {
  source: SourceFile
  problems: Problem[]
  tables: (name: string) => TableEntry | undefined
  roundings: Map<string, Rounding>
  allTables: Set<TableEntry>
  calls: CallNode[]
}

export type Raw = Record<string, unknown>


/**
 * The longest formula an analyst reads on one line, in characters (issue 25): past it, the rule check
 * warns. A longer one is cut into named formulas or functions, or its texts declared (`texts:`).
 */
export const FORMULA_LENGTH = 300

/**
 * Warn about an expression over FORMULA_LENGTH characters at its place. compileAt calls it for every
 * expression it compiles; anything that reads an expression another way (a condition written as a
 * formula and turned into a condition tree) calls it too. @api private
 */
export function warnIfLong(c: Compiler, text: string, path: PathSegment[]): void {
  const length = text.trim().length
  if (length > FORMULA_LENGTH) {
    c.problems.push({ ...c.source.problem(path, `a formula of ${length} characters, over ${FORMULA_LENGTH}: name its parts (formulas, functions) or declare its texts (text:, texts:)`), warning: true })
  }
}

export function compileAt(c: Compiler, text: string, path: PathSegment[], resolver: NameResolver): CompiledExpression | undefined {
  warnIfLong(c, text, path)
  try {
    const compiled = compileExpression(text, resolver)
    for (const t of compiled.tables) c.allTables.add(t)
    compiled.path = path
    return compiled
  } catch (error) {
    if (error instanceof CompileError) {
      c.problems.push(c.source.problem(path, error.message, error.index))
      return undefined
    }
    throw error
  }
}


/** Compile each fact a condition tree reads (a name of an input, formula or parameter) and check its operators. */
export function factsOf(c: Compiler, conditions: unknown, path: PathSegment[], resolver: NameResolver, into: Map<string, CompiledExpression>) {
  const { facts, operators } = conditionFacts(conditions)
  for (const f of facts) {
    if (into.has(f)) continue
    const e = compileAt(c, f, path, resolver)
    if (e) into.set(f, e)
  }
  for (const o of operators) {
    if (!OPERATORS.includes(o)) c.problems.push(c.source.problem(path, `unknown operator '${o}'; known: ${OPERATORS.join(', ')}`))
  }
}


export function inputSpec(c: Compiler, raw: Raw, path: PathSegment[]): InputSpec {
  const spec: InputSpec = { type: raw.type as InputType }
  if (raw.fields) {
    spec.fields = {}
    for (const [k, v] of Object.entries(raw.fields as Record<string, Raw>)) spec.fields[k] = inputSpec(c, v, [...path, 'fields', k])
  }
  if (raw.items) spec.items = inputSpec(c, raw.items as Raw, [...path, 'items'])
  if (spec.type === 'list' && !spec.items) c.problems.push(c.source.problem(path, 'a list input declares its items'))
  if ('default' in raw) {
    const d = raw.default
    if ((spec.type === 'amount' || spec.type === 'integer') && !(typeof d === 'string' && isExactText(d))) {
      c.problems.push(c.source.problem([...path, 'default'], 'an amount default is written as a string, e.g. "0"'))
    } else if (spec.type === 'boolean' && typeof d !== 'boolean') {
      // "false" in quotes is text, and text is true in a condition: a quoted default would turn a flag on.
      c.problems.push(c.source.problem([...path, 'default'], `a true/false default is written bare (true or false), not ${JSON.stringify(d)}`))
    } else if ((spec.type === 'text' || spec.type === 'date') && typeof d !== 'string') {
      c.problems.push(c.source.problem([...path, 'default'], `a ${spec.type} default is text, not ${JSON.stringify(d)}`))
    } else if (spec.type === 'date' && isoDateProblem(d as string)) {
      // An input's default is a value, not a formula: "date(2025, 1, 19)" was taken as that text, and
      // a date of text read every table as last in force, whatever day the default meant.
      c.problems.push(c.source.problem([...path, 'default'], `a date default is written YYYY-MM-DD: ${isoDateProblem(d as string)!}`))
    } else spec.default = spec.type === 'amount' || spec.type === 'integer' ? parseExact(d as string) : (d as Value)
  }
  return spec
}

