// The date property of test/properties/dates*.test.ts, shared by the files that run it. Property: a date anywhere in a request, at the edges of every table it may reach (before the
// first value any table holds, on it, far ahead), is answered 200 or 400 naming a field, never a
// 500: the engine names the request field a date out of the rules' range came from, whichever
// formula read it. Every date field of every endpoint's schema, on every golden case that answers.
// And a refusal that names the earliest date supported names one the request may be sent with.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { readFileSync } from 'node:fs'
import { answer, EvaluationError, InputError, type Endpoint } from '../../service/index.js'
import { reachable } from '../../engine/check/reach.js'
import type { TableEntry } from '../../engine/data/tables.js'
import { GOLDEN_DIR, ROOT } from '../../service/project/paths.js'
import { readGolden } from '../../tools/golden.js'
import { catalog } from '../helpers.js'

/** Where the request schema has a date: a path of field names, `[]` for each item of a list. */
function datePaths(schema: unknown, path: string[] = []): string[][] {
  if (!schema || typeof schema !== 'object') return []
  const s = schema as Record<string, unknown>
  if (s.format === 'date') return [path]
  const out: string[][] = []
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) out.push(...datePaths(v, [...path, k]))
  if (s.items) out.push(...datePaths(s.items, [...path, '[]']))
  return out
}

/** A copy of `body` with every value at `path` set to `date` (each item of a list). */
function withDate(body: unknown, path: string[], date: string): unknown {
  if (path.length === 0) return date
  const [head, ...rest] = path
  if (head === '[]') return Array.isArray(body) ? body.map((item) => withDate(item, rest, date)) : body
  const record = (body ?? {}) as Record<string, unknown>
  if (rest.length > 0 && !(head! in record)) return body
  return { ...record, [head!]: withDate(record[head!], rest, date) }
}

const edgesOf = new Map<Endpoint, string[]>()
/**
 * The first effective date of every table an endpoint can read, and the day before: the edges its
 * rules can hit. The tables are those of the rule sets it reaches (calls included) and, where one of
 * them names a table family ('employment.law'), every member's: the edges of other endpoints' tables
 * would only repeat requests that meet no new table. Found once per endpoint (each golden file asked).
 */
function edges(endpoint: Endpoint): string[] {
  const known = edgesOf.get(endpoint)
  if (known) return known
  const found = tableEdges(endpoint)
  edgesOf.set(endpoint, found)
  return found
}
function tableEdges(endpoint: Endpoint): string[] {
  const c = catalog()
  const root = c.ruleSets.get(endpoint.rule_set)!
  const reached = reachable(root, c.ruleSets)
  const tables = new Set<TableEntry>()
  for (const rs of reached) {
    for (const t of rs.tables) tables.add(t)
    const source = readFileSync(rs.file, 'utf8')
    for (const family of c.families?.keys() ?? []) {
      if (!source.includes(`'${family}'`)) continue
      for (const t of c.tables.values()) if (t.id.startsWith(`${family}.`)) tables.add(t)
    }
  }
  const out = new Set(FAR)
  for (const t of tables) {
    if (t.kind === 'series' || t.kind === 'dataset') continue
    const first = t.history[0]?.from
    if (!first) continue
    out.add(first)
    const d = new Date(`${first}T00:00:00Z`)
    d.setUTCDate(d.getUTCDate() - 1)
    out.add(d.toISOString().slice(0, 10))
  }
  return [...out].sort()
}

/** `donees[1].date_of_birth` as a date path: `donees.[].date_of_birth`. */
function fieldPath(field: string): string {
  return field.replace(/\[\d+\]/g, '.[]')
}

/** The date a refusal of the field at `path` says is supported from, if it says so. */
function boundOf(error: InputError, path: string[]): string | undefined {
  if (error.code !== 'unsupported_parameter') return undefined
  for (const d of error.details) {
    const m = /supported: from (\d{4}-\d{2}-\d{2})/.exec(d.message)
    if (m && fieldPath(d.field) === path.join('.')) return m[1]
  }
  return undefined
}

