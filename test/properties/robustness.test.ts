// Property: whatever arrives, on every path of every endpoint manifest (a new manifest is covered
// without a line here), the service answers with the envelope or the error body, never a 5xx, a
// non-JSON body or a crash: any JSON value, the endpoint's own field names holding values of the
// wrong type or at the extremes (1e308, -0, 70 KB strings, lone surrogates, deep nesting,
// __proto__), bodies that are not JSON at all, and arbitrary headers. After each property a known
// request still gets the same bytes it got first (nothing leaked into shared state).
import * as fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { Endpoint } from '../../service/index.js'
import { catalog, post, startService, type Service } from '../helpers.js'
import { params } from './runs.js'
import { expectWellFormed, fieldNames, fromSchema, send } from './shape.js'

const test = suite('properties: robustness of every endpoint')
let service: Service
let baseline: string
const KNOWN = { path: '/estate/calculate-state-tax', body: { state: 'NY', tax_year: 2026, gross_estate: 7_500_000 } }

test.before(async () => {
  service = await startService()
  baseline = (await post(service, KNOWN.path, KNOWN.body)).text
})
test.after(async () => {
  await service.close()
})

/** The service is up and answers a known request with the bytes it gave before the property ran. */
async function stillAnswers() {
  const r = await post(service, KNOWN.path, KNOWN.body)
  assert.is(r.status, 200)
  assert.is(r.text, baseline, 'a known request answers differently after the fuzzing')
}

const json = (key: string) => ({ 'content-type': 'application/json', 'x-api-key': key })
const QUERIES = ['', '?explain=true', '?explain=false', '?explain=TRUE', '?explain=true&explain=true', '?explain=%ZZ']

// Values of the wrong type or at the edge of what JSON and the schemas allow.
const nastyNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, 1.7976931348623157e308, -0, 0, 5e-324, -5e-324, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e15, 1e15 + 0.125, 1e16, -1, -0.01, 0.1 + 0.2, 2025, 2026, 2026.5, 2027, 1e21),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
)
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('', ' ', 'NY', 'ny', ' NY', 'ſc', 'ﬂ', 'ıl', 'N\u0000', '\ud800', '\udfff\ud800', '2026-02-30', '2026-13-01', '0000-00-00', '2026-04-15T00:00:00Z', '+002026-01-01', '1e3', 'NaN', 'Infinity', '-0', '0x10', 'true', 'null', '{}', '[]', '__proto__', 'constructor', '${x}', '{x}', '{$x}'),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
)
/** Arrays or objects nested up to 3000 deep. */
const deep = fc.tuple(fc.integer({ min: 1, max: 3_000 }), fc.boolean()).map(([depth, objects]) => {
  let v: unknown = 1
  for (let i = 0; i < depth; i++) v = objects ? { a: v } : [v]
  return v
})
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyNumber },
  { weight: 3, arbitrary: nastyString },
  fc.constantFrom(null, true, false, {}, []),
  fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
  deep,
)
const oddKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', ''), fc.string({ unit: 'binary', maxLength: 12 }))

/** Every object in a value (the root, nested objects, list items), for mutations to land on. */
function objectsIn(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(v)) for (const x of v) objectsIn(x, out)
  else if (typeof v === 'object' && v !== null) {
    out.push(v as Record<string, unknown>)
    for (const x of Object.values(v)) objectsIn(x, out)
  }
  return out
}

/** A schema-valid body with a few fields, at any depth, replaced, added or removed. */
function mutatedBody(endpoint: Endpoint): fc.Arbitrary<unknown> {
  const names = [...fieldNames(endpoint.request)]
  const key = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: oddKey })
  const mutation = fc.tuple(fc.nat(), key, fc.option(nasty, { freq: 8 }))
  return fc.tuple(fromSchema(endpoint.request, endpoint.years), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([body, mutations]) => {
    const nodes = objectsIn(body)
    for (const [at, k, value] of mutations) {
      const node = nodes[at % nodes.length]!
      if (value === null) delete node[k]
      else Object.defineProperty(node, k, { value, enumerable: true, writable: true, configurable: true })
    }
    return body
  })
}

