/**
 * @module `npm run docs`: write the generated documents under docs/: the endpoint reference
 * (docs/api/<suite>.md, its index docs/api/README.md and the recorded answers docs/api/answers.json,
 * which OpenAPI shows as each operation's 200 example) and the reference of functions and node kinds
 * (docs/functions.md). test/tools/docs.test.ts fails while the committed files differ from these.
 *
 *   node dist/tools/docs.js              write them under docs/
 *   node dist/tools/docs.js --out DIR    write them under DIR instead (the test's temporary folder)
 *   node dist/tools/docs.js --help       this text
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../service/index.js'
import { ENDPOINTS_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'
import { generatedDocs } from './docs/index.js'
import { answerHelp } from './help.js'

answerHelp(import.meta.url)

async function main(args: string[]): Promise<void> {
  const i = args.indexOf('--out')
  const out = i >= 0 && args[i + 1] ? args[i + 1]! : join(ROOT, 'docs')
  let catalog: Catalog
  try {
    catalog = loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR, endpointsDir: ENDPOINTS_DIR })
  } catch (error) {
    if (!(error instanceof RuleLoadError)) throw error
    for (const p of error.problems) console.error(formatProblem(p))
    process.exit(2)
  }
  for (const [path, text] of await generatedDocs(catalog)) {
    const file = join(out, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, text)
    console.log(`wrote ${file}`)
  }
}

await main(process.argv.slice(2))
