/**
 * @module The terms-of-service importer: Open Terms Archive's versions repositories
 * (https://github.com/OpenTermsArchive/contrib-versions and its siblings, open data under ODC-BY 1.0)
 * hold every recorded version of a service's document as a commit of `<Service>/<Document>.md`.
 * The curated analyses (tables/tos/services/<id>.yaml) each pin the version they read by its commit;
 * this tool brings a version's text into tables/tos/documents/ and says which analyses an archive
 * has a newer version for, so an analyst knows what to read again. It reads a local clone (the full
 * archive, offline) with git; it never writes a verdict: a new version is analysed by a person.
 *
 *     node dist/tools/data/open-terms-archive.js import ARCHIVE "GitHub/Terms of Service.md" OUT.md [--repo OpenTermsArchive/contrib-versions] [--at SHA]
 *     node dist/tools/data/open-terms-archive.js check ARCHIVE [--services tables/tos/services] [--repo OpenTermsArchive/contrib-versions]
 *
 * ARCHIVE is a clone of the versions repository (its work tree or its .git directory).
 */
import { answerHelp } from '../help.js'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import { ImportError, refused } from './importer.js'

export { ImportError }

/** One recorded version of a document: the commit that recorded it, its date and its text. */
export interface Version {
  sha: string
  recorded: string
  path: string
  text: string
}

/** The repository Open Terms Archive publishes most services' versions in. */
export const DEFAULT_REPO = 'OpenTermsArchive/contrib-versions'

function gitDir(archive: string): string {
  const dotGit = join(archive, '.git')
  return existsSync(dotGit) ? dotGit : archive
}

function git(archive: string, args: string[]): string {
  try {
    return execFileSync('git', ['--git-dir', gitDir(archive), ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  } catch (e) {
    throw new ImportError(`git ${args.join(' ')} failed in ${archive}: ${(e as Error).message.split('\n')[0]}`)
  }
}

/** The newest version of a document (or the one recorded by `at`), read from the archive's history. */
export function version(archive: string, path: string, at?: string): Version {
  if (!/^[^/]+\/[^/]+\.md$/.test(path)) throw new ImportError(`"${path}" is not a document of the archive (<Service>/<Document>.md)`)
  const log = git(archive, ['log', '-1', '--format=%H %cI', at ?? 'HEAD', '--', path]).trim()
  if (log === '') throw new ImportError(`the archive records no version of "${path}"${at ? ` up to ${at}` : ''}`)
  const [sha, recorded] = log.split(' ') as [string, string]
  if (at && !sha.startsWith(at) && git(archive, ['rev-parse', at]).trim() !== sha) throw new ImportError(`${at} does not record "${path}" (its newest version before it is ${sha})`)
  const text = git(archive, ['show', `${sha}:${path}`])
  return { sha, recorded: recorded.slice(0, 10), path, text }
}

/** The public address of a version: the repository's file at the recording commit. */
export function versionUrl(repo: string, v: Pick<Version, 'sha' | 'path'>): string {
  return `https://github.com/${repo}/blob/${v.sha}/${v.path.split('/').map(encodeURIComponent).join('/')}`
}

/** What an analysis pins: the repository, the commit and the document, read from its source_url. */
export function pinned(sourceUrl: string): { repo: string; sha: string; path: string } | undefined {
  const m = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/blob\/([0-9a-f]{7,40})\/([^/]+\/[^/]+\.md)$/.exec(sourceUrl)
  return m ? { repo: m[1]!, sha: m[2]!, path: m[3]!.split('/').map(decodeURIComponent).join('/') } : undefined
}

/** The newest value of a text parameter of a tables file (its latest effective date). */
function newestValue(file: string, name: string): string | undefined {
  const doc = parse(readFileSync(file, 'utf8')) as { tables?: Record<string, { values?: Record<string, { value?: unknown }> }> }
  const values = doc.tables?.[name]?.values
  if (!values) return undefined
  const last = Object.keys(values).sort().pop()
  const v = last ? values[last]?.value : undefined
  return typeof v === 'string' ? v : undefined
}

export interface Staleness {
  service: string
  path?: string
  analysed?: string
  newest?: { sha: string; recorded: string; url: string }
  status: 'current' | 'newer_version' | 'not_in_archive' | 'other_repository' | 'not_pinned'
}

/** For each analysis of the services folder, whether the archive has recorded a newer version since. */
export function check(archive: string, servicesDir: string, repo: string = DEFAULT_REPO): Staleness[] {
  return readdirSync(servicesDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f): Staleness => {
      const service = f.replace(/\.yaml$/, '')
      const source = newestValue(join(servicesDir, f), 'source_url')
      const pin = source ? pinned(source) : undefined
      if (!pin) return { service, status: 'not_pinned' }
      if (pin.repo !== repo) return { service, path: pin.path, analysed: pin.sha, status: 'other_repository' }
      let newest: Version
      try {
        newest = version(archive, pin.path)
      } catch {
        return { service, path: pin.path, analysed: pin.sha, status: 'not_in_archive' }
      }
      const current = newest.sha.startsWith(pin.sha)
      return {
        service,
        path: pin.path,
        analysed: pin.sha,
        ...(current ? {} : { newest: { sha: newest.sha, recorded: newest.recorded, url: versionUrl(repo, newest) } }),
        status: current ? 'current' : 'newer_version',
      }
    })
}

const USAGE = [
  'node dist/tools/data/open-terms-archive.js import ARCHIVE "<Service>/<Document>.md" OUT.md [--repo OWNER/NAME] [--at SHA]',
  'node dist/tools/data/open-terms-archive.js check ARCHIVE [--services tables/tos/services] [--repo OWNER/NAME]',
].join('\n       ')

export function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { repo: { type: 'string' }, at: { type: 'string' }, services: { type: 'string' } },
  })
  const [command, archive, ...rest] = positionals
  const repo = typeof values.repo === 'string' ? values.repo : DEFAULT_REPO
  try {
    if (command === 'import' && archive && rest.length === 2) {
      const [path, out] = rest as [string, string]
      const v = version(archive, path, typeof values.at === 'string' ? values.at : undefined)
      writeFileSync(out, v.text)
      process.stdout.write(`${out}: ${path} as recorded on ${v.recorded}\nsource_url: ${versionUrl(repo, v)}\n`)
      return 0
    }
    if (command === 'check' && archive && rest.length === 0) {
      const rows = check(archive, typeof values.services === 'string' ? values.services : 'tables/tos/services', repo)
      for (const r of rows) process.stdout.write(`${r.service}\t${r.status}${r.newest ? `\t${r.newest.recorded}\t${r.newest.url}` : ''}\n`)
      return 0
    }
  } catch (e) {
    return refused(e)
  }
  process.stderr.write(`usage: ${USAGE}\n`)
  return 2
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
