/**
 * @module The API key store. A key is `<keyId>.<secret>`; the secret is 256 random bits, shown once
 * when issued and never stored: the store holds, for each key, only a hash of its secret, so a stolen
 * copy of the store grants nothing.
 *
 * `KeyStore` is what the service and the keys tool need of a store; `SnapshotKeyStore` checks keys
 * against an in-memory copy of the records, whatever keeps them. `FileKeyStore` keeps them in a JSON
 * file in the data folder (the default); `PostgresKeyStore` (keys-postgres.ts) in a table of a
 * database that every machine of the service shares. `openKeyStore` chooses: PostgreSQL when
 * DATABASE_URL is set.
 *
 * The hash is SHA-256: a secret of 256 random bits cannot be guessed, so a slow password hash buys
 * nothing, and it made every refused request cost a full scrypt (a flood of bad keys starved the
 * good ones). Keys issued before are stored with a salted scrypt hash; both formats are read, so an
 * existing key file keeps working unchanged (an old key costs one scrypt per process, then it is
 * remembered). A missing or malformed key is refused before any hashing at all.
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { DATA_DIR } from './project/paths.js'

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

/** A key as listed: everything but its hash. */
export type KeySummary = Omit<KeyRecord, 'salt' | 'hash' | 'algorithm'>

/** A key just issued: `key` is the full key, which is never stored and cannot be shown again. */
export interface IssuedKey {
  id: string
  key: string
}

/** What the service and the keys tool need of a key store, wherever its records live. */
export interface KeyStore {
  /** Which store this is, for messages: `file /path/keys.json` or `postgresql (host/db)`; never a password. */
  readonly description: string
  /** How many secrets this store has hashed: what a test counts to show a bad header costs nothing. */
  readonly hashes: number
  list(): Promise<KeySummary[]>
  issue(label: string): Promise<IssuedKey>
  /** Issue a key only when the store holds none at all (revoked ones count); undefined when it holds some. */
  issueFirst(label: string): Promise<IssuedKey | undefined>
  /** Revoke a live key; false when there is no live key with this id. */
  revoke(id: string): Promise<boolean>
  /**
   * Whether `header` is surely not a live key, decided at once and cheaply (it runs before anything
   * else, against floods of bad keys): missing, malformed, an unknown or revoked id, or a SHA-256
   * that does not match. What it cannot decide without waiting is left to `verify` (false).
   */
  surelyInvalid(header: string | undefined): boolean
  /**
   * The same decision, with a key that surely verifies said so (`valid`), so the request path hashes
   * a secret once, not once here and again in `verify`; `undecided` is left to `verify`.
   */
  quickCheck(header: string | undefined): KeyVerdict
  /** Whether `header` is a live key. */
  verify(header: string | undefined): Promise<boolean>
  /** Let go of connections and timers (the keys tool exits after this). */
  close(): Promise<void>
}

/** What `quickCheck` can tell at once of a key header. */
export type KeyVerdict = 'valid' | 'invalid' | 'undecided'

const SCRYPT = { N: 16384, r: 8, p: 1 } as const
const HASH_BYTES = 32
const KEY_ID = /^[A-Za-z0-9_-]{4,64}$/
const SECRET = /^[A-Za-z0-9_-]{16,256}$/
/** What the secret of an unknown or revoked id is compared with: it costs the comparison a real one does. */
const DUMMY_DIGEST = Buffer.alloc(HASH_BYTES)

/** Split `<keyId>.<secret>`; undefined when malformed. @api private */
export function parseKey(header: string | undefined): { id: string; secret: string } | undefined {
  if (!header) return undefined
  const dot = header.indexOf('.')
  if (dot < 0) return undefined
  const id = header.slice(0, dot)
  const secret = header.slice(dot + 1)
  return KEY_ID.test(id) && SECRET.test(secret) ? { id, secret } : undefined
}

/** Keys remembered as matched at most (quickCheck). */
const MATCHED_KEYS = 1024

function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret).digest()
}

/** A new key and the record to store for it (its SHA-256, never the secret). @api private */
export function newKey(label: string, now = new Date()): { record: KeyRecord; issued: IssuedKey } {
  const id = `k${randomBytes(9).toString('base64url')}`
  const secret = randomBytes(32).toString('base64url')
  const record: KeyRecord = { id, label, algorithm: 'sha256', hash: sha256(secret).toString('base64'), created_at: now.toISOString() }
  return { record, issued: { id, key: `${id}.${secret}` } }
}

