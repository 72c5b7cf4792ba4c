/**
 * @module The endpoint reference under docs/api/: one page per suite, from the endpoint manifests
 * (texts, paths, tool names, years, what the endpoint will not answer, the request fields) and, for
 * each endpoint, its example request with the answer the service gives it today (service/examples.ts,
 * also what OpenAPI shows as the 200 example); plus an index of the suites and operations.
 */
import { basename } from 'node:path'
import type { Catalog, Endpoint } from '../../service/index.js'
import { pathOperations } from '../../service/contract.js'
import { recordExample, type RecordedExample } from '../../service/examples.js'
import { code, generatedBy, table } from './markdown.js'

type Schema = Record<string, unknown>

/** The address the docs examples send to: `npm start`'s default. */
const BASE = 'http://127.0.0.1:8080'
/** An enum of more values than this is counted and its first few named (GET /schemas/… lists them all). */
const ENUM_SHOWN = 8

const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A field's type as a reader says it: `number`, `string (date)`, `array of object`, `string or null`. */
function typeOf(schema: Schema): string {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []
  const named = types.map((t) => {
    if (t === 'array' && isSchema(schema.items)) return `array of ${typeOf(schema.items)}`
    if (t === 'string' && typeof schema.format === 'string') return `string (${schema.format})`
    return t
  })
  if (named.length) return named.join(' or ')
  const options = (schema.anyOf ?? schema.oneOf) as unknown
  if (Array.isArray(options)) return [...new Set(options.filter(isSchema).map(typeOf))].join(' or ')
  if ('const' in schema) return JSON.stringify(schema.const)
  return 'any'
}