/**
 * Each distinct request is answered once. Many golden cases differ only in the date this test
 * overwrites (more than half the employment-law requests repeat one already sent), and the same
 * request always gives the same answer (DESIGN.md: no clock, no random order), so a repeat would
 * test nothing new; each repeat still goes through every check below with the answer it would get.
 */
const answered = new Map<string, { error?: unknown }>()
async function answerOnce(endpoint: Endpoint, body: unknown): Promise<void> {
  const key = `${endpoint.operation_id}\0${JSON.stringify(body)}`
  let outcome = answered.get(key)
  if (!outcome) {
    try {
      await answer(catalog(), endpoint, body)
      outcome = {}
    } catch (error) {
      outcome = { error }
    }
    answered.set(key, outcome)
  }
  if ('error' in outcome) throw outcome.error
}

/**
 * Which requests a test file sends: the endpoints it takes, and of each endpoint's date fields (in the
 * order of its schema) those `paths` keeps. The filing-strategy optimizer's requests are
 * most of the work (each a search), so its date fields are shared between files the runner starts
 * side by side, and its table edges go on the cases in turn (`every`, FILING_STRATEGY_EVERY).
 */
export interface Share {
  endpoints: (operationId: string) => boolean
  /** The date fields taken, by path (`spouse.date_of_birth`, `children.[].date_of_birth`): all when absent. */
  paths?: (path: string) => boolean
  /** Whether this share's refusals must name a bound (the share of every other endpoint does). */
  boundsExpected: boolean
  /**
   * Send each table edge on one golden case in `every` of those holding the date field, in turn,
   * instead of on each of them (the far dates, before any table and far ahead, still go on every
   * case). Every pair of a date field and a table edge is still sent at least once, and each case
   * still meets every one of its date fields. Absent: every case meets every edge.
   */
  every?: number
}

/**
 * The filing-strategy optimizer's rotation. Each of its requests is a search (tenths of a second of
 * CPU each, 2,700 distinct requests, some 60 s of CPU on this machine in 2026-11), and its golden
 * cases share their date fields: 32 cases hold the person's dates and the calculation date, 7 the
 * spouse's, 3 each the children's, the former spouse's and the deceased spouse's. With 4, every one
 * of the 21 dates the optimizer's tables reach is still sent in every date field (those before any
 * table and far ahead on every case), and each case meets a quarter of the table edges on each field,
 * a different quarter from the next case's.
 */
export const FILING_STRATEGY_EVERY = 4

/** The far dates, sent on every case whatever the share's rotation: before any law, and far ahead. */
const FAR = ['0001-01-01', '1799-12-31', '9999-12-31']

/**
 * Which edges a rotating share sends on each case: the cases that hold the field (where the date
 * lands in the request), over all the endpoint's golden files, take the edges in turn (the `n`th
 * holding case the edges `j` with (j + n) % every = 0), so every edge lands on one case at least
 * and on a different case as the cases go by; when fewer cases than `every` hold the field, they
 * share the edges between them (one case takes them all). The far dates go on every case.
 */
function rotation(share: Share, files: { endpoint: string; cases: { input: unknown; expect?: unknown }[] }[]): (endpoint: string, path: string[], input: unknown, j: number, date: string) => boolean {
  const every = share.every ?? 1
  if (every <= 1) return () => true
  const holders = new Map<string, unknown[]>()
  const key = (endpoint: string, path: string[]) => `${endpoint}\0${path.join('.')}`
  for (const f of files) {
    if (!share.endpoints(f.endpoint)) continue
    const endpoint = catalog().endpoints.find((e) => e.operation_id === f.endpoint) as Endpoint
    for (const path of datePaths(endpoint.request)) {
      for (const c of f.cases.filter((x) => x.expect !== undefined)) {
        if (JSON.stringify(withDate(c.input, path, FAR[0]!)) === JSON.stringify(c.input)) continue
        const list = holders.get(key(f.endpoint, path)) ?? []
        list.push(c.input)
        holders.set(key(f.endpoint, path), list)
      }
    }
  }
  return (endpoint, path, input, j, date) => {
    const list = holders.get(key(endpoint, path))
    const n = list?.indexOf(input) ?? -1
    if (FAR.includes(date) || n < 0) return true
    return (j + n) % Math.min(every, list!.length) === 0
  }
}

