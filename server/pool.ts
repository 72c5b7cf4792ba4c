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
import { DeadlineError, EvaluationError, InputError, WorkLimitError, type Envelope, type FieldProblem } from '../engine/index.js'
import type { InputErrorCode } from '../engine/errors.js'

export interface PoolSettings {
  rulesDir: string
  tablesDir: string
  limits: { steps: number; milliseconds: number }
}

export interface PoolRequest {
  operation_id: string
  body: unknown
  explain: boolean
}

export type PoolReply =
  | { envelope: Envelope }
  | {
      error:
        | { kind: 'input'; name: string; code: InputErrorCode; message: string; details: FieldProblem[] }
        | { kind: 'evaluation'; message: string }
        | { kind: 'deadline'; milliseconds: number }
    }

export class EvaluationPool {
  private readonly piscina: Piscina<PoolRequest, PoolReply>

  constructor(settings: PoolSettings, threads: number) {
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL('./evaluation-worker.js', import.meta.url)),
      workerData: settings,
      minThreads: threads,
      maxThreads: threads,
      // A request waits for a free thread rather than being refused (piscina's default queue has no
      // bound): the work limit bounds each request, and the server's connections bound how many wait.
    })
  }

  /** The envelope for one request, answered on a thread; throws the error the main thread would. */
  async answer(operationId: string, body: unknown, explain: boolean): Promise<Envelope> {
    const reply = await this.piscina.run({ operation_id: operationId, body, explain })
    if ('envelope' in reply) return reply.envelope
    const e = reply.error
    if (e.kind === 'evaluation') throw new EvaluationError(e.message)
    if (e.kind === 'deadline') throw new DeadlineError(e.milliseconds)
    if (e.code === 'work_limit_exceeded') throw new WorkLimitError(e.message)
    throw new InputError(e.code, e.message, e.details)
  }

  async close(): Promise<void> {
    await this.piscina.destroy()
  }
}
