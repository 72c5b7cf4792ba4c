/**
 * @module A worker thread of the evaluation pool (pool.ts): loads the catalog once, then answers
 * the heavy endpoints' requests with the same `answer()` as the main thread, so the bytes are the
 * same. An error crosses back as plain data (its class, code, message and details), since a thread
 * boundary does not carry classes; pool.ts turns it back into the error the server maps.
 */
import { workerData } from 'node:worker_threads'
import { answerCounted, DeadlineError, EvaluationError, InputError, loadCatalog } from '../service/index.js'
import { keepDatasetsCurrent } from '../service/datasets.js'
import type { PoolRequest, PoolSettings, PoolReply } from './pool.js'

const settings = workerData as PoolSettings
const catalog = loadCatalog({ rulesDir: settings.rulesDir, tablesDir: settings.tablesDir, endpointsDir: settings.endpointsDir, datasetsDir: settings.datasetsDir })
catalog.service.limits = settings.limits
if (settings.datasetsDir) keepDatasetsCurrent(catalog, settings.datasetsDir, settings.datasetReloadSeconds ?? 0)
const endpoints = new Map(catalog.endpoints.map((e) => [e.operation_id, e]))

export default async function evaluate(request: PoolRequest): Promise<PoolReply> {
  const endpoint = endpoints.get(request.operation_id)
  if (!endpoint) return { error: { kind: 'evaluation', message: `no endpoint ${request.operation_id} in the pool's catalog` } }
  try {
    return await answerCounted(catalog, endpoint, request.body, { explain: request.explain })
  } catch (error) {
    if (error instanceof InputError) return { error: { kind: 'input', name: error.name, code: error.code, message: error.message, details: error.details } }
    if (error instanceof EvaluationError) return { error: { kind: 'evaluation', message: error.message } }
    if (error instanceof DeadlineError) return { error: { kind: 'deadline', milliseconds: error.milliseconds } }
    throw error
  }
}
