/**
 * @module What a bench run is measured against and on: the commit under test (and whether its tree
 * is dirty), the machine (cores, load average, Node), and a baseline build of an earlier commit
 * measured in the same run. Only figures taken in one run compare on this shared, noisy machine.
 *
 * The baseline is `BENCH_BASELINE` (a git revision; 990ff95 by default, the commit issue 24 measures
 * the regression against; `none` for no baseline). It is checked out once as a detached git worktree
 * under the temporary directory, with this checkout's node_modules linked in, and built with tsc;
 * later runs reuse the build (remove it with `git worktree remove --force <dir>`).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../service/project/paths.js'

/** The commit issue 24 names as the last fast one (2026-11-21). */
export const DEFAULT_BASELINE = '990ff95'

export interface RunInfo {
  /** `git rev-parse HEAD` of the checkout measured. */
  commit: string
  /** Tracked files differ from the commit: the figures are of the working tree, not of `commit`. */
  dirty: boolean
  node: string
  cores: number
  cpu_model: string
  /** os.loadavg() (1, 5 and 15 minutes) when the run started and when it ended. */
  load_before: number[]
  load_after?: number[]
  started: string
  baseline?: { rev: string; commit: string; dir: string }
}

const git = (args: string[], cwd = ROOT) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim()
const loads = () => loadavg().map((l) => Number(l.toFixed(2)))

/** The run's commit and machine, taken at its start. @api public */
export function runInfo(): RunInfo {
  let commit = 'unknown'
  let dirty = false
  try {
    commit = git(['rev-parse', 'HEAD'])
    dirty = git(['status', '--porcelain', '--untracked-files=no']) !== ''
  } catch {
    // Not a git checkout (a copied tree): the figures say so.
  }
  return { commit, dirty, node: process.version, cores: availableParallelism(), cpu_model: cpus()[0]?.model ?? '', load_before: loads(), started: new Date().toISOString() }
}

/** The load average at the end of the run. @api public */
export function finishRunInfo(info: RunInfo): RunInfo {
  info.load_after = loads()
  return info
}

export interface Baseline {
  rev: string
  commit: string
  /** The baseline's checkout; its build is `dir/dist`. */
  dir: string
  dist: string
}

/**
 * The baseline build named by BENCH_BASELINE (default 990ff95), checked out and built if not already;
 * undefined when it is `none`. @api public
 */
export function prepareBaseline(log: (line: string) => void = () => {}): Baseline | undefined {
  const rev = process.env.BENCH_BASELINE ?? DEFAULT_BASELINE
  if (rev === '' || rev === 'none') return undefined
  const commit = git(['rev-parse', '--verify', `${rev}^{commit}`])
  const dir = join(tmpdir(), 'rules-as-code-bench-baseline', commit.slice(0, 12))
  const dist = join(dir, 'dist')
  const built = join(dist, 'server', 'main.js')
  if (!existsSync(built)) {
    log(`baseline ${rev} (${commit.slice(0, 12)}): checking out and building in ${dir}…`)
    if (existsSync(dir)) {
      // A build that did not finish: start again from a clean checkout.
      spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT })
      rmSync(dir, { recursive: true, force: true })
    }
    git(['worktree', 'prune'])
    git(['worktree', 'add', '--quiet', '--detach', dir, commit])
    symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'))
    const tsc = spawnSync(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], { cwd: dir, encoding: 'utf8' })
    if (tsc.status !== 0 || !existsSync(built)) throw new Error(`bench: the baseline ${rev} did not build:\n${tsc.stdout}${tsc.stderr}`)
  }
  return { rev, commit, dir, dist }
}
