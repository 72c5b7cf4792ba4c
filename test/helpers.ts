/**
 * @module Shared test helpers: the project's catalog, a scratch copy of the rule-check fixture, and a
 * running service on a random loopback port.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../service/index.js'
import { createApp, type AppOptions } from '../server/app.js'
import { answerMalformedRequests } from '../server/errors.js'
import { FileKeyStore } from '../service/keys.js'
import { ENDPOINTS_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { withOperatorLimits } from '../service/project/catalog.js'

// Both catalogs take WORK_LIMIT_STEPS and WORK_LIMIT_MS as the service does: test/run.ts sets a wide
// wall-clock limit so that a loaded machine does not time out a long case (the tests of the limits
// set their own).
let cached: Catalog | undefined
/** The project's catalog, with the operator's work limits (the test runner widens the wall-clock one). */
export function catalog(): Catalog {
  cached ??= withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR }))
  return cached
}

export const FIXTURES = join(ROOT, 'test', 'fixtures')

/** The load problems of the project in `dir` (its rules/ and tables/), as `file:line:column: message` from there. */
export function loadProblems(dir: string): string[] {
  const cwd = process.cwd()
  process.chdir(dir)
  try {
    loadCatalog({ rulesDir: 'rules', tablesDir: 'tables', dataCacheDir: 'cache' })
    return []
  } catch (error) {
    if (!(error instanceof RuleLoadError)) throw error
    return error.problems.map(formatProblem)
  } finally {
    process.chdir(cwd)
  }
}

/** The address a citation written in a tables file gives: its own, or its source's in tables/sources.yaml. */
export function citedHref(citation: unknown): string | undefined {
  if (citation !== null && typeof citation === 'object' && 'href' in citation) return String(citation.href)
  const key = typeof citation === 'string' ? citation : (citation as { source?: string } | null)?.source
  const registry = parseYaml(readFileSync(join(TABLES_DIR, 'sources.yaml'), 'utf8')) as { sources: Record<string, { href: string }> }
  return key === undefined ? undefined : registry.sources[key]?.href
}

/** A copy of the good rule-check fixture with `bad/<name>.yaml` written over `target`. */
export function fixtureWith(name: string | undefined, target = ''): { rules: string; tables: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rule-check-'))
  cpSync(join(FIXTURES, 'rule-check', 'good'), dir, { recursive: true })
  if (name) cpSync(join(FIXTURES, 'rule-check', 'bad', `${name}.yaml`), join(dir, target))
  return { rules: join(dir, 'rules'), tables: join(dir, 'tables'), dir }
}

export interface Service {
  url: string
  key: string
  close(): Promise<void>
}

/**
 * The project's rules and tables copied to a scratch folder, plus the rule-check fixture's demo rule
 * set, its table and its endpoint manifest (POST /demo/flat-tax, tool calculate_demo_flat_tax): what
 * an analyst adding a new endpoint would add, and nothing else.
 */
export function catalogWithNewEndpoint(): Catalog {
  const dir = mkdtempSync(join(tmpdir(), 'new-endpoint-'))
  cpSync(RULES_DIR, join(dir, 'rules'), { recursive: true })
  cpSync(TABLES_DIR, join(dir, 'tables'), { recursive: true })
  const good = join(FIXTURES, 'rule-check', 'good')
  cpSync(join(good, 'rules', 'demo'), join(dir, 'rules', 'demo'), { recursive: true })
  cpSync(join(good, 'tables', 'demo'), join(dir, 'tables', 'demo'), { recursive: true })
  cpSync(ENDPOINTS_DIR, join(dir, 'endpoints'), { recursive: true })
  cpSync(join(good, 'endpoints', 'demo.yaml'), join(dir, 'endpoints', 'demo.yaml'))
  return loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') })
}

/**
 * The project's rules and tables copied to a scratch folder, with files edited as an analyst would
 * (a dated value added, a year supported), and loaded: how a test shows that the next period needs
 * data only. Each key is a path under the copy (`tables/…` or `rules/…`), each value the edit (of
 * an empty text for a file not there yet).
 */
export function catalogWithEdits(edits: Record<string, (text: string) => string>): Catalog {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-edit-'))
  cpSync(RULES_DIR, join(dir, 'rules'), { recursive: true })
  cpSync(TABLES_DIR, join(dir, 'tables'), { recursive: true })
  cpSync(ENDPOINTS_DIR, join(dir, 'endpoints'), { recursive: true })
  // A file that does not exist yet is edited from empty: a new jurisdiction's file, written whole.
  for (const [file, edit] of Object.entries(edits)) writeFileSync(join(dir, file), edit(existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : ''))
  return withOperatorLimits(loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') }))
}

/** The real app on 127.0.0.1 (the project's catalog unless another is given), with a fresh key store holding one key. */
export async function startService(serviceCatalog: Catalog = catalog()): Promise<Service> {
  return startServiceWith({ catalog: serviceCatalog })
}

/** The same, with any other option of the app (an evaluation pool, another key store, which gets the one key). */
export async function startServiceWith(options: Partial<AppOptions>): Promise<Service> {
  const keys = options.keys ?? new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { key } = await keys.issue('test')
  // No answers kept unless a test asks (server/answer-memo.ts): the tests that send the same body
  // twice check that the evaluation gives the same bytes, and the heavy requests of the bounds'
  // tests must be evaluated each time. test/server/answer-memo.test.ts tests the memory itself.
  const server = createApp({ catalog: catalog(), answerMemoBytes: 0, ...options, keys }).listen(0, '127.0.0.1')
  answerMalformedRequests(server)
  // A test's client may stay idle longer than Node's 5 s keep-alive on a loaded machine (several
  // test processes on two cores); the server closing the socket as the client reuses it is a
  // "fetch failed" of a POST, which is not retried. The tests are not about idle connections.
  server.keepAliveTimeout = 60_000
  await new Promise((resolve) => server.once('listening', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

export async function post(service: Service, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(service.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': service.key, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, text, json: JSON.parse(text) as Record<string, any> }
}