/** A record without its hash, for listing. @api private */
export function summary({ salt: _s, hash: _h, algorithm: _a, ...rest }: KeyRecord): KeySummary {
  return rest
}

/**
 * Checking keys against an in-memory copy of the records, which each store keeps up to date its own
 * way (`refresh`); `surelyInvalid` never waits, so it reads only this copy.
 */
export abstract class SnapshotKeyStore implements KeyStore {
  private byId = new Map<string, KeyRecord>()
  /** The SHA-256 digests of the copy's sha256 records, decoded once: every check compares a ready buffer. */
  private digests = new Map<string, Buffer>()
  /** Old (scrypt) keys verified in this process: id → the scrypt hash checked and the SHA-256 of the secret. */
  private verified = new Map<string, { hash: string; digest: Buffer }>()
  /**
   * Keys that matched their record, by the whole key: the same key sent again is not hashed again
   * while its record is the very object it matched (every refresh and revocation builds new records,
   * so a changed or revoked key is hashed and checked afresh). Only a caller holding the whole key
   * can be answered from here, so its speed tells nothing about other keys.
   */
  private matched = new Map<string, KeyRecord>()
  hashes = 0

  abstract readonly description: string
  abstract list(): Promise<KeySummary[]>
  abstract issue(label: string): Promise<IssuedKey>
  abstract issueFirst(label: string): Promise<IssuedKey | undefined>
  abstract revoke(id: string): Promise<boolean>
  abstract close(): Promise<void>

  /** Bring the copy up to date if it is due (at most once a second), or start doing so; never waits. */
  protected abstract refresh(): void

  /**
   * A newer copy being read (`refresh` started it), for `verify` to wait for: an id missing from the
   * copy may be in it (a key just issued on another machine). Undefined when there is none.
   */
  protected pending(): Promise<unknown> | undefined {
    return undefined
  }

  /** The records in the copy, in the order they were issued. */
  protected get records(): KeyRecord[] {
    return [...this.byId.values()]
  }

  /** Replace the copy; an old key stays remembered as verified only while its record is unchanged. */
  protected replace(records: KeyRecord[]): void {
    this.byId = new Map(records.map((r) => [r.id, r]))
    this.digests = new Map(records.filter((r) => r.algorithm === 'sha256').map((r) => [r.id, Buffer.from(r.hash, 'base64')]))
    for (const [id, { hash }] of this.verified) if (this.byId.get(id)?.hash !== hash) this.verified.delete(id)
  }

  private remembered(record: KeyRecord): Buffer | undefined {
    const entry = this.verified.get(record.id)
    return entry && entry.hash === record.hash ? entry.digest : undefined
  }

  /**
   * Whether `header` is surely not a live key, decided without waiting: missing, malformed, an
   * unknown or revoked id, or a SHA-256 that does not match. An old (scrypt) key not yet verified in
   * this process, and an unknown id while a newer copy is being read, are not decided here (false):
   * `verify` decides them.
   */
  surelyInvalid(header: string | undefined): boolean {
    return this.quickCheck(header) === 'invalid'
  }

  quickCheck(header: string | undefined): KeyVerdict {
    const parsed = parseKey(header)
    if (!parsed) return 'invalid'
    this.refresh()
    const known = this.matched.get(header!)
    if (known !== undefined && this.byId.get(parsed.id) === known && !known.revoked_at) return 'valid'
    // Hash and compare whatever the id: an unknown or revoked id costs what a known one does, so
    // the time of a 401 does not tell which ids exist.
    this.hashes++
    const digest = sha256(parsed.secret)
    const record = this.byId.get(parsed.id)
    const remembered = record && this.remembered(record)
    const expected = this.digests.get(parsed.id) ?? remembered ?? DUMMY_DIGEST
    const matches = timingSafeEqual(digest, expected)
    if (!record) return this.pending() === undefined ? 'invalid' : 'undecided'
    if (record.revoked_at) return 'invalid'
    if (record.algorithm !== 'sha256' && !remembered) return 'undecided'
    if (!matches) return 'invalid'
    // Bounded: a process sees few keys; past MATCHED_KEYS the list starts again.
    if (this.matched.size >= MATCHED_KEYS) this.matched.clear()
    this.matched.set(header!, record)
    return 'valid'
  }

