/**
 * @module The real answer to each endpoint's example request, as the documents show it: the
 * reference pages under docs/api/ and the docs page's 200 "Example Value" (OpenAPI). `npm run docs`
 * records the answers in docs/api/answers.json through `recordExample`; OpenAPI reads that file
 * through `recordedAnswer`, so the page and the docs page show one answer, and test/tools/docs.test.ts
 * answers every example again to check that the recording is the service's answer today.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { answer } from './answer.js'
import type { Catalog } from './load.js'
import type { Endpoint } from './request.js'
import { ROOT } from './project/paths.js'

/** The recorded answers, generated with the pages (`npm run docs`). */
export const ANSWERS_FILE = join(ROOT, 'docs', 'api', 'answers.json')

/**
 * What a page shows of an answer. A list longer than `LIST_OVER` items shows its first `LIST_KEPT`;
 * a text longer than `TEXT_OVER` characters its first `TEXT_KEPT`, ending in an ellipsis. An answer
 * of 2,000 lines (a coverage list of 52 states) would bury the rest of its page.
 */
const LIST_OVER = 10
const LIST_KEPT = 5
const TEXT_OVER = 600
const TEXT_KEPT = 400
/** The cut in words, for the documents that show a recorded answer. */
export const CUT_RULE = `where a list over ${LIST_OVER} items shows its first ${LIST_KEPT} and a text over ${TEXT_OVER} characters its first ${TEXT_KEPT}`

/** One endpoint's example request and the answer the service gives it, shortened for documents. */
export interface RecordedExample {
  operation_id: string
  request: Record<string, unknown>
  /** The envelope, its long lists and texts cut (`cuts` says where). */
  answer: unknown
  /** What was cut, one line each: "`result.curve`: 5 of 105 items shown". */
  cuts: string[]
}

/** A value with its long lists and long texts cut, and a line for each cut. @api public */
export function shortened(value: unknown, path = ''): { value: unknown; cuts: string[] } {
  const cuts: string[] = []
  const walk = (v: unknown, at: string): unknown => {
    if (Array.isArray(v)) {
      const kept = v.length > LIST_OVER ? v.slice(0, LIST_KEPT) : v
      if (kept.length < v.length) cuts.push(`\`${at}\`: ${kept.length} of ${v.length} items shown`)
      return kept.map((item, i) => walk(item, `${at}[${i}]`))
    }
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, at ? `${at}.${k}` : k)]))
    if (typeof v === 'string' && [...v].length > TEXT_OVER) {
      const chars = [...v]
      cuts.push(`\`${at}\`: the first ${TEXT_KEPT} of ${chars.length} characters shown`)
      return chars.slice(0, TEXT_KEPT).join('') + '…'
    }
    return v
  }
  return { value: walk(value, path), cuts }
}

/** The endpoint's example answered as a caller's request is, then shortened; none without an example. @api public */
export async function recordExample(catalog: Catalog, endpoint: Endpoint): Promise<RecordedExample | undefined> {
  if (!endpoint.example) return undefined
  const envelope = await answer(catalog, endpoint, structuredClone(endpoint.example))
  const { value, cuts } = shortened(envelope)
  return { operation_id: endpoint.operation_id, request: endpoint.example, answer: value, cuts }
}

let recorded: Map<string, RecordedExample> | undefined

/** The recordings of docs/api/answers.json by operation id (none when the file is absent), read once. */
function recordings(): Map<string, RecordedExample> {
  if (recorded) return recorded
  recorded = new Map()
  if (existsSync(ANSWERS_FILE)) {
    for (const r of JSON.parse(readFileSync(ANSWERS_FILE, 'utf8')) as RecordedExample[]) recorded.set(r.operation_id, r)
  }
  return recorded
}

/**
 * The recorded example of an endpoint, provided it was recorded for the request the manifest gives
 * today: an example edited since the last `npm run docs` (with `npm run dev` running) shows no answer
 * rather than another request's. @api public
 */
export function recordedAnswer(endpoint: Endpoint): RecordedExample | undefined {
  const r = recordings().get(endpoint.operation_id)
  return r && endpoint.example && JSON.stringify(r.request) === JSON.stringify(endpoint.example) ? r : undefined
}
