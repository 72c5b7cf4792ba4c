// The replay tool on a scratch checkout: it passes on matching cases, names each mismatch, and
// `--against HEAD` lists exactly the cases a one-rate edit moved.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'

const test = suite('tools/replay')
const REPLAY = join(ROOT, 'dist', 'tools', 'replay.js')

/**
 * What the fixture's cases reach of this project: the estate rule sets and tables (state_estate_tax
 * and estate.state.ny), the service settings, the citation registry and the one endpoint. The tool's
 * behaviour is under test here, not the whole law (test/golden.test.ts replays that): each of the
 * dozen replays below loaded every rule set and table of the project, and now loads these alone.
 */
const PROJECT = ['rules/estate', 'rules/service.yaml', 'tables/estate', 'tables/sources.yaml', 'endpoints/state_estate_tax.yaml']

/** A git checkout with the estate part of this project's rules and tables and the fixture's golden cases (`files` of test/fixtures/replay), committed. */
function scratch(files = ['cases.yaml']): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-project-'))
  for (const path of PROJECT) cpSync(join(ROOT, path), join(dir, path), { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{}\n')
  mkdirSync(join(dir, 'test', 'golden'), { recursive: true })
  for (const f of files) cpSync(join(ROOT, 'test', 'fixtures', 'replay', f), join(dir, 'test', 'golden', f))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' })
  git('init', '-q')
  git('add', '-A')
  git('-c', 'user.name=test', '-c', 'user.email=test@example.invalid', 'commit', '-qm', 'fixture')
  return dir
}

function replay(dir: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, PROJECT_ROOT: dir }
  delete env.RULES_DIR
  delete env.TABLES_DIR
  const r = spawnSync(process.execPath, [REPLAY, ...args], { env, encoding: 'utf8' })
  return { status: r.status, out: r.stdout + r.stderr }
}

function raiseNewYorkTopRate(dir: string) {
  const file = join(dir, 'tables', 'estate', 'state', 'ny.yaml')
  const text = readFileSync(file, 'utf8')
  const edited = text.replace('{ over: "10_100_000", rate: "0.16", base: "1_082_800" }', '{ over: "10_100_000", rate: "0.17", base: "1_082_800" }')
  assert.is.not(edited, text, 'the fixture edit found its line')
  writeFileSync(file, edited)
}

test('every case matches on the committed rules', () => {
  const r = replay(scratch())
  assert.is(r.status, 0, r.out)
  assert.match(r.out, 'replay: 4 of 4 golden cases match')
})

test('a rate edit makes the cases it moves fail, each with field, expected and actual', () => {
  const dir = scratch()
  raiseNewYorkTopRate(dir)
  const r = replay(dir)
  assert.is(r.status, 1)
  assert.match(r.out, 'FAIL test/golden/cases.yaml: A $12,000,000 New York estate reaches the 16% bracket')
  assert.match(r.out, 'result.estate_tax.tax: expected 1386800, got 1405800')
  assert.match(r.out, 'replay: 2 of 4 golden cases match')
})

test('--against HEAD lists exactly the cases the edit moved', () => {
  const dir = scratch()
  raiseNewYorkTopRate(dir)
  const r = replay(dir, '--against', 'HEAD')
  assert.is(r.status, 0, r.out)
  const moved = r.out.split('\n').filter((l) => l.startsWith('test/golden/'))
  assert.equal(moved, [
    'test/golden/cases.yaml: A $12,000,000 New York estate reaches the 16% bracket',
    'test/golden/cases.yaml: A $20,000,000 New York estate reaches the 16% bracket',
  ])
  assert.match(r.out, 'result.estate_tax.tax: 1386800 -> 1405800')
  assert.match(r.out, 'replay --against HEAD: 2 of 4 cases moved')
})

test('--update refuses to run in CI', () => {
  const dir = scratch()
  const r = spawnSync(process.execPath, [REPLAY, '--update'], { env: { ...process.env, PROJECT_ROOT: dir, CI: 'true' }, encoding: 'utf8' })
  assert.is(r.status, 2)
  assert.match(r.stderr, 'never runs in CI')
})

test('--update rewrites the expected values it prints, and then every case matches', () => {
  const dir = scratch()
  raiseNewYorkTopRate(dir)
  const env: NodeJS.ProcessEnv = { ...process.env, PROJECT_ROOT: dir }
  delete env.CI
  const r = spawnSync(process.execPath, [REPLAY, '--update'], { env, encoding: 'utf8' })
  assert.is(r.status, 0, r.stderr)
  assert.match(r.stdout, 'result.estate_tax.tax: 1386800 -> 1405800')
  assert.match(readFileSync(join(dir, 'test', 'golden', 'cases.yaml'), 'utf8'), 'tax: 1405800')
  assert.match(readFileSync(join(dir, 'test', 'golden', 'cases.yaml'), 'utf8'), '# Golden cases for the replay tool')
  assert.is(replay(dir).status, 0)
})

/** Run `replay --update` in `dir` (outside CI). */
function update(dir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, PROJECT_ROOT: dir }
  delete env.CI
  delete env.RULES_DIR
  delete env.TABLES_DIR
  const r = spawnSync(process.execPath, [REPLAY, '--update'], { env, encoding: 'utf8' })
  return { status: r.status, out: r.stdout + r.stderr }
}