  /**
   * Whether `header` is a live key. A missing or malformed header is refused at once; an unknown,
   * revoked or wrong key costs one SHA-256 and a constant-time comparison, as a good one does.
   */
  async verify(header: string | undefined): Promise<boolean> {
    const parsed = parseKey(header)
    if (!parsed) return false
    this.refresh()
    await this.pending()
    this.hashes++
    const digest = sha256(parsed.secret)
    const record = this.byId.get(parsed.id)
    if (!record || record.revoked_at) {
      // Compare anyway, so an unknown id takes the time a known one does.
      timingSafeEqual(digest, DUMMY_DIGEST)
      return false
    }
    if (record.algorithm === 'sha256') return timingSafeEqual(digest, this.digests.get(record.id) ?? DUMMY_DIGEST)
    // A key issued before: scrypt once per process, then its SHA-256 is remembered.
    const remembered = this.remembered(record)
    if (remembered) return timingSafeEqual(remembered, digest)
    const actual = await scrypt(parsed.secret, Buffer.from(record.salt ?? '', 'base64'), HASH_BYTES, SCRYPT)
    const ok = timingSafeEqual(actual, Buffer.from(record.hash, 'base64'))
    if (ok) this.verified.set(record.id, { hash: record.hash, digest })
    return ok
  }
}

/** The key store in a JSON file (DATA_DIR/keys.json by default), re-read at most once a second when it changes. */
export class FileKeyStore extends SnapshotKeyStore {
  private mtimeMs = -1
  private checkedAt = 0

  constructor(readonly file: string) {
    super()
    this.reload()
  }

  get description(): string {
    return `file ${this.file}`
  }

  /** Re-read the file if it changed (at most once a second), so a revocation takes effect. */
  protected refresh(): void {
    const now = Date.now()
    if (now - this.checkedAt < 1000) return
    this.checkedAt = now
    const mtime = existsSync(this.file) ? statSync(this.file).mtimeMs : -1
    if (mtime !== this.mtimeMs) this.reload()
  }

  private reload() {
    this.mtimeMs = existsSync(this.file) ? statSync(this.file).mtimeMs : -1
    this.replace(existsSync(this.file) ? ((JSON.parse(readFileSync(this.file, 'utf8')) as { keys: KeyRecord[] }).keys ?? []) : [])
  }

  private save(records: KeyRecord[]) {
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.tmp`
    writeFileSync(tmp, JSON.stringify({ keys: records }, null, 2) + '\n', { mode: 0o600 })
    renameSync(tmp, this.file)
    this.reload()
  }

  async list(): Promise<KeySummary[]> {
    this.reload()
    return this.records.map(summary)
  }

  async issue(label: string): Promise<IssuedKey> {
    this.reload()
    const { record, issued } = newKey(label)
    this.save([...this.records, record])
    return issued
  }

  async issueFirst(label: string): Promise<IssuedKey | undefined> {
    this.reload()
    return this.records.length === 0 ? this.issue(label) : undefined
  }

  async revoke(id: string): Promise<boolean> {
    this.reload()
    const records = this.records
    const i = records.findIndex((r) => r.id === id && !r.revoked_at)
    if (i < 0) return false
    records[i] = { ...records[i]!, revoked_at: new Date().toISOString() }
    this.save(records)
    return true
  }

  async close(): Promise<void> {}
}

/**
 * The key store this deployment uses: PostgreSQL when DATABASE_URL is set (every machine then sees
 * the same keys), else the file keys.json in DATA_DIR.
 */
export async function openKeyStore({ databaseUrl = process.env.DATABASE_URL, dataDir = DATA_DIR }: { databaseUrl?: string; dataDir?: string } = {}): Promise<KeyStore> {
  if (!databaseUrl?.trim()) return new FileKeyStore(join(dataDir, 'keys.json'))
  // Loaded only when asked for: a deployment on the file store never loads the PostgreSQL client.
  const { PostgresKeyStore } = await import('./keys-postgres.js')
  return PostgresKeyStore.open(databaseUrl.trim())
}
