/**
 * @module Golden cases: reading them from test/golden/**, running one through an endpoint exactly as
 * a caller would, and comparing the answer with what the case expects.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parse } from 'yaml'
import { answer, InputError, type Catalog } from '../service/index.js'

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

/** What an endpoint answered: the envelope, or the error status, code and fields. */
export type Outcome =
  | { ok: true; status: 200; envelope: { result: unknown; citations: string[] } }
  | { ok: false; status: number; code: string; fields: string[]; message: string; details: { field: string; message: string }[] }

export interface Mismatch {
  path: string
  expected: unknown
  actual: unknown
}

/** Every golden file under `dir`, in path order; malformed ones are reported, not skipped. */
export function readGolden(dir: string, root: string): { files: GoldenFile[]; problems: string[] } {
  const files: GoldenFile[] = []
  const problems: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.yaml')) {
        const file = relative(root, full)
        const data = parse(readFileSync(full, 'utf8')) as Partial<GoldenFile> | null
        if (!data || typeof data.endpoint !== 'string' || !Array.isArray(data.cases)) {
          problems.push(`${file}: a golden file has 'endpoint' (an operation id) and 'cases'`)
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
  return { files, problems }
}

/** Run one case's input through its endpoint. */
export async function run(catalog: Catalog, endpointId: string, input: unknown): Promise<Outcome> {
  const endpoint = catalog.endpoints.find((e) => e.operation_id === endpointId)
  if (!endpoint) return { ok: false, status: 404, code: 'not_found', fields: [], message: `no endpoint ${endpointId}`, details: [] }
  try {
    const envelope = await answer(catalog, endpoint, input)
    return { ok: true, status: 200, envelope }
  } catch (error) {
    if (error instanceof InputError) return { ok: false, status: 400, code: error.code, fields: error.details.map((d) => d.field), message: error.message, details: error.details.map(({ field, message }) => ({ field, message })) }
    return { ok: false, status: 500, code: 'internal_error', fields: [], message: (error as Error).message, details: [] }
  }
}

/** Where `actual` differs from the subset `expected`: objects by key, arrays by length and item. */
export function compare(expected: unknown, actual: unknown, path = ''): Mismatch[] {
  if (expected !== null && typeof expected === 'object') {
    if (Array.isArray(expected)) {
      if (!Array.isArray(actual) || actual.length !== expected.length) return [{ path: path || '.', expected, actual }]
      return expected.flatMap((e, i) => compare(e, actual[i], `${path}[${i}]`))
    }
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [{ path: path || '.', expected, actual }]
    return Object.entries(expected).flatMap(([k, e]) => compare(e, (actual as Record<string, unknown>)[k], path ? `${path}.${k}` : k))
  }
  return Object.is(expected, actual) ? [] : [{ path: path || '.', expected, actual }]
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
