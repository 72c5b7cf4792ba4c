/**
 * @module Replay: run every golden case (test/golden/**) through its endpoint (or its rule set) and
 * report each mismatch with the case, the field, the expected and the actual value. Exits 1 on any.
 *
 *   node dist/tools/replay.js                  check every case against the rules in this tree
 *   node dist/tools/replay.js --against REV    what the rules here change against revision REV:
 *                                              each case whose answer moved, field by field
 *   node dist/tools/replay.js --update         rewrite the expected values that differ from the
 *                                              current answers, in place, printing each case it
 *                                              wrote (refused in CI); nothing else in a file moves
 *   --filter TEXT                              only cases whose file or name contains TEXT
 */
import { answerHelp } from './help.js'
import { execSync } from 'node:child_process'
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatProblem, loadCatalog, RuleLoadError, type Catalog } from '../service/index.js'
import { checkCase, checkRuleSetFiles, leaves, readGolden, runCase, stepsOnly, type AnyGoldenFile, type Outcome } from './golden.js'
import { updateFile } from './golden-update.js'
import { GOLDEN_DIR, ROOT, RULES_DIR, TABLES_DIR } from '../service/project/paths.js'

answerHelp(import.meta.url)

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(name)
const option = (name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

function load(rulesDir: string, tablesDir: string, label: string): Catalog {
  try {
    return stepsOnly(loadCatalog({ rulesDir, tablesDir }))
  } catch (error) {
    if (error instanceof RuleLoadError) {
      console.error(`the rules ${label} do not load:`)
      for (const p of error.problems) console.error(`  ${formatProblem(p)}`)
      process.exit(2)
    }
    throw error
  }
}

/** The rules and tables of another git revision, written to a temporary folder. */
function checkout(rev: string): { rules: string; tables: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'replay-'))
  try {
    // endpoints/ is absent before the house move of 2026-11-28, when manifests sat in rules/endpoints/.
    const folders = ['rules', 'tables', 'endpoints'].filter((f) => execSync(`git ls-tree ${JSON.stringify(rev)} ${f}`, { cwd: ROOT }).length > 0)
    execSync(`git archive --format=tar ${JSON.stringify(rev)} ${folders.join(' ')} | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
    if (existsSync(join(dir, 'rules', 'endpoints'))) renameSync(join(dir, 'rules', 'endpoints'), join(dir, 'endpoints'))
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    console.error(`cannot read rules/ and tables/ at ${rev}: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`)
    process.exit(2)
  }
  return { rules: join(dir, 'rules'), tables: join(dir, 'tables'), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

const show = (v: unknown) => JSON.stringify(v)

function selected(files: AnyGoldenFile[]): AnyGoldenFile[] {
  const filter = option('--filter')
  if (!filter) return files
  return files
    .map((f) => ({ ...f, cases: f.file.includes(filter) ? f.cases : f.cases.filter((c: { name: string }) => c.name.includes(filter)) }) as AnyGoldenFile)
    .filter((f) => f.cases.length > 0)
}

async function main() {
  const golden = readGolden(GOLDEN_DIR, ROOT)
  const here = load(RULES_DIR, TABLES_DIR, 'in this tree')
  const problems = [...golden.problems, ...checkRuleSetFiles(here, golden.ruleSets)]
  if (problems.length > 0) {
    for (const p of problems) console.error(p)
    process.exit(1)
  }
  // In path order, endpoint and rule-set files together.
  const files = selected([...golden.files, ...golden.ruleSets].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0)))
  const total = files.reduce((n, f) => n + f.cases.length, 0)

  const against = option('--against')
  if (against) {
    const other = checkout(against)
    try {
      const there = load(other.rules, other.tables, `at ${against}`)
      let moved = 0
      for (const f of files) {
        for (const c of f.cases) {
          const [before, after] = [await runCase(there, f, c), await runCase(here, f, c)]
          const diff = diffOutcomes(before, after)
          if (diff.length === 0) continue
          moved++
          console.log(`${f.file}: ${c.name}`)
          for (const d of diff) console.log(`  ${d}`)
        }
      }
      console.log(`replay --against ${against}: ${moved} of ${total} cases moved`)
    } finally {
      other.cleanup()
    }
    return
  }

  if (flag('--update')) {
    if (process.env.CI) {
      console.error('replay --update rewrites expected values and never runs in CI')
      process.exit(2)
    }
    let cases = 0
    let values = 0
    const filesWritten = new Set<string>()
    for (const f of files) {
      for (const w of await updateFile(here, f, join(ROOT, f.file))) {
        console.log(`wrote ${f.file}: ${w.name}`)
        for (const m of w.mismatches) console.log(`  ${m.path}: ${show(m.expected)} -> ${show(m.actual)}`)
        filesWritten.add(f.file)
        cases++
        values += w.mismatches.length
      }
    }
    console.log(`replay --update: ${cases} case(s) written (${values} value(s)) in ${filesWritten.size} file(s); every other case left as it was`)
    return
  }

  let failed = 0
  for (const f of files) {
    for (const c of f.cases) {
      const mismatches = checkCase(f, c, await runCase(here, f, c))
      if (mismatches.length === 0) continue
      failed++
      console.log(`FAIL ${f.file}: ${c.name}`)
      for (const m of mismatches) console.log(`  ${m.path}: expected ${show(m.expected)}, got ${show(m.actual)}`)
    }
  }
  console.log(`replay: ${total - failed} of ${total} golden cases match`)
  if (failed > 0) process.exit(1)
}

/** The fields whose values differ between two answers to the same request. */
function diffOutcomes(before: Outcome, after: Outcome): string[] {
  // A rule set's case also compares the intermediate formulas it names.
  const view = (o: Outcome) => (o.ok ? leaves(o.named ?? {}, 'expect', leaves(o.envelope.result, 'result')) : new Map<string, unknown>([['status', o.status], ['error', o.code]]))
  const [a, b] = [view(before), view(after)]
  const out: string[] = []
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (key.startsWith('result.notes') || key.startsWith('result.explanation')) continue
    const [x, y] = [a.get(key), b.get(key)]
    if (show(x) !== show(y)) out.push(`${key}: ${show(x)} -> ${show(y)}`)
  }
  return out
}

await main()
