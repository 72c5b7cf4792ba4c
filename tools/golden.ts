/**
 * @module Golden cases: reading them from test/golden/**, running one through an endpoint exactly as
 * a caller would (or through one rule set, with some of its formulas given), and comparing the
 * answer with what the case expects.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parse } from 'yaml'
import { answer, evaluate, InputError, type Catalog } from '../service/index.js'
import type { Template } from '../engine/model/rule-set.js'
import type { Value } from '../engine/model/types.js'
import { Dec, fromNumber, isDec, isExactText, parseExact, toNumber } from '../engine/values/decimal.js'

/**
 * The catalog with its step budget and no clock backstop: a golden case is answered by its steps
 * alone, so it matches on a loaded machine as on a quiet one (the budget is deterministic; the
 * backstop is for the live service).
 */
export function stepsOnly(catalog: Catalog): Catalog {
  return { ...catalog, service: { ...catalog.service, limits: { ...catalog.service.limits, milliseconds: Number.MAX_SAFE_INTEGER } } }
}

export interface GoldenCase {
  name: string
  source: string
  input: unknown
  expect?: { result?: unknown; citations_include?: string[]; notes_include?: string[] }
  expect_error?: { status: number; code?: string; field?: string; message_includes?: string[] }
}

export interface GoldenFile {
  file: string
  endpoint: string
  cases: GoldenCase[]
}

/**
 * A case of one rule set: its inputs, some of its formulas given values (`given`), and what some of
 * its outputs and formulas must be (`expect`, by name: an output field of its result, else a formula).
 */
export interface RuleSetCase {
  name: string
  source: string
  input: Record<string, unknown>
  given?: Record<string, unknown>
  expect?: Record<string, unknown>
  expect_error?: GoldenCase['expect_error']
}

/** A golden file that names a rule set (`rule_set: estate/state/ny`) instead of an endpoint. */
export interface RuleSetFile {
  file: string
  /** The rule set's id, `estate.state.ny`, whether the file writes it so or as its path. */
  rule_set: string
  cases: RuleSetCase[]
}

export type AnyGoldenFile = GoldenFile | RuleSetFile

/**
 * What an endpoint answered: the envelope, or the error status, code and fields. A rule set's run
 * also has `named`: each name its case expects, with its value (exact: a decimal a number cannot
 * hold is its text).
 */
export type Outcome =
  | { ok: true; status: 200; envelope: { result: unknown; citations: string[] }; named?: Record<string, unknown> }
  | { ok: false; status: number; code: string; fields: string[]; message: string; details: { field: string; message: string }[] }

export interface Mismatch {
  path: string
  expected: unknown
  actual: unknown
}

/** Absent, or a map (a YAML mapping). */
const map = (v: unknown) => v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v))

/**
 * Every golden file under `dir`, in path order; malformed ones are reported, not skipped. Endpoint
 * files are `files`, rule-set files `ruleSets`.
 */
export function readGolden(dir: string, root: string): { files: GoldenFile[]; ruleSets: RuleSetFile[]; problems: string[] } {
  const files: GoldenFile[] = []
  const ruleSets: RuleSetFile[] = []
  const problems: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.yaml')) {
        const file = relative(root, full)
        const data = parse(readFileSync(full, 'utf8')) as (Partial<GoldenFile> & { rule_set?: unknown }) | null
        if (data && typeof data.rule_set === 'string' && data.endpoint === undefined && Array.isArray(data.cases)) {
          ruleSets.push({ file, rule_set: data.rule_set.replace(/\//g, '.'), cases: data.cases as RuleSetCase[] })
          const cases = data.cases as unknown[] as (Partial<RuleSetCase> | null)[]
          cases.forEach((c, i) => {
            if (!c || typeof c.name !== 'string' || typeof c.source !== 'string' || !map(c.input) || !map(c.given) || !map(c.expect) || (!c.expect && !c.expect_error)) {
              problems.push(`${file}: case ${i + 1} needs name, source, input (a map), expect (a map of names) or expect_error, and may have given (a map of formulas)`)
            }
          })
          continue
        }
        if (!data || typeof data.endpoint !== 'string' || !Array.isArray(data.cases)) {
          problems.push(`${file}: a golden file has 'endpoint' (an operation id) or 'rule_set' (a rule set's path), and 'cases'`)
          continue
        }
        data.cases.forEach((c, i) => {
          if (!c || typeof c.name !== 'string' || typeof c.source !== 'string' || !('input' in c) || (!c.expect && !c.expect_error)) {
            problems.push(`${file}: case ${i + 1} needs name, source, input and expect or expect_error`)
          }
        })
        files.push({ file, endpoint: data.endpoint, cases: data.cases as GoldenCase[] })
      }
    }
  }
  if (existsSync(dir)) walk(dir)
  return { files, ruleSets, problems }
}

