/**
 * @module A throwaway PostgreSQL server for the tests: Debian's `postgresql` binaries
 * (/usr/lib/postgresql/<version>/bin), a cluster made by initdb in a temporary folder, listening on a
 * free loopback port with trust authentication, stopped and removed by `stop` (or when the process
 * exits). PostgreSQL refuses to run as root: as root, initdb and pg_ctl run as the user `postgres`
 * (which the package creates), in a folder it owns.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface Postgres {
  /** `postgresql://postgres@127.0.0.1:<port>/<database>` */
  url(database?: string): string
  port: number
  stop(): void
}

/** The newest installed version's bin folder holding pg_ctl and initdb; undefined when none is. */
function binaries(): string | undefined {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a))
  return versions[0] && join(root, versions[0], 'bin')
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
    s.once('error', reject)
  })

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`

/**
 * Start a server, or say in one line why it cannot be started (the caller skips its tests with it).
 */
export async function startPostgres(): Promise<Postgres | string> {
  const bin = binaries()
  if (!bin) return 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (install Debian\'s postgresql; .ci/run does)'
  const root = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'pg-keys-'))
  const data = join(dir, 'data')
  /** Run a PostgreSQL program: as the user postgres when this process is root. */
  const run = (program: string, args: string[]) => {
    const command = [join(bin, program), ...args]
    const [file, argv] = !root
      ? [command[0]!, command.slice(1)]
      : existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')
        ? ['runuser', ['-u', 'postgres', '--', ...command]]
        : ['su', ['postgres', '-s', '/bin/sh', '-c', command.map(quote).join(' ')]]
    return spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 })
  }
  const fail = (why: string) => {
    rmSync(dir, { recursive: true, force: true })
    return why
  }
  if (root) {
    try {
      const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
      const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
      chownSync(dir, uid, gid)
    } catch {
      return fail('running as root and there is no user postgres to run PostgreSQL as (PostgreSQL refuses to run as root)')
    }
  }
  const init = run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
  if (init.status !== 0) return fail(`initdb failed: ${(init.stderr || init.error?.message || '').trim().split('\n').pop()}`)
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  const log = join(dir, 'server.log')
  const start = run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start'])
  if (start.status !== 0) {
    const why = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').pop() : start.stderr.trim()
    return fail(`pg_ctl could not start the server: ${why}`)
  }
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    rmSync(dir, { recursive: true, force: true })
  }
  // A test that crashes still leaves no server running.
  process.once('exit', stop)
  return { port, url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`, stop }
}
