/**
 * @module GET /metrics in a cluster: each worker counts its own requests, and a scrape that reaches
 * any one worker must see them all. The worker asks the primary, which gathers every worker's
 * registry with prom-client's AggregatorRegistry (counters and histograms summed) and answers.
 */
import cluster from 'node:cluster'
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client'

interface MetricsMessage {
  type: 'service:metrics'
  id: number
  text?: string
  error?: string
}

function isMetricsMessage(m: unknown): m is MetricsMessage {
  return typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'service:metrics'
}

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined

/** In the primary: every worker's metrics, summed (what a scrape of the metrics port gets). */
export function clusterMetricsText(): Promise<string> {
  aggregator ??= new AggregatorRegistry()
  return aggregator.clusterMetrics()
}

/** In the primary: answer the workers' requests for the cluster's metrics (GET /metrics on the service port). */
export function answerMetricsRequests(): void {
  aggregator ??= new AggregatorRegistry()
  cluster.on('message', (worker, message: unknown) => {
    if (!isMetricsMessage(message) || message.text !== undefined || message.error !== undefined) return
    clusterMetricsText().then(
      (text) => worker.send({ type: 'service:metrics', id: message.id, text } satisfies MetricsMessage),
      (error: Error) => worker.send({ type: 'service:metrics', id: message.id, error: error.message } satisfies MetricsMessage),
    )
  })
}

/**
 * In a worker, at start: answer the primary's requests for this worker's registry (constructing an
 * AggregatorRegistry is what makes prom-client listen for them), so that every worker is counted.
 */
export function offerWorkerMetrics(): void {
  new AggregatorRegistry()
}

let next = 0
const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>()
let listening = false

/** In a worker: the cluster's metrics, from the primary (within 5 s). */
export function askPrimaryForMetrics(): Promise<string> {
  if (!listening) {
    listening = true
    process.on('message', (message: unknown) => {
      if (!isMetricsMessage(message)) return
      const pending = waiting.get(message.id)
      if (!pending) return
      waiting.delete(message.id)
      if (message.text !== undefined) pending.resolve(message.text)
      else pending.reject(new Error(`the primary could not gather the metrics: ${message.error}`))
    })
  }
  const id = ++next
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id)
      reject(new Error('the primary did not answer the metrics request within 5 s'))
    }, 5000)
    waiting.set(id, {
      resolve: (text) => {
        clearTimeout(timer)
        resolve(text)
      },
      reject: (error) => {
        clearTimeout(timer)
        reject(error)
      },
    })
    process.send?.({ type: 'service:metrics', id } satisfies MetricsMessage)
  })
}
