/**
 * @module The limit on failed authentications: per client address and per key id, a fixed window of
 * a minute, kept in this process (each cluster worker keeps its own).
 *
 * It only ever refuses a request whose key has already failed: the key is checked first (a SHA-256
 * against the in-memory copy of the store, about a microsecond), a key that verifies is answered
 * whatever its address or id has done, and a failing one is answered 429 instead of 401 once its
 * address or its key id is over the budget. So a flood of bad keys from an address, or guesses at
 * one key id from many addresses, slow the guesser and never the holder of a good key.
 *
 * What counts: a well-formed key (`<keyId>.<secret>`) that is wrong, unknown or revoked. A missing
 * or malformed key is 401 and not counted: it cannot be a guess at a secret, and counting it locked
 * out every client behind one NAT after 60 careless key-less calls.
 *
 * An address is counted by what one client controls: an IPv4 address as it is (an IPv4-mapped IPv6
 * `::ffff:a.b.c.d` as that IPv4 address), an IPv6 address by its /64, since one host is routinely
 * given a whole /64 and could otherwise rotate through it.
 */
import { isIPv4, isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'

const WINDOW_MS = 60_000
/** Entries (addresses and key ids together) remembered at most: past it, expired ones go, then the oldest. */
const MAX_ENTRIES = 20_000

interface Window {
  since: number
  count: number
}

export class FailedAuthLimit {
  private readonly failures = new Map<string, Window>()

  constructor(
    /** Failed authentications an address, or a key id, may have in a minute; 0 turns the limit off. */
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Seconds a failing request from `address` (for key id `keyId`, when the key was well-formed) must
   * wait before another failure is answered 401 again, or 0 when neither is over the budget.
   */
  retryAfter(address: string, keyId?: string): number {
    if (this.perMinute === 0) return 0
    const byAddress = this.wait(`a ${addressKey(address)}`)
    return keyId === undefined ? byAddress : Math.max(byAddress, this.wait(`k ${keyId}`))
  }

  /** Count a failed authentication from `address` with a well-formed key of id `keyId`. */
  fail(address: string, keyId?: string): void {
    if (this.perMinute === 0) return
    const now = this.now()
    this.count(`a ${addressKey(address)}`, now)
    if (keyId !== undefined) this.count(`k ${keyId}`, now)
  }

  private wait(key: string): number {
    const entry = this.failures.get(key)
    if (!entry) return 0
    const elapsed = this.now() - entry.since
    if (elapsed >= WINDOW_MS) {
      this.failures.delete(key)
      return 0
    }
    return entry.count >= this.perMinute ? Math.ceil((WINDOW_MS - elapsed) / 1000) : 0
  }

  private count(key: string, now: number): void {
    const entry = this.failures.get(key)
    if (entry && now - entry.since < WINDOW_MS) {
      entry.count++
      return
    }
    // A new window goes to the end, so the map stays in the order the windows opened.
    this.failures.delete(key)
    this.failures.set(key, { since: now, count: 1 })
    if (this.failures.size > MAX_ENTRIES) this.trim(now)
  }

  /**
   * Drop the expired windows (they are at the front), then, under a flood of fresh addresses or ids,
   * the oldest, down to nine tenths of the cap: the map never grows past the cap, and trimming is
   * rare enough to cost nothing per request.
   */
  private trim(now: number): void {
    for (const [key, entry] of this.failures) {
      if (now - entry.since < WINDOW_MS && this.failures.size <= MAX_ENTRIES * 0.9) break
      this.failures.delete(key)
    }
  }
}

/**
 * The key an address is counted under: IPv4 as it is (also when written as IPv4-mapped IPv6), IPv6
 * by its first 64 bits, anything else (a proxy's odd header value) as given, cut to 64 characters.
 * @api private
 */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, '')
  if (isIPv4(bare)) return bare
  if (!isIPv6(bare)) return address.slice(0, 64)
  const v6 = ipaddr.IPv6.parse(bare)
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString()
  return `${v6.parts.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`
}
