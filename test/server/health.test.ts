// /healthz, /readyz and /version: public (no key), and /version agrees with what answers report.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { catalog, post, startService, type Service } from '../helpers.js'

const test = suite('health and version')
let service: Service
test.before(async () => {
  service = await startService()
})
test.after(() => service.close())

const get = async (path: string) => {
  const res = await fetch(service.url + path)
  return { status: res.status, json: (await res.json()) as Record<string, any> }
}

test('/healthz and /readyz answer with no key', async () => {
  assert.equal(await get('/healthz'), { status: 200, json: { status: 'ok' } })
  const ready = await get('/readyz')
  assert.is(ready.status, 200)
  assert.is(ready.json.status, 'ready')
  assert.is(ready.json.endpoints, catalog().endpoints.length)
})

test('/version gives the formula version, the service version and the newest data date', async () => {
  const { status, json } = await get('/version')
  assert.is(status, 200)
  assert.is(json.formula_version, '2026.1')
  assert.is(json.service_version, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version)
  assert.match(json.data_as_of, /^\d{4}-\d{2}-\d{2}$/)
  const answer = await post(service, '/estate/calculate-federal-tax', { gross_estate: 20000000, state_of_domicile: 'NY' })
  assert.is(answer.json.formula_version, json.formula_version)
  assert.ok(answer.json.data_as_of <= json.data_as_of, `${answer.json.data_as_of} is after ${json.data_as_of}`)
})

test('a POST to a public GET route is 405 naming the allowed method', async () => {
  const res = await fetch(service.url + '/version', { method: 'POST' })
  assert.is(res.status, 405)
  assert.is(res.headers.get('allow'), 'HEAD, GET')
  assert.is(((await res.json()) as any).error.code, 'method_not_allowed')
})

test.run()
