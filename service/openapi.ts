/**
 * @module The OpenAPI 3.1 document of the service, built from the endpoint manifests at start-up:
 * every path of every endpoint, with its operation id, tool name (`x-tool-name`), request schema,
 * result schema inside the envelope, and the error responses; plus the public service routes.
 */
import type { Catalog, Endpoint } from '../service/index.js'
import { agentDescription, bodyLimitText, catalogDataAsOf, envelopeSchema, errorSchema, pathOperations, serviceVersion } from './contract.js'
import { CUT_RULE, recordedAnswer } from './examples.js'
import { BATCH_BODY_LIMIT, BATCH_LINES, BATCH_REQUEST_BUDGETS } from './batch.js'

type Schema = Record<string, unknown>

const json = (schema: Schema) => ({ 'application/json': { schema } })
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
/** An error response, its example carrying its own code (what a client generator and the docs page show). */
const errorResponse = (description: string, code: string, message: string, details: { field: string; message: string }[] = []) => ({
  description,
  content: { 'application/json': { schema: ref('Error'), example: { error: { code, message, details } } } },
})

/** A refusal that passes: the error response with the seconds to wait in `Retry-After`. */
const retryResponse = (description: string, code: string, message: string) => ({
  ...errorResponse(description, code, message),
  headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
})

/** The suite's name groups operations on the docs page, as callers know them (SPEC.md's four suites). */
const tagOf = (catalog: Catalog, endpoint: Endpoint) => catalog.service.suites[endpoint.suite]?.name ?? endpoint.suite

function operation(catalog: Catalog, endpoint: Endpoint, operationId: string, primary: boolean, others: string[]) {
  const same = others.length
    ? `\n\nThe same operation is also at ${others.join(', ')}: same rules, same answer, byte for byte.`
    : ''
  // Where a feature has two paths, each operation says which is the primary one (the first path).
  const which = endpoint.paths.length < 2 ? '' : primary ? ' (primary path)' : ` (second path; primary: ${endpoint.paths[0]})`
  return {
    operationId,
    'x-tool-name': endpoint.tool_name,
    ...(endpoint.also_tools?.length ? { 'x-also-tools': endpoint.also_tools.map((t) => t.tool_name) } : {}),
    ...(primary ? {} : { 'x-same-as': endpoint.operation_id }),
    ...(endpoint.paths.length < 2 ? {} : { 'x-primary-path': endpoint.paths[0] }),
    // The manifest's own body limit, where it raises the service's (a larger body is a 413).
    ...(endpoint.body_limit ? { 'x-body-limit': endpoint.body_limit } : {}),
    tags: [tagOf(catalog, endpoint)],
    // The suite's reference page (docs/api/, served by the docs routes): fields, example and answer.
    externalDocs: { description: `Reference: fields, example request and its answer (docs/api/${endpoint.suite}.md)`, url: `/docs/api/${endpoint.suite}.md` },
    summary: endpoint.summary + which,
    description:
      agentDescription(endpoint) +
      same +
      (endpoint.also_tools ?? []).map((t) => `\n\nAlso the MCP tool \`${t.tool_name}\`: ${t.summary}, with the request cut to ${t.fields.join(', ')}.`).join('') +
      (endpoint.body_limit ? `\n\nRequest bodies up to ${bodyLimitText(endpoint.body_limit)} (a larger one is a 413).` : ''),
    parameters: [
      {
        name: 'explain',
        in: 'query',
        required: false,
        description: 'true adds result.explanation: each step with its value, the parameters it read and its citation.',
        schema: { type: 'string', enum: ['true', 'false'] },
      },
    ],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(`${endpoint.operation_id}_request`), ...(endpoint.example ? { example: endpoint.example } : {}) } },
    },
    responses: {
      '200': answered(endpoint),
      '400': { $ref: '#/components/responses/BadRequest' },
      '401': { $ref: '#/components/responses/Unauthorized' },
      '413': { $ref: '#/components/responses/PayloadTooLarge' },
      '415': { $ref: '#/components/responses/UnsupportedMediaType' },
      '429': { $ref: '#/components/responses/TooManyRequests' },
      '503': { $ref: '#/components/responses/ServiceUnavailable' },
    },
  }
}

/**
 * The 200 response, its example the service's real answer to the example request as `npm run docs`
 * recorded it (service/examples.ts): the answer the reference page under docs/api/ shows too.
 */
function answered(endpoint: Endpoint) {
  const recorded = recordedAnswer(endpoint)
  // One sentence for every operation, so that a changed answer changes no description (the typed client's comments).
  return {
    description: recorded ? `The answer, in the envelope. The example is the service's own answer to the example request, ${CUT_RULE}.` : 'The answer, in the envelope.',
    content: { 'application/json': { schema: ref(`${endpoint.operation_id}_response`), ...(recorded ? { example: recorded.answer } : {}) } },
  }
}

