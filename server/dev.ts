/**
 * @module `npm run dev`: the service for an analyst at work. One process, every endpoint answered in
 * it, and the rules, tables and endpoint manifests watched: an edit is loaded and checked as soon as
 * it is saved, without a restart. A bad edit prints each problem as `file:line:column` and the last
 * good catalog goes on answering; the next good save replaces it.
 *
 * Environment as `npm start` reads it (PORT, HOST, DATA_DIR, RULES_DIR, TABLES_DIR, ENDPOINTS_DIR);
 * no cluster, no evaluation threads, no request log. Not for production: reloading a catalog costs a
 * second of one core, and a change is answered by whichever catalog a request started with.
 */
import { watch, type FSWatcher } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { relative } from 'node:path'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../service/index.js'
import { withOperatorLimits } from '../service/project/catalog.js'
import { ENDPOINTS_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { openKeyStore } from '../service/keys.js'
import { createApp } from './app.js'
import { answerMalformedRequests } from './errors.js'

const port = Number(process.env.PORT ?? 8080)
const host = process.env.HOST ?? '127.0.0.1'
/** How long the folders must be quiet after a change before it is loaded: an editor's save is several events. */
const SETTLE_MS = 150

/** The catalog from the files as they are now, or the problems that keep it from loading. */
function load(): { catalog?: Catalog; problems: string[] } {
  try {
    return { catalog: withOperatorLimits(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, endpointsDir: ENDPOINTS_DIR })), problems: [] }
  } catch (error) {
    if (!(error instanceof RuleLoadError)) return { problems: [error instanceof Error ? error.message : String(error)] }
    return { problems: error.problems.map(formatProblem) }
  }
}

const first = load()
if (!first.catalog) {
  for (const p of first.problems) console.error(p)
  console.error(`dev: ${first.problems.length} problem(s) in the rule files; fix them and run npm run dev again`)
  process.exit(1)
}
const keys = await openKeyStore()
const issued = await keys.issueFirst('first key, issued by npm run dev')
if (issued) console.log(`No API key found in the key store; issued one. It is shown only this once:\n\n  x-api-key: ${issued.key}\n`)

const handlerOf = (catalog: Catalog) => createApp({ catalog, keys }).callback()
let handle = handlerOf(first.catalog)
let endpoints = first.catalog.endpoints.length
// The handler is looked up per request, so a reload takes effect on the next one.
const server = createServer((req: IncomingMessage, res: ServerResponse) => void handle(req, res))
answerMalformedRequests(server)
server.listen(port, host, () => {
  // PORT=0 takes a free port: say which.
  const { port: listening } = server.address() as AddressInfo
  console.log(`dev: listening on http://${host}:${listening} (${endpoints} endpoints), watching rules/, tables/ and endpoints/ under ${ROOT}`)
})

let timer: NodeJS.Timeout | undefined
const changed = new Set<string>()
function reload(): void {
  const files = [...changed].map((f) => relative(process.cwd(), f) || f)
  changed.clear()
  const started = performance.now()
  const { catalog, problems } = load()
  const ms = (performance.now() - started).toFixed(0)
  if (!catalog) {
    for (const p of problems) console.error(p)
    console.error(`dev: ${problems.length} problem(s) after editing ${files.join(', ')}; still answering with the last good catalog`)
    return
  }
  handle = handlerOf(catalog)
  endpoints = catalog.endpoints.length
  console.log(`dev: reloaded after editing ${files.join(', ')}: ${catalog.ruleSets.size} rule sets, ${catalog.tables.size} tables, ${endpoints} endpoints (${ms} ms)`)
}

const watchers: FSWatcher[] = [RULES_DIR, TABLES_DIR, ENDPOINTS_DIR].map((dir) =>
  watch(dir, { recursive: true }, (_event, file) => {
    if (!file || !/\.(ya?ml|csv|jsonl?)$/.test(file)) return
    changed.add(`${dir}/${file}`)
    clearTimeout(timer)
    timer = setTimeout(reload, SETTLE_MS)
  }),
)

const stop = () => {
  for (const w of watchers) w.close()
  server.close(() => void keys.close().then(() => process.exit(0)))
  server.closeIdleConnections()
  setTimeout(() => process.exit(0), 2_000).unref()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
