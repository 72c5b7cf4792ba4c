/**
 * @module The API key store: a JSON file in the data folder holding, for each key, only a salted
 * scrypt hash of its secret. A key is `<keyId>.<secret>`; the secret is 256 random bits, shown once
 * when issued and never stored, so a stolen key file grants nothing.
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
  salt: string
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

export class KeyStore {
  private records: KeyRecord[] = []
  private mtimeMs = -1
  private checkedAt = 0
  /** Keys verified since the file last changed: id → SHA-256 of the secret, to skip scrypt. */
  private verified = new Map<string, Buffer>()
  private readonly dummySalt = randomBytes(16)

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

  list(): Omit<KeyRecord, 'salt' | 'hash'>[] {
    this.reload()
    return this.records.map(({ salt: _s, hash: _h, ...rest }) => rest)
  }

  get size(): number {
    return this.records.length
  }

  /** Issue a key: returns the full key, which is never stored and cannot be shown again. */
  async issue(label: string): Promise<{ id: string; key: string }> {
    this.reload()
    const id = `k${randomBytes(9).toString('base64url')}`
    const secret = randomBytes(32).toString('base64url')
    const salt = randomBytes(16)
    const hash = await scrypt(secret, salt, HASH_BYTES, SCRYPT)
    this.records.push({ id, label, salt: salt.toString('base64'), hash: hash.toString('base64'), created_at: new Date().toISOString() })
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

  /** Whether `header` is a live key. Unknown, revoked and wrong keys cost the same scrypt. */
  async verify(header: string | undefined): Promise<boolean> {
    this.refresh()
    const parsed = parseKey(header)
    const digest = createHash('sha256').update(parsed?.secret ?? '').digest()
    const record = parsed ? this.records.find((r) => r.id === parsed.id) : undefined
    const cached = record && !record.revoked_at ? this.verified.get(record.id) : undefined
    if (cached) return timingSafeEqual(cached, digest)
    const salt = record ? Buffer.from(record.salt, 'base64') : this.dummySalt
    const expected = record ? Buffer.from(record.hash, 'base64') : Buffer.alloc(HASH_BYTES)
    const actual = await scrypt(parsed?.secret ?? 'no-secret-given', salt, HASH_BYTES, SCRYPT)
    const ok = timingSafeEqual(actual, expected) && !!record && !record.revoked_at
    if (ok) this.verified.set(record!.id, digest)
    return ok
  }
}
