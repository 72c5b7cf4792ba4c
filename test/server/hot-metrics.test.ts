// The request path's counters and histograms expose exactly what prom-client's own would for the
// same observations, so /metrics and the cluster's sum read them unchanged.
import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { HotCounter, HotHistogram } from '../../server/hot-metrics.js'

const test = suite('server/hot-metrics')

const BUCKETS = [0.001, 0.01, 0.1, 1]
const OBSERVED: [string, number, number][] = [
  ['state_estate_tax', 200, 0.0004],
  ['state_estate_tax', 200, 0.02],
  ['state_estate_tax', 400, 0.003],
  ['federal_estate_tax', 200, 5],
  ['state_estate_tax', 200, 0.001],
]

function theirs(): Registry {
  const registry = new Registry()
  const counter = new Counter({ name: 'requests_total', help: 'Requests', labelNames: ['operation', 'status'], registers: [registry] })
  const histogram = new Histogram({ name: 'duration_seconds', help: 'Duration', labelNames: ['operation', 'status'], buckets: BUCKETS, registers: [registry] })
  for (const [operation, status, seconds] of OBSERVED) {
    counter.inc({ operation, status })
    histogram.observe({ operation, status }, seconds)
  }
  return registry
}

function ours(): Registry {
  const registry = new Registry()
  const counter = new HotCounter({ name: 'requests_total', help: 'Requests', labelNames: ['operation', 'status'], registers: [registry] })
  const histogram = new HotHistogram({ name: 'duration_seconds', help: 'Duration', labelNames: ['operation', 'status'], buckets: BUCKETS, registers: [registry] })
  for (const [operation, status, seconds] of OBSERVED) {
    counter.labels({ operation, status }).inc()
    histogram.labels({ operation, status }).observe(seconds)
  }
  return registry
}

test('the exposition text is the same as prom-client Counter and Histogram give', async () => {
  assert.is(await ours().metrics(), await theirs().metrics())
})

test("the cluster's sum of two workers is the same as prom-client's", async () => {
  const sum = async (make: () => Registry) => AggregatorRegistry.aggregate([await make().getMetricsAsJSON(), await make().getMetricsAsJSON()]).metrics()
  assert.is(await sum(ours), await sum(theirs))
})

test('a series kept by the caller counts into the same place as one looked up by its labels', async () => {
  const registry = new Registry()
  const counter = new HotCounter({ name: 'n_total', help: 'n', labelNames: ['operation'], registers: [registry] })
  const kept = counter.labels({ operation: 'a' })
  kept.inc()
  counter.inc({ operation: 'a' }, 2)
  assert.match(await registry.metrics(), /n_total\{operation="a"\} 3\n/)
})

test.run()
