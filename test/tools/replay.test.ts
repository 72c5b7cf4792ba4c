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

/** A git checkout with this project's rules and tables and the fixture's golden cases, committed. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'replay-project-'))
  cpSync(join(ROOT, 'rules'), join(dir, 'rules'), { recursive: true })
  cpSync(join(ROOT, 'tables'), join(dir, 'tables'), { recursive: true })
  cpSync(join(ROOT, 'endpoints'), join(dir, 'endpoints'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), '{}\n')
  mkdirSync(join(dir, 'test', 'golden'), { recursive: true })
  cpSync(join(ROOT, 'test', 'fixtures', 'replay', 'cases.yaml'), join(dir, 'test', 'golden', 'cases.yaml'))
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

test.run()