/** A public GET route (no key). */
function publicGet(operationId: string, summary: string, schema: Schema, contentType = 'application/json') {
  return {
    get: {
      operationId,
      tags: ['service'],
      summary,
      security: [],
      responses: { '200': { description: summary, content: { [contentType]: { schema } } } },
    },
  }
}

/** POST /batch: its lines and answer lines are described as schemas, the body as the text that carries them. */
function batchOperation(catalog: Catalog) {
  const steps = (BATCH_REQUEST_BUDGETS * catalog.service.limits.steps).toLocaleString('en-US')
  const ndjson = (description: string, example: string) => ({ 'application/x-ndjson': { schema: { type: 'string', description }, example } })
  const example = '{"id": "ny", "path": "/estate/calculate-state-tax", "body": {"state": "NY", "tax_year": 2026, "gross_estate": 7500000}}\n'
  return {
    post: {
      operationId: 'batch',
      tags: ['batch'],
      summary: 'Many requests in one body of JSON Lines, answered line for line in the same order.',
      description:
        'Each line of the body is a `BatchLine` `{"path", "body", "id"?}`: the path of an endpoint and the body a single request to it would send. ' +
        'The answer is JSON Lines, one `BatchAnswer` `{"id"?, "status", "body"}` a line in the order of the lines, each written as soon as it and the lines before it are done: ' +
        'status 200 with the envelope, or the line\'s own error (400, 404 for an unknown path, 413 for a line over its endpoint\'s body limit, 503) with the error body. A line\'s error never stops the others; blank lines are skipped.\n\n' +
        `Limits: each line has the step budget and body limit of a single request. A batch may have ${BATCH_LINES.toLocaleString('en-US')} lines and ${bodyLimitText(BATCH_BODY_LIMIT)} (more is a 413 before any line runs), ` +
        `and its lines together may take ${BATCH_REQUEST_BUDGETS} requests' step budgets (${steps} steps): the line that would go past them, and every later line that would run, answers 400 work_limit_exceeded. ` +
        'The budget is charged in line order, so the same batch always gets the same answer.',
      requestBody: { required: true, content: ndjson('JSON Lines: a BatchLine a line.', example) },
      responses: {
        '200': { description: 'JSON Lines: a BatchAnswer a line, in the order of the lines.', content: ndjson('JSON Lines: a BatchAnswer a line.', '{"id":"ny","status":200,"body":{"result":{},"data_as_of":"2026-01-01","formula_version":"2026.1","citations":[],"tier":"beta"}}\n') },
        '400': errorResponse('validation_error: the body has no line.', 'validation_error', 'a batch needs at least one line {"path", "body", "id"?}', [{ field: 'body', message: 'has no line' }]),
        '401': { $ref: '#/components/responses/Unauthorized' },
        '413': errorResponse(`payload_too_large: the body is over ${bodyLimitText(BATCH_BODY_LIMIT)} or has more than ${BATCH_LINES.toLocaleString('en-US')} lines.`, 'payload_too_large', `the batch has 1001 lines, more than the ${BATCH_LINES} one batch may have; send the rest in another batch`, [{ field: 'body', message: `more than ${BATCH_LINES} lines` }]),
        '415': errorResponse('unsupported_media_type: the body must be application/x-ndjson, uncompressed.', 'unsupported_media_type', 'a batch body must be JSON Lines with Content-Type: application/x-ndjson'),
        '429': { $ref: '#/components/responses/TooManyRequests' },
      },
    },
  }
}

/** One line of a batch body, and one line of its answer. */
const batchSchemas = {
  BatchLine: {
    type: 'object',
    required: ['path', 'body'],
    additionalProperties: false,
    properties: {
      id: { type: ['string', 'number'], description: "The caller's name for the line, given back on its answer." },
      path: { type: 'string', description: 'The path of an endpoint, e.g. /estate/calculate-state-tax.' },
      body: { type: 'object', additionalProperties: true, description: 'The request body, as a single request to the path would send it.' },
    },
  },
  BatchAnswer: {
    type: 'object',
    required: ['status', 'body'],
    properties: {
      id: { type: ['string', 'number'], description: "The line's id, where it had one." },
      status: { type: 'integer', description: 'The status a single request would have had: 200, or the error\'s.' },
      body: { oneOf: [envelopeSchema({ type: 'object', additionalProperties: true }), ref('Error')] },
    },
  },
}

const schemaRoute = publicGet('request_schema', "One endpoint's request JSON Schema, by operation id (`.json` may follow).", { type: 'object' })