/** The values an enum allows, said briefly: the same value in another case is said once. */
function enumText(values: unknown[]): string {
  const seen = new Set<string>()
  const distinct = values.filter((v) => {
    const key = String(v).toLowerCase()
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const cased = distinct.length < values.length ? ' (either case)' : ''
  const shown = distinct.map((v) => code(JSON.stringify(v).replace(/^"(.*)"$/, '$1')))
  if (shown.length <= ENUM_SHOWN) return `One of ${shown.join(', ')}${cased}.`
  return `One of ${shown.length} values${cased}: ${shown.slice(0, 5).join(', ')}, …`
}

/** One row per request field, nested fields as `parent.child` and list items' as `parent[].child`. */
function fieldRows(schema: Schema, prefix = '', depth = 0): string[][] {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  return Object.entries(properties).flatMap(([name, raw]) => {
    if (!isSchema(raw)) return []
    const field = prefix + name
    const notes = [typeof raw.description === 'string' ? raw.description.trim() : '']
    const values = raw.enum ?? (isSchema(raw.items) ? raw.items.enum : undefined)
    if (Array.isArray(values)) notes.push(enumText(values))
    const row = [code(field), typeOf(raw), required.has(name) ? 'yes' : '', 'default' in raw ? code(JSON.stringify(raw.default)) : '', notes.filter(Boolean).join(' ')]
    if (depth >= 3) return [row]
    const nested = isSchema(raw.properties) ? fieldRows(raw, `${field}.`, depth + 1) : isSchema(raw.items) && isSchema(raw.items.properties) ? fieldRows(raw.items, `${field}[].`, depth + 1) : []
    return [row, ...nested]
  })
}

/** A curl command sending the example, as a caller would type it. */
function curl(path: string, body: unknown): string {
  const json = JSON.stringify(body)
  // The body in single quotes for the shell: a quote inside is closed, escaped and reopened.
  return `curl -s ${BASE}${path} -H "x-api-key: $KEY" -H 'content-type: application/json' \\\n  -d '${json.replace(/'/g, `'\\''`)}'`
}

/** The page's section for one endpoint. */
function section(endpoint: Endpoint, example: RecordedExample | undefined): string {
  const lines: string[] = [`## ${endpoint.operation_id}`, '']
  const paths = pathOperations(endpoint).map((p) => `\`POST ${p.path}\`${p.primary && endpoint.paths.length > 1 ? ' (primary)' : ''}`)
  const tools = [endpoint.tool_name, ...(endpoint.also_tools ?? []).map((t) => t.tool_name)].map(code)
  lines.push(`${paths.join(' · ')} · MCP tool${tools.length > 1 ? 's' : ''} ${tools.join(', ')} · manifest [endpoints/${basename(endpoint.file)}](../../endpoints/${basename(endpoint.file)})`, '')
  lines.push(`**${endpoint.summary}.**`, '')
  if (endpoint.description) lines.push(endpoint.description.trim(), '')
  if (endpoint.paths.length > 1) lines.push(`Both paths run the same rules and answer the same bytes.`, '')
  if (endpoint.years) lines.push(`Years covered (\`${endpoint.years.field}\`): ${endpoint.years.supported.join(', ')}; any other year is refused with the supported ones listed.`, '')
  if (endpoint.currency.code !== 'USD') lines.push(`Amounts are in ${endpoint.currency.name} (the result's \`currency\` is \`${endpoint.currency.code}\`).`, '')
  if (endpoint.body_limit) lines.push(`Request bodies up to ${endpoint.body_limit.replace(/kb$/i, ' KiB').replace(/mb$/i, ' MiB')} (a larger one is a 413).`, '')
  for (const t of endpoint.also_tools ?? []) lines.push(`Also the MCP tool \`${t.tool_name}\`: ${t.summary}, with the request cut to ${t.fields.map(code).join(', ')}.`, '')
  lines.push('**Request fields**', '', table(['field', 'type', 'required', 'default', 'description'], fieldRows(endpoint.request)), '')
  lines.push('**It will not answer**', '', ...endpoint.out_of_scope.map((s) => `- ${s}`), '')
  if (example) {
    lines.push('**Example**', '', '```sh', curl(endpoint.paths[0]!, example.request), '```', '')
    lines.push('**Its answer** (200, as the service gives it today)', '', '```json', JSON.stringify(example.answer, null, 2), '```', '')
    if (example.cuts.length) lines.push(`Cut for this page (the service answers them whole): ${example.cuts.join('; ')}.`, '')
  }
  return lines.join('\n')
}

/** The suites in the order rules/service.yaml lists them, each with its endpoints in manifest order. */
function suites(catalog: Catalog): { id: string; name: string; description: string; endpoints: Endpoint[] }[] {
  return Object.entries(catalog.service.suites)
    .map(([id, s]) => ({ id, name: s.name, description: s.description, endpoints: catalog.endpoints.filter((e) => e.suite === id) }))
    .filter((s) => s.endpoints.length > 0)
}

/**
 * Every file of docs/api/, by its path under docs/: the suite pages, their index, and answers.json
 * (the recorded answers OpenAPI shows). Answers each endpoint's example, so it takes some seconds.
 * @api public
 */
export async function apiDocs(catalog: Catalog): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const recorded: RecordedExample[] = []
  const from = 'endpoints/*.yaml and the answers the service gives to their examples'
  for (const s of suites(catalog)) {
    const sections: string[] = []
    for (const endpoint of s.endpoints) {
      const example = await recordExample(catalog, endpoint)
      if (example) recorded.push(example)
      sections.push(section(endpoint, example))
    }
    const index = table(
      ['operation', 'paths', 'summary'],
      s.endpoints.map((e) => [`[${e.operation_id}](#${e.operation_id})`, e.paths.map((p) => code(p)).join(', '), e.summary]),
    )
    const page = [
      `# ${s.name}`,
      '',
      generatedBy(from),
      '',
      `${s.description}`,
      '',
      `Every operation is a POST with a JSON body and the header \`x-api-key\` ([README](../../README.md)); the answer is the envelope \`{result, data_as_of, formula_version, citations, tier}\`. ` +
        `Notes and worked examples written by hand: [docs/reference/${s.id}.md](../reference/${s.id}.md); the choices made where the law was unclear: [docs/decisions/${s.id}.md](../decisions/${s.id}.md).`,
      '',
      index,
      '',
      ...sections,
    ]
    files.set(`api/${s.id}.md`, page.join('\n').replace(/\n+$/, '\n'))
  }
  files.set('api/README.md', indexPage(catalog))
  files.set('api/answers.json', JSON.stringify(recorded, null, 2) + '\n')
  return files
}

/** docs/api/README.md: the suites and every operation, each linked to its page. */
function indexPage(catalog: Catalog): string {
  const all = suites(catalog)
  const paths = catalog.endpoints.reduce((n, e) => n + e.paths.length, 0)
  const tools = catalog.endpoints.reduce((n, e) => n + 1 + (e.also_tools?.length ?? 0), 0)
  const lines = [
    '# The endpoint reference',
    '',
    generatedBy('endpoints/*.yaml and rules/service.yaml'),
    '',
    `${catalog.endpoints.length} endpoints on ${paths} paths (each path one OpenAPI operation), answered also as ${tools} MCP tools, in ${all.length} suites. ` +
      'Each page gives, per endpoint, what it computes, its request fields, what it will not answer, and its example request with the answer the service gives it. ' +
      'The same contract is served as OpenAPI at `GET /openapi.json` and rendered at `GET /docs`.',
    '',
    table(
      ['suite', 'endpoints', 'what it covers'],
      all.map((s) => [`[${s.name}](${s.id}.md)`, String(s.endpoints.length), s.description]),
    ),
    '',
    '## Every operation',
    '',
    table(
      ['operation', 'paths', 'MCP tool', 'suite'],
      all.flatMap((s) =>
        s.endpoints.map((e) => [
          `[${e.operation_id}](${s.id}.md#${e.operation_id})`,
          e.paths.map((p) => code(p)).join(', '),
          [e.tool_name, ...(e.also_tools ?? []).map((t) => t.tool_name)].map(code).join(', '),
          s.name,
        ]),
      ),
    ),
    '',
  ]
  return lines.join('\n')
}
