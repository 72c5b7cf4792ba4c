/**
 * @module What every data-set importer shares: the error a refused row raises, the provenance each row
 * is stamped with, CSV quoting, and the command line `IN OUT --source-url URL --retrieved YYYY-MM-DD`.
 */
import { parseArgs } from 'node:util'

/** A row or file the publisher's format does not allow: the import stops and names where. */
export class ImportError extends Error {}

/** Where the records were retrieved from and when: written on every row of the data set. */
export interface Provenance {
  sourceUrl: string
  retrieved: string
}

/** One CSV cell, quoted when it holds a comma, a quote or a line break. */
export const cell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)

/**
 * Run an importer from the command line (Node's own argument parser): two paths and the provenance.
 * Exit code 2 for a usage error, 1 for a refused row (its message on stderr), 0 with `run`'s summary.
 */
export function runImporter(argv: string[], usage: string, run: (input: string, output: string, p: Provenance) => string): number {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { 'source-url': { type: 'string' }, retrieved: { type: 'string' } },
  })
  const [input, output] = positionals
  const sourceUrl = values['source-url']
  const retrieved = values.retrieved
  if (!input || !output || typeof sourceUrl !== 'string' || typeof retrieved !== 'string') {
    process.stderr.write(`usage: ${usage}\n`)
    return 2
  }
  try {
    process.stdout.write(`${run(input, output, { sourceUrl, retrieved })}\n`)
    return 0
  } catch (e) {
    return refused(e)
  }
}

/** A refused row or file on the command line: its message on stderr and exit code 1; any other error is thrown on. */
export function refused(e: unknown): number {
  if (e instanceof ImportError) {
    process.stderr.write(`${e.message}\n`)
    return 1
  }
  throw e
}
