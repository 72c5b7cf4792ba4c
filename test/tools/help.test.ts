// Every command under tools/ answers --help with what it does and how it is called (its module
// comment), and exits 0 without doing its work (issue 26: `replay --help` ran every case).
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'

const test = suite('tools: --help')

/** Modules other tools import, not commands. */
const LIBRARIES = new Set(['tools/golden.ts', 'tools/golden-update.ts', 'tools/help.ts', 'tools/data/importer.ts', 'tools/data/importers.ts', 'tools/docs/api.ts', 'tools/docs/functions.ts', 'tools/docs/index.ts', 'tools/docs/markdown.ts'])

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? sources(full) : name.endsWith('.ts') && !name.endsWith('.d.ts') ? [relative(ROOT, full)] : []
  })
}

const commands = sources(join(ROOT, 'tools')).filter((f) => !LIBRARIES.has(f))

test('there are commands to ask', () => {
  assert.ok(commands.length >= 10, commands.join(', '))
})

for (const file of commands) {
  test(`${file} --help prints its usage and exits 0`, () => {
    const comment = /\/\*\*([\s\S]*?)\*\//.exec(readFileSync(join(ROOT, file), 'utf8'))?.[1] ?? ''
    const first = comment.split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n').replace('@module ', '').trim().split('\n')[0]!
    const run = spawnSync(process.execPath, [join(ROOT, 'dist', file.replace(/\.ts$/, '.js')), '--help'], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, CI: '' } })
    assert.is(run.status, 0, run.stderr)
    assert.is(run.stdout.split('\n')[0], first)
  })
}

test.run()
