// METRICS_PORT: /metrics served only by a small server on its own port (the one Prometheus scrapes),
// and not by the service's port, which an ingress exposes.
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serveMetricsPort } from '../../server/metrics-port.js'
import { ServiceMetrics } from '../../server/observe.js'
import { post, startServiceWith } from '../helpers.js'

const test = suite('server/metrics-port: serveMetricsPort')

test('with a metrics port, the service port has no /metrics and the metrics port serves the counts', async () => {
  const metrics = new ServiceMetrics(undefined, { processMetrics: false })
  const service = await startServiceWith({ metrics, serveMetrics: false })
  const server = serveMetricsPort(0, '127.0.0.1', () => metrics.registry.metrics())
  await new Promise((resolve) => server.once('listening', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    assert.is((await post(service, '/estate/calculate-state-tax', { state: 'NY', tax_year: 2026, gross_estate: 1 })).status, 200)
    assert.is((await fetch(service.url + '/metrics')).status, 404)
    const res = await fetch(url + '/metrics')
    assert.is(res.status, 200)
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/)
    assert.match(await res.text(), /http_requests_total\{operation="state_estate_tax",status="200"\} 1/)
    const other = await fetch(url + '/estate/calculate-state-tax')
    assert.is(other.status, 404)
    assert.is(((await other.json()) as { error: { code: string } }).error.code, 'not_found')
    assert.is((await fetch(url + '/metrics', { method: 'POST' })).status, 405)
  } finally {
    await service.close()
    await new Promise((resolve) => server.close(resolve))
  }
})

test.run()