/** The numbers of the lines where two texts differ (same line count assumed), from 1. */
function changedLines(a: string, b: string): number[] {
  const [x, y] = [a.split('\n'), b.split('\n')]
  assert.is(x.length, y.length, 'the same number of lines')
  return x.flatMap((line, i) => (line === y[i] ? [] : [i + 1]))
}

test('--update writes only the case whose answer changed: every other byte of the file stays', () => {
  const dir = scratch(['cases.yaml', 'rule_set.yaml'])
  const pristine = readFileSync(join(ROOT, 'test', 'fixtures', 'replay', 'cases.yaml'), 'utf8')
  const file = join(dir, 'test', 'golden', 'cases.yaml')
  // One case made stale: the $7,500,000 estate's expected tax (line 12) off by a dollar.
  const stale = pristine.replace('tax: 386400', 'tax: 386401')
  assert.equal(changedLines(pristine, stale), [12])
  writeFileSync(file, stale)
  const r = update(dir)
  assert.is(r.status, 0, r.out)
  const written = r.out.split('\n').filter((l) => l.startsWith('wrote '))
  assert.equal(written, ['wrote test/golden/cases.yaml: A $7,500,000 New York estate stays below it'])
  assert.match(r.out, 'result.estate_tax.tax: 386401 -> 386400')
  assert.match(r.out, 'replay --update: 1 case(s) written (1 value(s)) in 1 file(s)')
  // The stale case is rewritten in place, and nothing else moved: the file is the fixture again.
  assert.is(readFileSync(file, 'utf8'), pristine)
  assert.is(readFileSync(join(dir, 'test', 'golden', 'rule_set.yaml'), 'utf8'), readFileSync(join(ROOT, 'test', 'fixtures', 'replay', 'rule_set.yaml'), 'utf8'))
})

test('--update on a rule-set case rewrites the stale formula values in their own style, and nothing else', () => {
  const dir = scratch(['rule_set.yaml'])
  const pristine = readFileSync(join(ROOT, 'test', 'fixtures', 'replay', 'rule_set.yaml'), 'utf8')
  const file = join(dir, 'test', 'golden', 'rule_set.yaml')
  // The first case's quoted amount and the second case's flow map, both stale.
  const stale = pristine.replace('phase_out_base: "4_350_000"', 'phase_out_base: "4_350_001"').replace('tax: 773200 }', 'tax: 773201 }')
  assert.equal(changedLines(pristine, stale), [9, 16])
  writeFileSync(file, stale)
  const r = update(dir)
  assert.is(r.status, 0, r.out)
  assert.equal(
    r.out.split('\n').filter((l) => l.startsWith('wrote ')),
    ['wrote test/golden/rule_set.yaml: In the phase-out the credit is the tax on the phased-out amount', 'wrote test/golden/rule_set.yaml: Beyond the cliff there is no credit'],
  )
  const after = readFileSync(file, 'utf8')
  // Only the two stale lines changed; the quoted amount stays quoted (as the decimal's text), its comment stays.
  assert.equal(changedLines(pristine, after), [9])
  assert.match(after, 'phase_out_base: "4350000"   # written as the YAML files write amounts')
  assert.is(replay(dir).status, 0)
})

test('a rule-set case that gives or expects a name its rule set lacks is refused, naming the case', () => {
  const dir = scratch(['rule_set.yaml'])
  const file = join(dir, 'test', 'golden', 'rule_set.yaml')
  writeFileSync(file, readFileSync(file, 'utf8').replace('given: { new_york_taxable_estate: 8000000 }', 'given: { new_york_taxable_estat: 8000000, tax_year: 2026 }').replace('expect: { credit_region', 'expect: { credit_regio'))
  const r = replay(dir)
  assert.is(r.status, 1)
  assert.equal(r.out.trim().split('\n'), [
    'test/golden/rule_set.yaml: case "Beyond the cliff there is no credit" gives \'new_york_taxable_estat\', which is no formula of estate.state.ny',
    'test/golden/rule_set.yaml: case "Beyond the cliff there is no credit" gives \'tax_year\', which is no formula of estate.state.ny (it is an input: give it in input)',
    'test/golden/rule_set.yaml: case "Beyond the cliff there is no credit" expects \'credit_regio\', which is neither an output field nor a formula of estate.state.ny',
  ])
})

test('a given value of the wrong type fails its case, naming the formula and the type', () => {
  const dir = scratch(['rule_set.yaml'])
  const file = join(dir, 'test', 'golden', 'rule_set.yaml')
  writeFileSync(file, readFileSync(file, 'utf8').replace('given: { new_york_taxable_estate: 8000000 }', 'given: { new_york_taxable_estate: eight million }'))
  const r = replay(dir)
  assert.is(r.status, 1)
  assert.match(r.out, 'FAIL test/golden/rule_set.yaml: Beyond the cliff there is no credit')
  assert.match(r.out, `estate.state.ny: the value given to 'new_york_taxable_estate' is \\"eight million\\", not an amount`)
})

test.run()
