/**
 * @module The evaluation pool: worker threads (piscina) that answer the endpoints whose manifest says
 * `execution: worker` (the optimizers), so that a search of hundreds of evaluations runs off the
 * event loop and a cheap request sent beside it is answered at once. Each thread loads the catalog
 * itself; a thread that crashes is replaced by piscina.
 *
 * Threads start with the pool, loading their catalog while the server starts listening, so the
 * start-up the port waits for is the main thread's alone.
 */
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import { DeadlineError, EvaluationError, InputError, WorkLimitError, type Counted, type Envelope, type FieldProblem } from '../service/index.js'
import type { InputErrorCode } from '../engine/errors.js'
import { ServiceUnavailable } from '../service/errors.js'

export interface PoolSettings {
  rulesDir: string
  tablesDir: string
  /** Default: endpoints/ beside rulesDir. */
  endpointsDir?: string
  /** Installed copies of the data sets (DATA_DIR/datasets), and how often to look for new ones (seconds; 0: never). */
  datasetsDir?: string
  datasetReloadSeconds?: number
  limits: { steps: number; milliseconds: number }
}

export interface PoolRequest {
  operation_id: string
  body: unknown
  explain: boolean
}

export type PoolReply =
  | { envelope: Envelope; steps: number }
  | {
      error:
        | { kind: 'input'; name: string; code: InputErrorCode; message: string; details: FieldProblem[] }
        | { kind: 'evaluation'; message: string }
        | { kind: 'deadline'; milliseconds: number }
    }

/** Requests that may wait for a thread, per thread, before more are refused with 503 (a setting, not a figure of law). */
export const QUEUE_PER_THREAD = 16
/** What a 503 of a full queue tells the caller to wait, in seconds: about one heavy request's time. */
const RETRY_AFTER_SECONDS = 5
const QUEUE_FULL = new Set(['Task queue is at limit', 'No task queue available and all Workers are busy'])

export class EvaluationPool {
  private readonly piscina: Piscina<PoolRequest, PoolReply>

  /**
   * `maxQueue`: requests that may wait for a free thread; one more is refused with 503 and
   * `Retry-After`. Unbounded, a slow request held every later one for minutes (a QTIP request
   * waited over 120 s behind one terms-of-service text), and each waiting body held memory.
   */
  constructor(settings: PoolSettings, threads: number, maxQueue: number = QUEUE_PER_THREAD * Math.max(1, threads)) {
    this.piscina = new Piscina({
      // A CommonJS entry that imports the ES module worker (evaluation-entry.cts says why).
      filename: fileURLToPath(new URL('./evaluation-entry.cjs', import.meta.url)),
      workerData: settings,
      minThreads: threads,
      maxThreads: threads,
      maxQueue,
    })
  }

  /** The envelope for one request, answered on a thread; throws the error the main thread would, or ServiceUnavailable when the queue is full. */
  async answer(operationId: string, body: unknown, explain: boolean): Promise<Envelope> {
    return (await this.answerCounted(operationId, body, explain)).envelope
  }

  /** The same, with the steps the evaluation took (what a batch's total budget sums). */
  async answerCounted(operationId: string, body: unknown, explain: boolean): Promise<Counted> {
    let reply: PoolReply
    try {
      reply = await this.piscina.run({ operation_id: operationId, body, explain })
    } catch (error) {
      // piscina's refusals when the queue is at its bound (errors.js: TaskQueueAtLimit, and NoTaskQueueAvailable for maxQueue 0).
      if (error instanceof Error && QUEUE_FULL.has(error.message)) {
        throw new ServiceUnavailable(`the service is busy: ${this.piscina.options.maxQueue} requests are already waiting for an evaluation thread; try again in ${RETRY_AFTER_SECONDS} s`, RETRY_AFTER_SECONDS)
      }
      throw error
    }
    if ('envelope' in reply) return reply
    const e = reply.error
    if (e.kind === 'evaluation') throw new EvaluationError(e.message)
    if (e.kind === 'deadline') throw new DeadlineError(e.milliseconds)
    if (e.code === 'work_limit_exceeded') throw new WorkLimitError(e.message)
    throw new InputError(e.code, e.message, e.details)
  }

  /** The threads answering: how many lines of a batch are sent to the pool at once. */
  get threads(): number {
    return this.piscina.options.maxThreads
  }

  async close(): Promise<void> {
    await this.piscina.destroy()
  }
}
