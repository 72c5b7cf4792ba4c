/**
 * @module POST /batch: a body of JSON Lines answered as JSON Lines, in order, each line written as
 * soon as it and the lines before it are done (service/batch.ts reads and answers the lines).
 *
 * The body is read whole first (up to the batch's byte limit), so a batch over its limits is refused
 * with one error before any line runs. The lines run on the evaluation pool when the service has one,
 * as many at once as it has threads, so a batch never holds the event loop; without a pool they run
 * here one at a time, the event loop served between two lines.
 */
import { Readable } from 'node:stream'
import { setImmediate as turn } from 'node:timers/promises'
import type { Context } from 'koa'
import { answerCounted, type Catalog, type Endpoint } from '../service/index.js'
import { runBatch, splitLines, type BatchLimits } from '../service/batch.js'
import { HttpError } from '../service/errors.js'
import type { EvaluationPool } from './pool.js'

export interface BatchOptions {
  catalog: Catalog
  limits: BatchLimits
  pool?: EvaluationPool
  /** The body limit of a single request to `endpoint`, in bytes: each line is held to its endpoint's. */
  lineLimit: (endpoint: Endpoint) => number
}

const NDJSON = 'application/x-ndjson'

/** The body, read up to `limit` bytes: 413 as soon as it is over, without reading the rest. */
async function readBody(ctx: Context, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, 'payload_too_large', `the batch is larger than the service accepts (${limit} bytes)`, [{ field: 'body', message: `larger than ${limit} bytes` }])
  if (Number(ctx.get('content-length') || 0) > limit) throw tooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > limit) throw tooLarge()
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export function batchHandler({ catalog, limits, pool, lineLimit }: BatchOptions) {
  const answer = pool
    ? (endpoint: Endpoint, body: unknown) => pool.answerCounted(endpoint.operation_id, body, false)
    : async (endpoint: Endpoint, body: unknown) => {
        // One line at a time in this thread: a request sent beside the batch is served between two lines.
        await turn()
        return answerCounted(catalog, endpoint, body)
      }
  return async (ctx: Context) => {
    if (!ctx.is(NDJSON)) {
      throw new HttpError(415, 'unsupported_media_type', `a batch body must be JSON Lines with Content-Type: ${NDJSON}`)
    }
    const encoding = ctx.get('content-encoding')
    if (encoding !== '' && encoding !== 'identity') {
      throw new HttpError(415, 'unsupported_media_type', `unsupported Content-Encoding ${JSON.stringify(encoding)}: send a batch uncompressed`, [{ field: 'content-encoding', message: 'must be identity' }])
    }
    const lines = splitLines(await readBody(ctx, limits.bytes))
    if (lines.length === 0) throw new HttpError(400, 'validation_error', 'a batch needs at least one line {"path", "body", "id"?}', [{ field: 'body', message: 'has no line' }])
    if (lines.length > limits.lines) {
      throw new HttpError(413, 'payload_too_large', `the batch has ${lines.length} lines, more than the ${limits.lines} one batch may have; send the rest in another batch`, [{ field: 'body', message: `more than ${limits.lines} lines` }])
    }
    const answers = runBatch(
      { catalog, limits, lineLimit, answer, concurrency: pool ? pool.threads : 1, onInternalError: (error) => console.error(`internal error on a line of POST /batch:`, error) },
      lines,
    )
    ctx.status = 200
    ctx.type = NDJSON
    // Readable.from pulls the next answer only as the socket takes the last: a caller that reads
    // slowly holds the batch back, and one that goes away stops it (the stream is destroyed).
    ctx.body = Readable.from(
      (async function* () {
        for await (const line of answers) yield JSON.stringify(line) + '\n'
      })(),
      { objectMode: false },
    )
  }
}
