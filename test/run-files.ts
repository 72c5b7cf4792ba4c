/**
 * @module One test process: the `*.test.js` files named on the command line, run by uvu, then a
 * line `uvu-summary total passed skipped` for test/run.ts to add up. Exits 1 on any failure.
 */
import { resolve, relative, dirname } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const files = process.argv.slice(2).map((f) => resolve(f))

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
const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(plain)?.[1] ?? 0)
console.log(`uvu-summary ${count('Total')} ${count('Passed')} ${count('Skipped')}`)