/** The two property tests on one share of the endpoints and date fields, as one suite. */
export function datesAtTableEdges(name: string, share: Share): void {
  const test = suite(name)

  /** The refusals met by the first test that name a bound, for the second. */
  const bounds = new Map<string, { endpoint: Endpoint; input: unknown; path: string[]; bound: string; from: string }>()

  test('no date in any request reaches a table before its first value as a 500', async () => {
    const { files } = readGolden(GOLDEN_DIR, ROOT)
    const sends = rotation(share, files)
    // Every pair of a date field and a date is sent on one case at least, whatever the rotation.
    const [unsent, sent] = [new Set<string>(), new Set<string>()]
    let tried = 0
    const failures: string[] = []
    for (const f of files) {
      if (!share.endpoints(f.endpoint)) continue
      const endpoint = catalog().endpoints.find((e) => e.operation_id === f.endpoint) as Endpoint
      const paths = datePaths(endpoint.request).filter((p) => share.paths?.(p.join('.')) ?? true)
      const dates = paths.length > 0 ? edges(endpoint) : []
      for (const c of f.cases.filter((x) => x.expect !== undefined)) {
        for (const path of paths) {
          for (const [j, date] of dates.entries()) {
            const pair = `${f.endpoint} ${path.join('.')} = ${date}`
            unsent.add(pair)
            if (!sends(f.endpoint, path, c.input, j, date)) continue
            sent.add(pair)
            const body = withDate(c.input, path, date)
            tried++
            try {
              await answerOnce(endpoint, body)
            } catch (error) {
              if (error instanceof InputError) {
                assert.ok(error.details.length > 0, `${f.endpoint} ${path.join('.')}=${date}: a 400 names a field`)
                const bound = boundOf(error, path)
                if (bound) bounds.set(`${f.endpoint}|${c.name}|${path.join('.')}|${bound}`, { endpoint, input: c.input, path, bound, from: date })
                continue
              }
              failures.push(`${f.endpoint} ${c.name}: ${path.join('.')} = ${date}: ${error instanceof EvaluationError ? error.message : String(error)}`)
            }
          }
        }
      }
    }
    assert.ok(tried > 100, `only ${tried} requests tried`)
    for (const pair of sent) unsent.delete(pair)
    assert.equal([...unsent].slice(0, 5), [], `${unsent.size} pairs of a date field and a date were never sent`)
    assert.equal(failures.slice(0, 5), [], `${failures.length} requests got a 500`)
  })

  test('the earliest date a refusal names is one the same request may use', async () => {
    // Every refusal of a date "supported: from <date>" met above, sent again with that date: no table
    // refuses it any more (issue 17: 1990-10-09 was named, and then refused for the gift tax figures).
    if (share.boundsExpected) assert.ok(bounds.size > 0, 'no refusal named a bound')
    const refused: string[] = []
    for (const { endpoint, input, path, bound, from } of bounds.values()) {
      try {
        await answerOnce(endpoint, withDate(input, path, bound))
      } catch (error) {
        if (!(error instanceof InputError)) throw error
        // Refused for another fault of the same field (a date outside the year sent) is no refusal of the bound.
        const fault = error.details.find((d) => fieldPath(d.field) === path.join('.') && /supported: from/.test(d.message))
        if (fault) refused.push(`${endpoint.operation_id} ${path.join('.')}: ${from} named ${bound}, which is refused: ${fault.message}`)
      }
    }
    assert.equal(refused.slice(0, 5), [], `${refused.length} named bounds are refused`)
  })

  // The test process runs other files after this one: the 30,000 answers held here are let go.
  test.after(() => {
    answered.clear()
    bounds.clear()
  })

  test.run()
}
