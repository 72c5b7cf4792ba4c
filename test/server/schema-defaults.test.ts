/**
 * Every default the service publishes (in /openapi.json and /schemas/<operation>.json) is a value the
 * service accepts, never a formula: issue 28 §2 found `design_date` and `fees_as_of` published as
 * "date(2026, 1, 1)" and "date(2025, 1, 19)", and a text default written as an expression ("'monthly'")
 * would be published with its quotes. A date default must be a real YYYY-MM-DD date, and sending the
 * default explicitly must give the same answer as leaving it out.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { catalog, post, startService, type Service } from '../helpers.js'

type Schema = Record<string, unknown>

const test = suite('server/schema-defaults: published defaults are values the service accepts')

let service: Service
test.before(async () => {
  service = await startService()
})
test.after(async () => {
  await service.close()
})

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)

function isSchema(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/** Every property schema that carries a default, with its path, in a request schema. */
function defaults(schema: unknown, path: string, out: [string, Schema][] = []): [string, Schema][] {
  if (Array.isArray(schema)) schema.forEach((s, i) => defaults(s, `${path}[${i}]`, out))
  if (!isSchema(schema)) return out
  if (isSchema(schema.properties)) {
    for (const [name, p] of Object.entries(schema.properties)) {
      if (isSchema(p) && 'default' in p) out.push([`${path}.${name}`, p])
      defaults(p, `${path}.${name}`, out)
    }
  }
  for (const k of ['items', 'allOf', 'anyOf', 'oneOf', 'then', 'else']) if (k in schema) defaults(schema[k], `${path}.${k}`, out)
  return out
}

/** The faults of one published default: not valid for its own schema, or written as a formula. */
function faults(where: string, p: Schema): string[] {
  const { default: value, ...rest } = p
  const problems: string[] = []
  if (!ajv.validate(rest, value)) problems.push(`${where}: default ${JSON.stringify(value)} fails its own schema (${ajv.errorsText()})`)
  if (typeof value === 'string' && (/^'.*'$/.test(value) || /^"[^"]*"$/.test(value) || /^[a-z_]+\(.*\)$/.test(value))) {
    problems.push(`${where}: default ${JSON.stringify(value)} is written as a formula, not a value`)
  }
  if (p.format === 'date' && !(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value))) problems.push(`${where}: date default ${JSON.stringify(value)} is not YYYY-MM-DD`)
  return problems
}

test('every default in OpenAPI is a value valid for its own field, dates as YYYY-MM-DD', async () => {
  const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { components: { schemas: Record<string, Schema> } }
  const found: [string, Schema][] = []
  for (const [name, schema] of Object.entries(doc.components.schemas)) if (name.endsWith('_request')) defaults(schema, name, found)
  assert.ok(found.length > 20, `only ${found.length} defaults found: the walk missed the properties`)
  // The two of issue 28 are among them, with real dates.
  const byPath = new Map(found.map(([w, p]) => [w, p.default]))
  assert.is(byPath.get('calculate_ada_requirements_request.design_date'), '2026-01-01')
  assert.is(byPath.get('get_patent_status_request.fees_as_of'), '2025-01-19')
  assert.is(byPath.get('calculate_patent_expiration_request.fees_as_of'), '2025-01-19')
  assert.equal(found.flatMap(([w, p]) => faults(w, p)), [])
})

test('every /schemas/<operation>.json publishes the same sound defaults', async () => {
  for (const endpoint of catalog().endpoints) {
    const res = await fetch(`${service.url}/schemas/${endpoint.operation_id}.json`)
    assert.is(res.status, 200, endpoint.operation_id)
    const schema = (await res.json()) as Schema
    assert.equal(defaults(schema, endpoint.operation_id).flatMap(([w, p]) => faults(w, p)), [], endpoint.operation_id)
  }
})

test('a required field publishes no default (the service never fills it in)', async () => {
  const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { components: { schemas: Record<string, Schema> } }
  const wrong: string[] = []
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    if (!name.endsWith('_request') || !isSchema(schema.properties)) continue
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
    for (const field of required) {
      const p = schema.properties[field]
      if (isSchema(p) && 'default' in p) wrong.push(`${name}.${field}`)
    }
  }
  assert.equal(wrong, [])
})

test('sending a date default explicitly answers as leaving it out', async () => {
  let sent = 0
  for (const endpoint of catalog().endpoints) {
    const res = await fetch(`${service.url}/schemas/${endpoint.operation_id}.json`)
    const schema = (await res.json()) as Schema
    if (!isSchema(schema.properties)) continue
    for (const [name, p] of Object.entries(schema.properties)) {
      if (!isSchema(p) || p.format !== 'date' || !('default' in p)) continue
      const example = JSON.parse(JSON.stringify(endpoint.example)) as Record<string, unknown>
      delete example[name]
      const without = await post(service, endpoint.paths[0]!, example)
      const withDefault = await post(service, endpoint.paths[0]!, { ...example, [name]: p.default })
      assert.is(withDefault.status, 200, `${endpoint.operation_id}.${name} = ${JSON.stringify(p.default)}: ${withDefault.text}`)
      assert.equal(withDefault.json, without.json, `${endpoint.operation_id}.${name}`)
      sent++
    }
  }
  assert.ok(sent >= 3, `only ${sent} date defaults were sent`)
})

test.run()