export function openApiDocument(catalog: Catalog): Schema {
  const schemas: Record<string, Schema> = { Error: errorSchema, ...batchSchemas }
  const paths: Record<string, Schema> = {}
  for (const endpoint of catalog.endpoints) {
    schemas[`${endpoint.operation_id}_request`] = endpoint.request
    schemas[`${endpoint.operation_id}_result`] = endpoint.response
    schemas[`${endpoint.operation_id}_response`] = envelopeSchema(ref(`${endpoint.operation_id}_result`))
    for (const { path, operationId, primary } of pathOperations(endpoint)) {
      paths[path] = { post: operation(catalog, endpoint, operationId, primary, endpoint.paths.filter((p) => p !== path)) }
    }
  }
  const service = { type: 'object', additionalProperties: true }
  Object.assign(paths, {
    '/batch': batchOperation(catalog),
    '/healthz': publicGet('healthz', 'The process is up.', service),
    '/readyz': publicGet('readyz', 'The rules are loaded and the service answers.', service),
    '/version': publicGet('version', 'Formula version, service version and the data date.', {
      type: 'object',
      required: ['formula_version', 'service_version', 'data_as_of'],
      properties: {
        formula_version: { type: 'string' },
        service_version: { type: 'string' },
        data_as_of: { type: 'string', format: 'date' },
      },
    }),
    '/': publicGet('index', 'Where to start: the docs page, this document and the paths of every endpoint.', { type: 'object' }),
    '/schemas/{operation}': {
      get: {
        ...schemaRoute.get,
        parameters: [{ name: 'operation', in: 'path', required: true, schema: { type: 'string' }, description: 'An operation id, e.g. state_estate_tax.' }],
        responses: {
          ...schemaRoute.get.responses,
          '404': { description: 'not_found: no endpoint has this operation id; the message lists the known ones.', content: json(ref('Error')) },
        },
      },
    },
    '/openapi.json': publicGet('openapi', 'This document.', { type: 'object' }),
    '/docs': publicGet('docs', 'The documentation page rendered from this document.', { type: 'string' }, 'text/html'),
  })
  return {
    openapi: '3.1.0',
    info: {
      title: 'Rules-as-code calculation service',
      version: serviceVersion,
      summary: 'Exact, cited tax, benefit and compliance answers computed from versioned statutes and curated public data.',
      description:
        `Formula version ${catalog.service.formula_version}; data as of ${catalogDataAsOf(catalog)}; every feature is at tier ${catalog.service.tier}.\n\n` +
        'Every calculation is a POST with a JSON body and the header `x-api-key: <keyId>.<secret>`. ' +
        'Success is 200 with the envelope; bad input is 400 naming the field, an unsupported year or jurisdiction is 400 listing what is supported, a missing or wrong key is 401 ' +
        '(429 with Retry-After once a failing key\'s address or key id has failed too often; a good key is never refused), a busy service is 503 with Retry-After. ' +
        'The same operations are MCP tools (Streamable HTTP at /mcp, same key), named by `x-tool-name`.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: [
      // The suites that have an endpoint, in the order rules/service.yaml lists them.
      ...Object.entries(catalog.service.suites)
        .filter(([id]) => catalog.endpoints.some((e) => e.suite === id))
        .map(([, suite]) => ({ name: suite.name, description: suite.description })),
      { name: 'batch', description: 'Many requests of any suite in one body, for scenario sweeps.' },
      { name: 'service', description: 'Health, version and this documentation; no key needed.' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'An API key `<keyId>.<secret>`, issued with `npm run keys`.',
        },
      },
      schemas,
      responses: {
        BadRequest: errorResponse(
          'validation_error or unsupported_parameter: the details name each field at fault; with faults of both kinds the code is validation_error; work_limit_exceeded: the request asks for more work than one request may do (ask for less: a coarser grid, fewer years).',
          'validation_error',
          'gross_estate is required',
          [{ field: 'gross_estate', message: 'is required' }],
        ),
        Unauthorized: errorResponse('unauthorized: the x-api-key header is missing, malformed, unknown, revoked or wrong (one answer for all).', 'unauthorized', 'a valid API key is required in the x-api-key header (<keyId>.<secret>)'),
        PayloadTooLarge: errorResponse('payload_too_large: the body is over 64 KiB.', 'payload_too_large', 'the request body is larger than the service accepts (64 KiB)', [{ field: 'body', message: 'larger than 64 KiB' }]),
        UnsupportedMediaType: errorResponse('unsupported_media_type: the body must be application/json.', 'unsupported_media_type', 'the request body must be application/json'),
        TooManyRequests: retryResponse(
          'too_many_requests: the key failed, and its client address or its key id has failed too often this minute (the limit per minute is the operator\'s, AUTH_FAILURES_PER_MINUTE). A key that verifies is never refused this way. Retry-After says when a failing key is answered 401 again.',
          'too_many_requests',
          'too many failed authentications from this address or for this key id; try again in 42 s',
        ),
        ServiceUnavailable: retryResponse(
          'service_unavailable: the service is too busy to take the request now (the evaluation queue is full); deadline_exceeded: the request, within the step budget, ran past the far time backstop (WORK_LIMIT_MS) on a busy machine. Either way the same request may succeed after Retry-After seconds.',
          'service_unavailable',
          'the service is busy; try again shortly',
        ),
      },
      headers: {
        RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
      },
    },
  }
}