/**
 * What the catalog says is wrong with rule-set files: an unknown rule set, a given name that is no
 * formula of it, an expected name that is neither an output field nor a name of it; each names its
 * case. (A given value of the wrong type is refused when the case runs.)
 */
export function checkRuleSetFiles(catalog: Catalog, files: RuleSetFile[]): string[] {
  const problems: string[] = []
  for (const f of files) {
    const rs = catalog.ruleSets.get(f.rule_set)
    if (!rs) {
      problems.push(`${f.file}: no rule set ${f.rule_set}`)
      continue
    }
    const outputs = outputFields(rs.outputs)
    for (const c of f.cases) {
      for (const name of Object.keys(c.given ?? {})) {
        if (!rs.root.formulas.has(name)) problems.push(`${f.file}: case "${c.name}" gives '${name}', which is no formula of ${rs.id}${Object.hasOwn(rs.inputs, name) ? ' (it is an input: give it in input)' : ''}`)
      }
      for (const name of Object.keys(c.expect ?? {})) {
        if (!outputs.has(name) && !rs.root.slots.has(name)) problems.push(`${f.file}: case "${c.name}" expects '${name}', which is neither an output field nor a formula of ${rs.id}`)
      }
    }
  }
  return problems
}

/** The top-level fields of a rule set's result. */
function outputFields(t: Template): Set<string> {
  if (t.kind === 'object') return new Set(t.fields.map(([k]) => k))
  if (t.kind === 'when') return outputFields(t.then)
  return new Set()
}

/** Run one case of either kind. */
export async function runCase(catalog: Catalog, f: AnyGoldenFile, c: GoldenCase | RuleSetCase): Promise<Outcome> {
  return 'rule_set' in f ? runRuleSet(catalog, f.rule_set, c as RuleSetCase) : run(catalog, f.endpoint, c.input)
}

/**
 * Run one rule set on a case's inputs with its given formulas, and read each name it expects: the
 * output field of that name, else the formula (or input).
 */
export async function runRuleSet(catalog: Catalog, id: string, c: RuleSetCase): Promise<Outcome> {
  const rs = catalog.ruleSets.get(id)
  if (!rs) return { ok: false, status: 404, code: 'not_found', fields: [], message: `no rule set ${id}`, details: [] }
  const names = Object.keys(c.expect ?? {})
  try {
    const evaluated = await evaluate(catalog, id, c.input ?? {}, { given: c.given ?? {}, formulas: names.filter((n) => rs.root.slots.has(n)) })
    const named: Record<string, unknown> = {}
    for (const n of names) named[n] = Object.hasOwn(evaluated.result, n) ? evaluated.result[n] : plain(evaluated.formulas?.[n])
    return { ok: true, status: 200, envelope: { result: evaluated.result, citations: evaluated.citations }, named }
  } catch (error) {
    return failure(error)
  }
}

/** A formula value as YAML writes it: a decimal as a number when one holds it exactly, else as its text. */
export function plain(v: Value | undefined): unknown {
  if (v === undefined || v === null || typeof v !== 'object') return v ?? null
  if (isDec(v)) {
    const n = toNumber(v)
    return fromNumber(n).eq(v) ? n : v.toString()
  }
  if (Array.isArray(v)) return v.map(plain)
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
}

/** Two amounts are equal by value, whether written as a number or as exact text ("7_500_000", "2/37"). */
function sameAmount(expected: unknown, actual: unknown): boolean {
  const dec = (x: unknown): Dec | undefined => (typeof x === 'number' ? fromNumber(x) : typeof x === 'string' && isExactText(x) ? parseExact(x) : undefined)
  const [e, a] = [dec(expected), dec(actual)]
  return e !== undefined && a !== undefined && e.eq(a)
}

/** Run one case's input through its endpoint. */
export async function run(catalog: Catalog, endpointId: string, input: unknown): Promise<Outcome> {
  const endpoint = catalog.endpoints.find((e) => e.operation_id === endpointId)
  if (!endpoint) return { ok: false, status: 404, code: 'not_found', fields: [], message: `no endpoint ${endpointId}`, details: [] }
  try {
    const envelope = await answer(catalog, endpoint, input)
    return { ok: true, status: 200, envelope }
  } catch (error) {
    return failure(error)
  }
}

