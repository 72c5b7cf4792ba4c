/**
 * @module Where the request log goes: a file descriptor (stdout), written in large chunks off the
 * request path.
 *
 * pino's own asynchronous destination (sonic-boom 4) measures the byte length of its whole pending
 * chunk on every line it is given, so a line costs more the fuller the chunk is: about three times
 * what pino spends building the line, on every request. Here a line is only appended to a list; the
 * list is joined and written once it holds 64 KiB, or at the latest a tenth of a second after its
 * first line, and on shutdown the service waits for them (`flush(done)`); what is still pending at exit is written
 * synchronously.
 */
import { write, writeSync } from 'node:fs'

/** Pending text past which the lines are written at once. */
const CHUNK_BYTES = 64 * 1024
/** The longest a line waits before it is written, when traffic is too light to fill a chunk. */
const MAX_DELAY_MS = 100

export class LogDestination {
  private lines: string[] = []
  private pending = 0
  private writing = false
  private timer: NodeJS.Timeout | undefined
  private waiting: ((error?: Error) => void)[] = []

  constructor(private readonly fd = 1) {
    process.once('exit', () => this.flushSync())
  }

  /** Take one line (pino calls this with each serialised line, newline included). */
  write(line: string): boolean {
    this.lines.push(line)
    // Characters, not bytes: close enough to decide when a chunk is full, and free to count.
    this.pending += line.length
    if (this.pending >= CHUNK_BYTES) this.flush()
    else this.timer ??= setTimeout(() => this.flush(), MAX_DELAY_MS).unref()
    return true
  }

  /**
   * Write what is pending, without waiting; a write already under way takes the next chunk after it.
   * `done` is called once everything taken so far is written (pino's `logger.flush(done)`).
   */
  flush(done?: (error?: Error) => void): void {
    if (done) this.waiting.push(done)
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = undefined
    }
    if (this.writing) return
    if (this.lines.length === 0) return this.settle()
    const chunk = Buffer.from(this.lines.join(''))
    this.lines = []
    this.pending = 0
    this.writing = true
    this.writeAll(chunk, 0)
  }

  private writeAll(chunk: Buffer, offset: number): void {
    write(this.fd, chunk, offset, chunk.length - offset, null, (error, written) => {
      // A log that cannot be written (a closed pipe) must not take the service down: the lines are dropped.
      if (!error && offset + written < chunk.length) return this.writeAll(chunk, offset + written)
      this.writing = false
      if (this.lines.length > 0) this.flush()
      else this.settle()
    })
  }

  private settle(): void {
    const waiting = this.waiting
    this.waiting = []
    for (const done of waiting) done()
  }

  /** Write everything pending before returning (at exit and on shutdown). */
  flushSync(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    if (this.lines.length === 0) return
    const text = this.lines.join('')
    this.lines = []
    this.pending = 0
    try {
      writeSync(this.fd, text)
    } catch {
      // As above: a log that cannot be written is dropped, not fatal.
    }
  }
}