/** Bodies that are not JSON, or are JSON only just. */
function rawBody(endpoint: Endpoint): fc.Arbitrary<string | Uint8Array> {
  const valid = fromSchema(endpoint.request, endpoint.years).map((b) => JSON.stringify(b))
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }),
    fc.tuple(valid, fc.nat()).map(([s, n]) => s.slice(0, n % (s.length + 1))),
    fc.tuple(valid, fc.string({ maxLength: 5 })).map(([s, junk]) => s + junk),
    valid.map((s) => '\ufeff' + s),
    valid.map((s) => s.replace(/^\{/, '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')),
    valid.map((s) => s.replace(/:(-?\d+(\.\d+)?)/, ':1e999')),
    valid.map((s) => s.replace(/"([a-z_]+)":/, '"$1":null,"$1":')),
    fc.constantFrom('', ' ', '\n', 'null', 'true', '0', '-0', '1e999', '"x"', '[]', '{}', '{', '}', '{"a":', '\u0000', '{"a":1}\u0000', '\ud800'),
  )
}

// Found here and fixed: dates before a table's first effective date, a beneficiary born after the
// owner's death, a § 7520 rate too small to give an annuity factor, and an uncompressed body under a
// Content-Encoding were 500s; QTIP candidates rounded past the estate were refused by a cent; two
// response schemas disagreed with their answers. Each now has its own regression test.

const paths: [Endpoint, string][] = catalog().endpoints.flatMap((e) => e.paths.map((p) => [e, p] as [Endpoint, string]))
/** A path, and its endpoint (found again by path, so a counterexample prints the path alone). */
const anyPath = fc.constantFrom(...paths.map(([, p]) => p))
const endpointAt = (path: string) => paths.find(([, p]) => p === path)![0]

for (const [endpoint, path] of paths) {
  test(`${path}: any JSON value as the body gets the envelope or the error body`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ stringUnit: 'binary' }), async (body) => {
        const reply = await send(service, path, JSON.stringify(body), json(service.key))
        expectWellFormed(endpoint, reply, body)
      }),
      params(10),
    )
    await stillAnswers()
  })

  test(`${path}: the endpoint's own fields holding wrong or extreme values`, async () => {
    await fc.assert(
      fc.asyncProperty(mutatedBody(endpoint), fc.constantFrom(...QUERIES), async (body, query) => {
        const reply = await send(service, path + query, JSON.stringify(body), json(service.key))
        expectWellFormed(endpoint, reply, body)
      }),
      params(15),
    )
    await stillAnswers()
  })

  test(`${path}: bodies built from the request schema answer 200 with a schema-valid result, or 400`, async () => {
    await fc.assert(
      fc.asyncProperty(fromSchema(endpoint.request, endpoint.years), fc.constantFrom(...QUERIES), async (body, query) => {
        const reply = await send(service, path + query, JSON.stringify(body), json(service.key))
        expectWellFormed(endpoint, reply, body)
        assert.ok(reply.status === 200 || reply.status === 400, `status ${reply.status}: ${reply.text.slice(0, 300)}`)
      }),
      params(10),
    )
    await stillAnswers()
  })

  test(`${path}: bodies that are not JSON, or barely, get the error body`, async () => {
    await fc.assert(
      fc.asyncProperty(rawBody(endpoint), async (body) => {
        const reply = await send(service, path, body, json(service.key))
        expectWellFormed(endpoint, reply)
      }),
      params(10),
    )
    await stillAnswers()
  })
}