function failure(error: unknown): Outcome {
  if (error instanceof InputError) return { ok: false, status: 400, code: error.code, fields: error.details.map((d) => d.field), message: error.message, details: error.details.map(({ field, message }) => ({ field, message })) }
  return { ok: false, status: 500, code: 'internal_error', fields: [], message: (error as Error).message, details: [] }
}

/**
 * Where `actual` differs from the subset `expected`: objects by key, arrays by length and item,
 * leaves by `same` (identity; a rule set's values also as amounts by value).
 */
export function compare(expected: unknown, actual: unknown, path = '', same: (e: unknown, a: unknown) => boolean = Object.is): Mismatch[] {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path: path || '.', expected, actual }]
      return expected.flatMap((e, i) => compare(e, actual[i], `${path}[${i}]`, same))
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [{ path: path || '.', expected, actual }]
    return Object.entries(expected).flatMap(([k, e]) => compare(e, (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k, same))
  }
  return same(expected, actual) ? [] : [{ path: path || '.', expected, actual }]
}

/** The mismatches of one case of a rule set against its outcome: each expected name's value, by its name. */
export function checkRuleSetCase(c: RuleSetCase, outcome: Outcome): Mismatch[] {
  if (c.expect_error || !outcome.ok) return check({ ...c, expect: {} }, outcome)
  return compare(c.expect ?? {}, outcome.named ?? {}, '', (e, a) => Object.is(e, a) || sameAmount(e, a))
}

/** The mismatches of a case of either kind. */
export function checkCase(f: AnyGoldenFile, c: GoldenCase | RuleSetCase, outcome: Outcome): Mismatch[] {
  return 'rule_set' in f ? checkRuleSetCase(c as RuleSetCase, outcome) : check(c as GoldenCase, outcome)
}

/** The mismatches of one case against its outcome. */
export function check(c: GoldenCase, outcome: Outcome): Mismatch[] {
  if (c.expect_error) {
    if (outcome.ok) return [{ path: 'status', expected: c.expect_error.status, actual: 200 }]
    const out: Mismatch[] = []
    const o = outcome
    if (o.status !== c.expect_error.status) out.push({ path: 'status', expected: c.expect_error.status, actual: o.status })
    if (c.expect_error.code && o.code !== c.expect_error.code) out.push({ path: 'error.code', expected: c.expect_error.code, actual: o.code })
    if (c.expect_error.field && !o.fields.includes(c.expect_error.field)) out.push({ path: 'error.details[].field', expected: c.expect_error.field, actual: o.fields })
    // A message is prose too: each phrase must stand in the error's message or in one detail's.
    // With `field`, the detail must be that field's: "donees[1].relationship" and what it says.
    for (const phrase of c.expect_error.message_includes ?? []) {
      const details = c.expect_error.field ? o.details.filter((d) => d.field === c.expect_error!.field) : o.details
      const texts = [...(c.expect_error.field ? [] : [o.message]), ...details.map((d) => d.message)]
      if (!texts.some((t) => t.includes(phrase))) out.push({ path: 'error.message', expected: phrase, actual: c.expect_error.field ? details : [o.message, ...o.details.map((d) => `${d.field} ${d.message}`)] })
    }
    return out
  }
  if (!outcome.ok) return [{ path: 'status', expected: 200, actual: `${outcome.status} ${outcome.code}: ${outcome.message}` }]
  const out = compare(c.expect?.result ?? {}, outcome.envelope.result, 'result')
  for (const citation of c.expect?.citations_include ?? []) {
    if (!outcome.envelope.citations.includes(citation)) out.push({ path: 'citations', expected: citation, actual: outcome.envelope.citations })
  }
  // A note is prose: a case names a phrase it must contain, not the whole sentence.
  const result = outcome.envelope.result as { notes?: unknown }
  const notes = Array.isArray(result?.notes) ? result.notes.filter((n): n is string => typeof n === 'string') : []
  for (const phrase of c.expect?.notes_include ?? []) {
    if (!notes.some((n) => n.includes(phrase))) out.push({ path: 'result.notes', expected: phrase, actual: notes })
  }
  return out
}

/** Every leaf of a value as `path = value`, for diffing two answers. */
export function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value).map(([k, v]) => [path ? `.${k}` : k, v] as const)
    if (entries.length === 0) out.set(path, value)
    for (const [k, v] of entries) leaves(v, `${path}${k}`, out)
  } else out.set(path, value)
  return out
}
