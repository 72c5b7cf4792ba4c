/**
 * @module The MCP tool list as an agent reads it: every tool in at most TOOL_LIST_BYTES, so that the
 * whole service fits in an agent's context beside the conversation (it was 516 KB, about 130k tokens,
 * two thirds of it output schemas). The full contract stays where a program reads it: /openapi.json.
 *
 * Each tool keeps what an agent needs to choose and call it: its title, a description cut to its first
 * sentence and what it will not answer; the input schema's structure, types, formats, required fields,
 * defaults and enums, each top-level field's description cut to its first clause. Output schemas are
 * left to /openapi.json; the server's instructions describe the envelope every tool returns. The texts
 * are as long as the budget allows: the longest cut (LEVELS) under which the whole list fits.
 */
import type { AlsoTool, Endpoint } from './request.js'

/** The most the tool list may take, as JSON: what test/server/mcp.test.ts holds it to. */
export const TOOL_LIST_BYTES = 64 * 1024

/** How much of each text a tool keeps, in characters: its description, what it will not answer, a top-level field's description. */
export interface TextCut {
  description: number
  notAnswered: number
  field: number
}

/** From the most text to the least; the first under which the list fits is used. */
export const LEVELS: readonly TextCut[] = [
  { description: 320, notAnswered: 260, field: 90 },
  { description: 220, notAnswered: 200, field: 60 },
  { description: 160, notAnswered: 140, field: 44 },
  { description: 120, notAnswered: 100, field: 30 },
  // Before "what it will not answer" goes, the fields' descriptions do: an agent can call a tool
  // from its fields' names, types and enums, but not know what it will not answer without the text.
  { description: 110, notAnswered: 90, field: 20 },
  { description: 100, notAnswered: 80, field: 0 },
  { description: 100, notAnswered: 0, field: 0 },
]

/** An enum longer than this is said by its size (the 51 state codes an agent knows), not listed. */
const LISTED_ENUM = 24

/**
 * The keywords a call is checked by that an agent need not know to make a sensible call: bounds of
 * sanity (a hundred thousand spaces), closed objects, list sizes, cross-field rules. The service checks
 * them all and names the field and the limit when one is passed, and /openapi.json lists them.
 */
const CHECKED_NOT_LISTED = new Set(['allOf', 'examples', 'example', 'additionalProperties', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern'])

type Schema = Record<string, unknown>

/** Text cut at the last sentence (or clause) end within `chars`, else at a word, marked with … */
export function firstSentences(text: string, chars: number): string {
  const t = text.replace(/\s+/g, ' ').trim()
  if (t.length <= chars) return t
  const head = t.slice(0, chars)
  // A sentence ends at ". ", but not after an abbreviation: a capitalised word of up to four letters
  // ("Tex.", "Stat.", "U.S.") or a single letter.
  const sentence = [...head.matchAll(/(?<![A-Z][a-z]{0,3}|\b[a-z])\. /g)].at(-1)
  if (sentence?.index !== undefined && sentence.index >= chars / 3) return head.slice(0, sentence.index + 1)
  const clause = Math.max(head.lastIndexOf('; '), head.lastIndexOf(': '), head.lastIndexOf(', '), head.lastIndexOf(' ('))
  if (clause >= chars / 3) return `${head.slice(0, clause)}…`
  const word = head.lastIndexOf(' ')
  return `${head.slice(0, word > 0 ? word : chars)}…`
}

/** What the endpoint computes and will not answer, cut to `cut`. */
export function toolDescription(endpoint: Endpoint, cut: TextCut): string {
  // The summary is the tool's title; the description goes on from it.
  const parts: string[] = []
  if (endpoint.description) parts.push(firstSentences(endpoint.description, cut.description))
  if (endpoint.years) parts.push(`Years: ${endpoint.years.supported.join(', ')}.`)
  // Each thing it will not answer by its first clause: the whole sentence is in /openapi.json.
  const outside = endpoint.out_of_scope.map((s) => s.split(/[:;(,]/)[0]!.replace(/\.$/, '').trim())
  if (cut.notAnswered > 0) parts.push(firstSentences(`Not answered: ${outside.join('; ')}.`, cut.notAnswered))
  return parts.join(' ')
}

/** A further tool on an endpoint's rules, described as the same rules with fewer fields. */
export function alsoToolDescription(endpoint: Endpoint, tool: AlsoTool, cut: TextCut): string {
  const own = tool.description ? firstSentences(tool.description, cut.description) : ''
  return `${own} Answered by the same rules as ${endpoint.tool_name}, with the request cut to the fields this task needs.`.trim()
}

/** An input schema with what an agent needs to call the tool, its texts cut to `cut`. */
export function compactSchema(schema: unknown, cut: TextCut, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => compactSchema(s, cut, depth))
  if (schema === null || typeof schema !== 'object') return schema
  const out: Schema = {}
  let described: string | undefined
  let longEnum: unknown[] | undefined
  for (const [k, v] of Object.entries(schema as Schema)) {
    if (CHECKED_NOT_LISTED.has(k)) continue
    if (k === 'description') {
      if (depth === 1 && typeof v === 'string' && cut.field > 0) described = firstSentences(v, cut.field)
    } else if (k === 'enum' && Array.isArray(v)) {
      const values = oneCase(v)
      if (values.length <= LISTED_ENUM) out[k] = values
      else longEnum = values
    } else if (k === 'properties' && v !== null && typeof v === 'object') {
      out[k] = Object.fromEntries(Object.entries(v as Schema).map(([name, s]) => [name, compactSchema(s, cut, depth + 1)]))
    } else out[k] = compactSchema(v, cut, depth)
  }
  if (longEnum) described = `${described ? `${described} ` : ''}(one of ${longEnum.length}: ${longEnum.slice(0, 3).join(', ')}, …)`
  if (described) out.description = described
  return out
}

/** An enum listed in both cases (a field the service upper-cases) in one: the other is accepted too. */
function oneCase(values: unknown[]): unknown[] {
  const texts = new Set(values.filter((v): v is string => typeof v === 'string'))
  return values.filter((v) => typeof v !== 'string' || v === v.toUpperCase() || !texts.has(v.toUpperCase()))
}

/** The tools built at the first level of LEVELS under which their list fits the budget (else at the last). */
export function fitted<T>(build: (cut: TextCut) => T[], budget = TOOL_LIST_BYTES): T[] {
  let tools: T[] = []
  for (const cut of LEVELS) {
    tools = build(cut)
    if (JSON.stringify({ tools }).length <= budget) return tools
  }
  return tools
}
