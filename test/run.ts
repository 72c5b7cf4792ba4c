/**
 * @module The test runner: every `*.test.js` under dist/test, run by uvu, then one plain closing
 * line `N passed, N failed` (uvu's own summary has no such line). Exits 1 on any failure.
 */
import { readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const files: string[] = []
const walk = (d: string) => {
  for (const name of readdirSync(d).sort()) {
    const full = join(d, name)
    if (statSync(full).isDirectory()) walk(full)
    else if (name.endsWith('.test.js')) files.push(full)
  }
}
walk(here)

const g = globalThis as { UVU_DEFER?: number; UVU_QUEUE?: unknown[][]; UVU_INDEX?: number }
g.UVU_DEFER = 1
g.UVU_QUEUE = []
for (const [i, file] of files.entries()) {
  g.UVU_QUEUE.push([relative(here, file)])
  g.UVU_INDEX = i
  await import(pathToFileURL(file).href)
}

let printed = ''
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString()
  return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)
}) as typeof process.stdout.write
const { exec } = await import('uvu')
await exec()
process.stdout.write = write
// eslint-disable-next-line no-control-regex
const plain = printed.replace(/\u001b\[[0-9;]*m/g, '')
const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0)
const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0)
const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0)
console.log(`\n${passed} passed, ${total - passed - skipped} failed${skipped ? `, ${skipped} skipped` : ''}`)
if (total === 0 || passed + skipped < total) process.exitCode = 1
