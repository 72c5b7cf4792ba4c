/**
 * @module The JSON Schema of an endpoint manifest (endpoints/*.yaml): the HTTP and MCP contract of
 * one operation over a rule set, enforced by ajv at load (service/load.ts).
 */
import type { FromSchema } from 'json-schema-to-ts'

const name = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const

export const endpointSchema = {
  type: 'object',
  required: ['formula_version', 'kind', 'operation_id', 'tool_name', 'paths', 'summary', 'out_of_scope', 'rule_set', 'suite', 'request', 'response'],
  additionalProperties: false,
  properties: {
    formula_version: { type: 'string' },
    kind: { const: 'endpoint' },
    operation_id: name,
    tool_name: name,
    paths: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^/[a-z0-9/_-]+$' } },
    summary: { type: 'string' },
    description: { type: 'string' },
    rule_set: { type: 'string' },
    out_of_scope: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', minLength: 10 },
      description: 'What the endpoint will not answer, in plain words: told to API callers in OpenAPI and to AI agents in the MCP tool description.',
    },
    normalize: { type: 'object', additionalProperties: { enum: ['uppercase', 'lowercase', 'trim'] } },
    years: {
      type: 'object',
      description: 'The request field holding the year, and the years the rules cover: any other year gets 400 unsupported_parameter listing these, and every table the endpoint reads must have a value in force on 1 January of each.',
      required: ['field', 'supported'],
      additionalProperties: false,
      properties: {
        field: name,
        supported: { type: 'array', minItems: 1, items: { type: 'integer' } },
        period: {
          type: 'object',
          description: 'How a supported year is cut into periods (default: the calendar year). Every table the endpoint reads must have a value on the first day of each.',
          required: ['starts', 'named_by', 'months'],
          additionalProperties: false,
          properties: {
            starts: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$', description: 'Month and day the year starts: "07-01" for a year from 1 July.' },
            named_by: { enum: ['start', 'end'], description: 'Whether year N starts in N or ends in N (an Australian income year is named by its end).' },
            months: { enum: [1, 3, 6, 12], description: 'Length of each period within the year: 12, or 3 for quarters.' },
          },
        },
      },
    },
    suite: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'The suite the feature belongs to (an id of rules/service.yaml `suites`): how OpenAPI and the docs page group operations.' },
    execution: {
      enum: ['in_process', 'worker'],
      description: 'worker: answered on worker threads, off the event loop (an optimizer that evaluates hundreds of times); in_process (the default): on the request\'s own thread.',
    },
    body_limit: {
      type: 'string',
      pattern: '^[1-9][0-9]*(kb|mb)$',
      description: "The largest request body this endpoint accepts (\"512kb\"), where it needs more than the service's default (64 KiB): a larger body is a 413 naming it. OpenAPI, the docs and the MCP tool state it.",
    },
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: "The currency of the endpoint's amounts (a code of rules/service.yaml `currencies`); default: the service's default_currency." },
    example: { type: 'object', description: "A realistic request body: published in OpenAPI (the docs page's Try it out sends it); a test expects it to answer 200." },
    also_tools: {
      type: 'array',
      description: 'Further MCP tools answered by the same rules on the same paths, each with a request focused on some of the fields (SPEC gives /ira/form-8606 two tools): its input schema is the request schema cut to `fields`.',
      items: {
        type: 'object',
        required: ['tool_name', 'summary', 'fields'],
        additionalProperties: false,
        properties: {
          tool_name: name,
          summary: { type: 'string' },
          description: { type: 'string' },
          fields: { type: 'array', minItems: 1, items: name },
        },
      },
    },
    request: { type: 'object' },
    response: {
      type: 'object',
      description: 'JSON Schema of `result` inside the envelope: published in OpenAPI and as the MCP output schema, and checked against every golden case.',
    },
  },
} as const

/** The shape of an endpoint manifest. */
export type EndpointFile = FromSchema<typeof endpointSchema>
