/**
 * @module The public contract of every endpoint, in one place for OpenAPI, the docs page and MCP:
 * the envelope and error JSON Schemas, the operation id of each path, and the description an API
 * caller or an AI agent reads. All of it is derived from the endpoint manifests, so a new manifest
 * is described everywhere with no other change.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Catalog, Endpoint } from '../service/index.js'
import { ROOT } from './project/paths.js'
import type { ErrorCode } from './errors.js'

type Schema = Record<string, unknown>

const ERROR_CODES: ErrorCode[] = [
  'validation_error',
  'work_limit_exceeded',
  'deadline_exceeded',
  'request_header_fields_too_large',
  'too_many_requests',
  'unsupported_parameter',
  'unauthorized',
  'not_found',
  'method_not_allowed',
  'payload_too_large',
  'unsupported_media_type',
  'service_unavailable',
  'internal_error',
]

/** The error body every failure answers with (server/errors.ts). */
export const errorSchema: Schema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      additionalProperties: false,
      properties: {
        code: { enum: ERROR_CODES, description: 'Machine-readable kind of failure.' },
        message: { type: 'string', description: 'What went wrong, in plain words; names the field where one is at fault.' },
        details: {
          type: 'array',
          description: 'One entry per field at fault (empty when no single field is).',
          items: {
            type: 'object',
            required: ['field', 'message'],
            additionalProperties: false,
            properties: {
              field: { type: 'string', description: 'The field, as a path: `beneficiaries[0].relationship`; `body` for the body as a whole.' },
              message: { type: 'string', description: 'What is wrong with it, and what is supported.' },
            },
          },
        },
      },
    },
  },
}

/** The 200 envelope, with `result` as the endpoint's declared response schema. */
export function envelopeSchema(result: Schema): Schema {
  return {
    type: 'object',
    required: ['result', 'data_as_of', 'formula_version', 'citations', 'tier'],
    additionalProperties: false,
    properties: {
      result,
      data_as_of: { type: 'string', format: 'date', description: 'The newest as-of date of the data this answer used.' },
      formula_version: { type: 'string', description: 'Version of the formulas that computed the answer.' },
      citations: {
        type: 'array',
        items: { type: 'string' },
        description: 'The statutes, regulations and tables this evaluation actually used, in a stable order.',
      },
      tier: { enum: ['beta', 'verified'], description: 'beta: checked against golden cases, not yet independently verified.' },
    },
  }
}

/**
 * The operation id of each path of an endpoint. OpenAPI needs one per operation, so the first path
 * carries the manifest's operation id and any further path its own id made from the path
 * (`/estate/calculate-inherited-ira` → `estate_calculate_inherited_ira`).
 */
export function pathOperations(endpoint: Endpoint): { path: string; operationId: string; primary: boolean }[] {
  return endpoint.paths.map((path, i) => ({
    path,
    operationId: i === 0 ? endpoint.operation_id : path.slice(1).replace(/[^a-z0-9]+/g, '_'),
    primary: i === 0,
  }))
}

/** What the endpoint computes, the years it covers, what it will not answer, and how it fails. */
export function agentDescription(endpoint: Endpoint): string {
  const parts = [endpoint.summary + '.']
  if (endpoint.description) parts.push(endpoint.description.trim())
  if (endpoint.years) parts.push(`Years covered (${endpoint.years.field}): ${endpoint.years.supported.join(', ')}; any other year is refused.`)
  parts.push(`It will not answer: ${endpoint.out_of_scope.map((s) => s.replace(/\.$/, '')).join('; ')}.`)
  parts.push(
    `Returns the envelope {result, data_as_of, formula_version, citations, tier}: exact figures in ${endpoint.currency.name} rounded as the law says, ` +
      'rates as fractions, and notes stating every assumption. A bad or unknown argument is refused with an error naming the field.',
  )
  return parts.join('\n\n')
}

/** The service's own version, from package.json, read once. */
export const serviceVersion: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** The newest as-of date of every table loaded: what `GET /version` reports as the data date. */
export function catalogDataAsOf(catalog: Catalog): string {
  let newest = ''
  for (const table of catalog.tables.values()) if (table.as_of > newest) newest = table.as_of
  return newest
}

/** The largest request body the service accepts where a manifest sets no larger `body_limit` (a setting, not law). */
export const BODY_LIMIT = '64kb'

/** The body limit of a request to `endpoint`, in bytes: its manifest's, where larger than the service's. */
export function endpointBodyLimit(endpoint: { body_limit?: string }, serviceLimit: string = BODY_LIMIT): number {
  return Math.max(bodyLimitBytes(serviceLimit), endpoint.body_limit ? bodyLimitBytes(endpoint.body_limit) : 0)
}

/** A body limit as the manifests and the service write it ("512kb"), in bytes. */
export function bodyLimitBytes(limit: string): number {
  const [, n, unit] = /^(\d+)\s*(kb|mb|b)?$/i.exec(limit.trim()) ?? [undefined, '0', 'b']
  return Number(n) * ({ kb: 1024, mb: 1024 * 1024 }[(unit ?? 'b').toLowerCase()] ?? 1)
}

/** A body limit as a 413 and the published descriptions say it ("512 KiB"). */
export function bodyLimitText(limit: string): string {
  return limit.replace(/^(\d+)kb$/i, '$1 KiB').replace(/^(\d+)mb$/i, '$1 MiB')
}
