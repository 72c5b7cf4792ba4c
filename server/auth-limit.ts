/**
 * @module The limit on failed authentications per client address: past it, the client is answered
 * 429 with `Retry-After` before any key is checked, so guessing is slow and a flood of bad keys
 * cannot take the time good keys need. A fixed window of a minute per address, kept in this process
 * (each cluster worker keeps its own).
 */

const WINDOW_MS = 60_000
/** Addresses remembered at most before the expired ones are dropped. */
const MAX_ADDRESSES = 10_000

export class FailedAuthLimit {
  private readonly failures = new Map<string, { since: number; count: number }>()

  constructor(
    /** Failed authentications an address may make in a minute; 0 turns the limit off. */
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must wait before it may try again, or 0 when it may try now. */
  retryAfter(address: string): number {
    if (this.perMinute === 0) return 0
    const entry = this.failures.get(address)
    if (!entry) return 0
    const elapsed = this.now() - entry.since
    if (elapsed >= WINDOW_MS) {
      this.failures.delete(address)
      return 0
    }
    return entry.count >= this.perMinute ? Math.ceil((WINDOW_MS - elapsed) / 1000) : 0
  }

  /** Count a failed authentication from the address. */
  fail(address: string): void {
    if (this.perMinute === 0) return
    const now = this.now()
    const entry = this.failures.get(address)
    if (entry && now - entry.since < WINDOW_MS) entry.count++
    else this.failures.set(address, { since: now, count: 1 })
    if (this.failures.size > MAX_ADDRESSES) {
      for (const [a, e] of this.failures) if (now - e.since >= WINDOW_MS) this.failures.delete(a)
    }
  }
}
