/**
 * @module The API key store: a JSON file in the data folder holding, for each key, only a hash of its
 * secret. A key is `<keyId>.<secret>`; the secret is 256 random bits, shown once when issued and
 * never stored, so a stolen key file grants nothing.
 *
 * The hash is SHA-256: a secret of 256 random bits cannot be guessed, so a slow password hash buys
 * nothing, and it made every refused request cost a full scrypt (a flood of bad keys starved the
 * good ones). Keys issued before are stored with a salted scrypt hash; both formats are read, so an
 * existing key file keeps working unchanged (an old key costs one scrypt per process, then it is
 * remembered). A missing or malformed key is refused before any hashing at all.
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

function scrypt(secret: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCallback(secret, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))))
}

export interface KeyRecord {
  id: string
  label: string
  /** `sha256`, or absent for a key issued before, hashed with scrypt and `salt`. */
  algorithm?: 'sha256'
  salt?: string
  hash: string
  created_at: string
  revoked_at?: string
}

const SCRYPT = { N: 16384, r: 8, p: 1 } as const
const HASH_BYTES = 32
const KEY_ID = /^[A-Za-z0-9_-]{4,64}$/
const SECRET = /^[A-Za-z0-9_-]{16,256}$/

/** Split `<keyId>.<secret>`; undefined when malformed. @api private */
export function parseKey(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header) return undefined
  const dot = header.indexOf('.')
  if (dot < 0) return undefined
  const id = header.slice(0, dot)
  const secret = header.slice(dot + 1)
  return KEY_ID.test(id) && SECRET.test(secret) ? { id, secret } : undefined
}

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

export class KeyStore {
  private records: KeyRecord[] = []
  private mtimeMs = -1
  private checkedAt = 0
  /** Old (scrypt) keys verified since the file last changed: id → SHA-256 of the secret. */
  private verified = new Map<string, Buffer>()
  /** How many secrets this store has hashed: what a test counts to show a bad header costs nothing. */
  hashes = 0

  constructor(readonly file: string) {
    this.reload()
  }

  /** Re-read the file if it changed (at most once a second), so a revocation takes effect. */
  private refresh() {
    const now = Date.now()
    if (now - this.checkedAt < 1000) return
    this.checkedAt = now
    const mtime = existsSync(this.file) ? statSync(this.file).mtimeMs : -1
    if (mtime !== this.mtimeMs) this.reload()
  }

  private reload() {
    this.mtimeMs = existsSync(this.file) ? statSync(this.file).mtimeMs : -1
    this.records = existsSync(this.file) ? ((JSON.parse(readFileSync(this.file, 'utf8')) as { keys: KeyRecord[] }).keys ?? []) : []
    this.verified.clear()
  }

  private save() {
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    writeFileSync(tmp, JSON.stringify({ keys: this.records }, null, 2) + '\n', { mode: 0o600 })
    renameSync(tmp, this.file)
    this.reload()
  }

  list(): Omit<KeyRecord, 'salt' | 'hash' | 'algorithm'>[] {
    this.reload()
    return this.records.map(({ salt: _s, hash: _h, algorithm: _a, ...rest }) => rest)
  }

  get size(): number {
    return this.records.length
  }

  /** Issue a key: returns the full key, which is never stored and cannot be shown again. */
  async issue(label: string): Promise<{ id: string; key: string }> {
    this.reload()
    const id = `k${randomBytes(9).toString('base64url')}`
    const secret = randomBytes(32).toString('base64url')
    this.records.push({ id, label, algorithm: 'sha256', hash: sha256(secret).toString('base64'), created_at: new Date().toISOString() })
    this.save()
    return { id, key: `${id}.${secret}` }
  }

  revoke(id: string): boolean {
    this.reload()
    const record = this.records.find((r) => r.id === id && !r.revoked_at)
    if (!record) return false
    record.revoked_at = new Date().toISOString()
    this.save()
    return true
  }

  /**
   * Whether `header` is surely not a live key, decided without waiting: missing, malformed, an
   * unknown or revoked id, or a SHA-256 that does not match. An old (scrypt) key not yet verified in
   * this process is not decided here (false): `verify` decides it.
   */
  surelyInvalid(header: string | undefined): boolean {
    const parsed = parseKey(header)
    if (!parsed) return true
    this.refresh()
    const record = this.records.find((r) => r.id === parsed.id)
    if (!record || record.revoked_at) return true
    if (record.algorithm !== 'sha256' && !this.verified.has(record.id)) return false
    this.hashes++
    const digest = sha256(parsed.secret)
    const expected = record.algorithm === 'sha256' ? Buffer.from(record.hash, 'base64') : this.verified.get(record.id)!
    return !timingSafeEqual(digest, expected)
  }

  /**
   * Whether `header` is a live key. A missing or malformed header is refused at once; an unknown,
   * revoked or wrong key costs one SHA-256 and a constant-time comparison, as a good one does.
   */
  async verify(header: string | undefined): Promise<boolean> {
    const parsed = parseKey(header)
    if (!parsed) return false
    this.refresh()
    this.hashes++
    const digest = sha256(parsed.secret)
    const record = this.records.find((r) => r.id === parsed.id)
    if (!record || record.revoked_at) {
      // Compare anyway, so an unknown id takes the time a known one does.
      timingSafeEqual(digest, Buffer.alloc(HASH_BYTES))
      return false
    }
    if (record.algorithm === 'sha256') return timingSafeEqual(digest, Buffer.from(record.hash, 'base64'))
    // A key issued before: scrypt once per process, then its SHA-256 is remembered.
    const cached = this.verified.get(record.id)
    if (cached) return timingSafeEqual(cached, digest)
    const actual = await scrypt(parsed.secret, Buffer.from(record.salt ?? '', 'base64'), HASH_BYTES, SCRYPT)
    const ok = timingSafeEqual(actual, Buffer.from(record.hash, 'base64'))
    if (ok) this.verified.set(record.id, digest)
    return ok
  }
}
