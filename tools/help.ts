/**
 * @module `--help` (or `-h`) for every command under tools/: its module comment, which already says
 * what it does and how it is called, printed before anything is loaded, and exit 0. One text for the
 * reader of the source and the caller of the command, so the two cannot drift.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** If the command line asks for help, print the calling module's comment and exit. */
export function answerHelp(moduleUrl: string, argv: string[] = process.argv.slice(2)): void {
  if (!argv.some((a) => a === '--help' || a === '-h')) return
  const source = readFileSync(fileURLToPath(moduleUrl), 'utf8')
  const comment = /\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? ''
  const text = comment
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, ''))
    .join('\n')
    .replace('@module ', '')
    .trim()
  process.stdout.write(`${text}\n`)
  process.exit(0)
}
