/**
 * @module `npm run calc -- --in scenarios.jsonl --out answers.jsonl`: the lines of a batch answered
 * without a server, exactly as POST /batch answers them (service/batch.ts): the same limits, the
 * same answer line for each line, in the same order. Without --in the lines are read from stdin,
 * without --out the answers go to stdout. On a terminal, stderr shows the lines answered so far.
 */
import { answerHelp } from './help.js'
import { createWriteStream, readFileSync } from 'node:fs'
import { once } from 'node:events'
import type { Writable } from 'node:stream'
import { parseArgs } from 'node:util'
import { answerCounted } from '../service/index.js'
import { batchLimits, runBatch, splitLines } from '../service/batch.js'
import { endpointBodyLimit } from '../service/contract.js'
import { loadCatalogOrExit } from '../service/project/catalog.js'

answerHelp(import.meta.url)

const USAGE = 'usage: npm run calc -- [--in scenarios.jsonl] [--out answers.jsonl]   (one {"path", "body", "id"?} a line; stdin and stdout without them)'

let args: { in?: string; out?: string }
try {
  args = parseArgs({ options: { in: { type: 'string' }, out: { type: 'string' } }, strict: true }).values
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  process.exit(2)
}

const text = readFileSync(args.in === undefined || args.in === '-' ? 0 : args.in)
const catalog = loadCatalogOrExit()
const limits = batchLimits(catalog)
// The batch's own limits refuse the whole file, as they refuse a POST /batch body, before any line runs.
const refuse = (message: string) => {
  console.error(message)
  process.exit(1)
}
if (text.length > limits.bytes) refuse(`the file is larger than a batch may be (${limits.bytes} bytes); split it`)
const lines = splitLines(text.toString('utf8'))
if (lines.length === 0) refuse('the file has no line {"path", "body", "id"?}')
if (lines.length > limits.lines) refuse(`the file has ${lines.length} lines, more than the ${limits.lines} one batch may have; split it`)

const out: Writable = args.out === undefined || args.out === '-' ? process.stdout : createWriteStream(args.out)
/** A line of counts on a terminal, redrawn at most every 100 ms: a long file shows it is moving. */
const progress = process.stderr.isTTY
  ? (() => {
      let shown = 0
      return (done: number, last = false) => {
        const now = Date.now()
        if (!last && now - shown < 100) return
        shown = now
        process.stderr.write(`\r${done}/${lines.length} lines answered${last ? '\n' : ''}`)
      }
    })()
  : undefined

const statuses = new Map<number, number>()
let done = 0
const answers = runBatch(
  {
    catalog,
    limits,
    lineLimit: (endpoint) => endpointBodyLimit(endpoint),
    // One line at a time: this process has nothing else to serve.
    answer: (endpoint, body) => answerCounted(catalog, endpoint, body),
    concurrency: 1,
    onInternalError: (error) => console.error('internal error on a line:', error),
  },
  lines,
)
for await (const line of answers) {
  if (!out.write(JSON.stringify(line) + '\n')) await once(out, 'drain')
  statuses.set(line.status, (statuses.get(line.status) ?? 0) + 1)
  done += 1
  progress?.(done)
}
progress?.(done, true)
if (out !== process.stdout) {
  out.end()
  await once(out, 'finish')
}
console.error(`${done} lines: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ')}`)