// Header names Node's fetch sets itself or refuses to send, or that change the framing.
const RESERVED = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection', 'http2-settings', 'content-encoding'])
// Printable Latin-1, what a fetch header value may hold (no control characters); short, because a
// header block over Node's 16 KiB limit is answered 431 by Node's HTTP parser before the app runs.
const headerValue = fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff })).map((c) => String.fromCharCode(c)), maxLength: 80 })
const headerName = fc.stringMatching(/^[a-z0-9!#$%&'*+.^_`|~-]{1,24}$/).filter((n) => !RESERVED.has(n) && n !== 'x-api-key' && n !== 'content-type')
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=nope', 'application/json;;;', 'application/json; charset="', 'text/plain', 'text/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/vnd.api+json', 'application/*', '*/*', '']
// Found here: `Content-Encoding: gzip`, `deflate` or `br` on a body that is not compressed was a 500
// (zlib's Z_DATA_ERROR); it is a 400 naming the body now.
const ENCODINGS = ['identity', 'gzip', 'deflate', 'br', 'x-unknown', 'GZIP']

test('arbitrary headers on any path: never a 5xx, and no key but the issued one is let in', async () => {
  const trimmed = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, '')
  const requestArb = fc.record({
    at: anyPath.chain((p) => fc.tuple(fc.constant(p), fc.oneof(fromSchema(endpointAt(p).request, endpointAt(p).years), fc.jsonValue({ maxDepth: 2 })))),
    // The issued key half the time, so the other headers reach the parser and the rules; a refused
    // key costs a scrypt hash (tens of milliseconds), so those are fewer.
    key: fc.option(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant('<real>') },
        { weight: 2, arbitrary: headerValue },
        { weight: 1, arbitrary: fc.tuple(fc.constant('<real>'), headerValue).map(([, extra]) => `<real>${extra}`) },
        { weight: 1, arbitrary: fc.nat().map((n) => `<cut>${n}`) },
        { weight: 1, arbitrary: fc.constant('<upper>') },
      ),
      { freq: 10 },
    ),
    contentType: fc.option(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, { weight: 1, arbitrary: headerValue }), { freq: 8 }),
    encoding: fc.option(fc.constantFrom(...ENCODINGS), { freq: 2 }),
    extra: fc.dictionary(headerName, headerValue, { maxKeys: 6 }),
  })
  await fc.assert(
    fc.asyncProperty(requestArb, async (r) => {
      const [path, body] = r.at
      const endpoint = endpointAt(path)
      let key = r.key
      if (key === '<real>') key = service.key
      else if (key?.startsWith('<real>')) key = service.key + key.slice(6)
      else if (key?.startsWith('<cut>')) key = service.key.slice(0, Number(key.slice(5)) % service.key.length)
      else if (key === '<upper>') key = service.key.toUpperCase()
      const headers: Record<string, string> = { ...r.extra }
      if (key !== null) headers['x-api-key'] = key
      if (r.contentType !== null) headers['content-type'] = r.contentType
      if (r.encoding !== null) headers['content-encoding'] = r.encoding
      const reply = await send(service, path, JSON.stringify(body), headers)
      expectWellFormed(endpoint, reply)
      if (key === null || trimmed(key) !== service.key) assert.is(reply.status, 401, `key ${JSON.stringify(key)} was not refused: ${reply.text.slice(0, 200)}`)
    }),
    params(25),
  )
  await stillAnswers()
})

test('wrong methods and unknown paths get the error body', async () => {
  const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']
  await fc.assert(
    fc.asyncProperty(anyPath, fc.constantFrom(...methods), fc.webPath(), async (path, method, junk) => {
      const endpoint = endpointAt(path)
      const res = await fetch(service.url + path, { method, headers: json(service.key) })
      const text = await res.text()
      assert.is(res.headers.get('allow'), 'POST', `${method} ${path}`)
      // OPTIONS answers 200 with the Allow header and no body, as HTTP means it to (docs/errors.md).
      if (method === 'OPTIONS') assert.ok(res.status === 200 && text === '', `${method} ${path}: ${res.status} ${text}`)
      else assert.is(res.status, 405, `${method} ${path}`)
      if (method !== 'HEAD' && method !== 'OPTIONS') expectWellFormed(endpoint, { status: res.status, type: res.headers.get('content-type') ?? '', text })
      const other = await send(service, `/nowhere${junk.startsWith('/') ? junk : '/' + junk}`, '{}', json(service.key))
      assert.ok(other.status === 404 || other.status === 400, `${junk}: ${other.status}`)
      expectWellFormed(undefined, other)
    }),
    params(15),
  )
  await stillAnswers()
})

test.run()
