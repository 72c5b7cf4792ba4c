/**
 * @module The API key store in PostgreSQL, for a service on more than one machine: every machine
 * reads the one table `api_keys` (created if missing), so a key issued or revoked anywhere counts
 * everywhere. Chosen when DATABASE_URL is set (`openKeyStore` in keys.ts).
 *
 * A key is checked against an in-memory copy of the table, never by a query per request: the first
 * middleware asks `surelyInvalid`, which must answer at once, for every request, bad keys included.
 * The copy is read again at most once a second, when requests come (and right after an issue or a
 * revocation here); `verify` waits for that read when one is under way, so it never decides on a copy
 * more than about a second old, and a key just issued on another machine works as soon as this
 * machine has read the table since (at once when its copy is older than a second). A flood of unknown
 * ids still costs at most one read a second.
 *
 * While the database cannot be read, the service goes on with the last copy it read, and says so once
 * on stderr.
 */
import pg from 'pg'
import { newKey, SnapshotKeyStore, summary, type IssuedKey, type KeyRecord, type KeySummary } from './keys.js'

interface Row {
  id: string
  label: string
  algorithm: string | null
  salt: string | null
  hash: string
  created_at: Date
  revoked_at: Date | null
}

const CREATE = `CREATE TABLE IF NOT EXISTS api_keys (
  id text PRIMARY KEY,
  label text NOT NULL,
  algorithm text CHECK (algorithm = 'sha256'),
  salt text,
  hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
)`
const SELECT = 'SELECT id, label, algorithm, salt, hash, created_at, revoked_at FROM api_keys ORDER BY created_at, id'
/** Held to the end of a transaction: machines starting together create the table and issue a first key one at a time. */
const LOCK = "SELECT pg_advisory_xact_lock(hashtext('api_keys'))"
/** How often the copy may be read again, at most. */
const REFRESH_MS = 1000

function toRecord(row: Row): KeyRecord {
  const record: KeyRecord = { id: row.id, label: row.label, hash: row.hash, created_at: row.created_at.toISOString() }
  // Any other algorithm is refused by the table; null is a key hashed with scrypt before.
  if (row.algorithm === 'sha256') record.algorithm = 'sha256'
  if (row.salt !== null) record.salt = row.salt
  if (row.revoked_at !== null) record.revoked_at = row.revoked_at.toISOString()
  return record
}

/** `postgresql (host:port/database)` from a connection URL: never the user's password. */
export function describeDatabase(url: string): string {
  try {
    const u = new URL(url)
    const host = u.hostname || u.searchParams.get('host') || 'localhost'
    const database = decodeURIComponent(u.pathname.replace(/^\//, ''))
    return `postgresql (${host}${u.port ? `:${u.port}` : ''}${database ? `/${database}` : ''})`
  } catch {
    return 'postgresql'
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

export class PostgresKeyStore extends SnapshotKeyStore {
  /** How many times this store has read the table: what a test counts to show a flood of bad keys does not reach the database. */
  reads = 0
  /** When the last read started, and when the one whose rows are in the copy did. */
  private triedAt = 0
  private readAt = 0
  private reading: Promise<Error | undefined> | undefined
  private sequence = 0
  private applied = 0
  private failing = false
  private closed = false

  private constructor(
    private readonly pool: pg.Pool,
    readonly description: string,
  ) {
    super()
  }

  /** Connect, create the table if it is missing, and read it; throws, naming the database, when it cannot. */
  static async open(url: string): Promise<PostgresKeyStore> {
    const description = describeDatabase(url)
    // Bounded waits: a request that waits for a read must not hang on an unreachable database.
    const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000, query_timeout: 5000, keepAlive: true, application_name: 'rules-as-code keys' })
    // An idle connection that breaks (a database restart) is replaced by the next query; say so only.
    pool.on('error', (error) => console.error(`key store ${description}: ${error.message}`))
    const store = new PostgresKeyStore(pool, description)
    try {
      await store.transaction(async (client) => {
        await client.query(LOCK)
        await client.query(CREATE)
      })
      const error = await store.read()
      if (error) throw error
    } catch (error) {
      await pool.end().catch(() => {})
      throw new Error(`cannot open the key store ${description}: ${message(error)}`, { cause: error })
    }
    return store
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    try {
      await client.query('BEGIN')
      const result = await work(client)
      await client.query('COMMIT')
      return result
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback))
      throw error
    } finally {
      client.release(broken)
    }
  }

  /**
   * Read the table into the copy. Resolves (never rejects) once done, to the error if the read
   * failed: the copy is then left as it was. A read that ends after a later one is dropped.
   */
  private read(): Promise<Error | undefined> {
    const started = Date.now()
    const sequence = ++this.sequence
    this.triedAt = started
    this.reads++
    const reading: Promise<Error | undefined> = this.pool.query<Row>(SELECT).then(
      ({ rows }) => {
        if (sequence > this.applied) {
          this.applied = sequence
          this.readAt = started
          this.replace(rows.map(toRecord))
        }
        if (this.failing) console.error(`key store ${this.description}: reading the keys again`)
        this.failing = false
        return undefined
      },
      (error: unknown) => {
        const failure = error instanceof Error ? error : new Error(String(error))
        if (!this.failing && !this.closed) {
          const since = this.readAt ? `the keys read at ${new Date(this.readAt).toISOString()}` : 'no keys'
          console.error(`key store ${this.description}: cannot read the keys (${failure.message}); going on with ${since}`)
        }
        this.failing = true
        return failure
      },
    )
    this.reading = reading
    void reading.then(() => {
      if (this.reading === reading) this.reading = undefined
    })
    return reading
  }

  /** Start reading the table when the copy is a second old and no read is under way; never waits. */
  protected refresh(): void {
    if (this.closed || this.reading || Date.now() - this.triedAt < REFRESH_MS) return
    void this.read()
  }

  /** The read under way, unless reads are failing: then requests are decided on the copy at once. */
  protected override pending(): Promise<unknown> | undefined {
    return this.failing ? undefined : this.reading
  }

  async list(): Promise<KeySummary[]> {
    const { rows } = await this.pool.query<Row>(SELECT)
    return rows.map((row) => summary(toRecord(row)))
  }

  private async insert(client: pg.Pool | pg.PoolClient, label: string): Promise<IssuedKey> {
    const { record, issued } = newKey(label)
    await client.query('INSERT INTO api_keys (id, label, algorithm, salt, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)', [
      record.id,
      record.label,
      record.algorithm ?? null,
      record.salt ?? null,
      record.hash,
      record.created_at,
    ])
    return issued
  }

  async issue(label: string): Promise<IssuedKey> {
    const issued = await this.insert(this.pool, label)
    await this.read()
    return issued
  }

  async issueFirst(label: string): Promise<IssuedKey | undefined> {
    const issued = await this.transaction(async (client) => {
      await client.query(LOCK)
      const { rows } = await client.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM api_keys) AS any')
      return rows[0]?.any ? undefined : this.insert(client, label)
    })
    if (issued) await this.read()
    return issued
  }

  async revoke(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id])
    await this.read()
    return (rowCount ?? 0) > 0
  }

  async close(): Promise<void> {
    this.closed = true
    await this.reading
    await this.pool.end()
  }
}
