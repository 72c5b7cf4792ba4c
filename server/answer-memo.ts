/**
 * @module Answers already given, kept by the bytes of their request: the same body sent again to the
 * same operation is answered with the same envelope, without checking, evaluating or serialising it
 * a second time.
 *
 * An answer depends only on the operation, the request body, `explain`, the catalog and the data
 * sets (the engine reads no clock: every date is the caller's or the law's). The catalog of an app
 * never changes (a new catalog is a new app, server/dev.ts); the data sets do, when an installed copy
 * is swapped in (engine/data/updates.ts), and then everything kept is forgotten. Only answers of 200
 * are kept: a refusal is thrown before anything is kept, so a bad request is checked again each time.
 *
 * Each API key has its own answers: a caller never learns, from how fast an answer came, that another
 * caller asked the same question.
 *
 * An answer is kept the second time its request is answered, not the first: where every request is
 * new (a caller sweeping a range of amounts), keeping each answer would only push out older ones that
 * may be asked again, and churn the heap. (One run at load 10 showed all-new traffic slower with every
 * answer kept; a quieter run showed no difference either way.) The requests seen once are remembered
 * by their key alone, in an eighth of the budget more.
 *
 * Bounded by size (ANSWER_MEMO_BYTES): the oldest used answer goes first. A body is kept only up to
 * MAX_KEPT_BODY characters, so a large pasted document is never held as a key.
 */
import { datasetSwaps } from '../engine/data/updates.js'

/** Bodies longer than this (characters) are answered afresh each time and never kept. */
const MAX_KEPT_BODY = 8 * 1024

export class AnswerMemo {
  private readonly kept = new Map<string, string>()
  private size = 0
  /** The keys of requests answered once and not kept, and their bytes. */
  private readonly seen = new Set<string>()
  private seenSize = 0
  private swaps: number

  /**
   * @param budget bytes of keys and answers kept at most (0: nothing is kept).
   * @param generation what changes when the data the answers read changes (by default, the swaps of data set copies).
   */
  constructor(
    private readonly budget: number,
    private readonly generation: () => number = datasetSwaps,
  ) {
    this.swaps = generation()
  }

  /** The key of a request by the caller's key id, or undefined where it is not to be kept. */
  key(caller: string | undefined, operation: string, explain: boolean, body: string | undefined): string | undefined {
    if (this.budget <= 0 || caller === undefined || body === undefined || body.length > MAX_KEPT_BODY) return undefined
    return `${caller} ${operation}${explain ? ' explain' : ''}\n${body}`
  }

  /** The answer kept for this key, freshly marked as used. */
  get(key: string): string | undefined {
    if (this.swaps !== this.generation()) this.clear()
    const answer = this.kept.get(key)
    if (answer === undefined) return undefined
    // A Map keeps insertion order: taking the entry out and in again makes it the newest used.
    this.kept.delete(key)
    this.kept.set(key, answer)
    return answer
  }

  set(key: string, answer: string): void {
    if (this.swaps !== this.generation()) this.clear()
    // JavaScript strings hold two bytes a character (at most; Latin-1 text one).
    const bytes = 2 * (key.length + answer.length)
    if (bytes > this.budget / 16) return
    if (!this.seen.delete(key)) {
      // The first time: remembered as seen; the seen keys start again when they fill their share.
      if (this.seenSize + 2 * key.length > this.budget / 8) {
        this.seen.clear()
        this.seenSize = 0
      }
      this.seen.add(key)
      this.seenSize += 2 * key.length
      return
    }
    this.seenSize -= 2 * key.length
    const before = this.kept.get(key)
    if (before !== undefined) {
      this.kept.delete(key)
      this.size -= 2 * (key.length + before.length)
    }
    this.kept.set(key, answer)
    this.size += bytes
    for (const [oldest, old] of this.kept) {
      if (this.size <= this.budget) break
      this.kept.delete(oldest)
      this.size -= 2 * (oldest.length + old.length)
    }
  }

  get entries(): number {
    return this.kept.size
  }

  private clear(): void {
    this.kept.clear()
    this.size = 0
    this.seen.clear()
    this.seenSize = 0
    this.swaps = this.generation()
  }
}
