/**
 * @module Where the project's folders are, from this file's place in the tree (src or dist). It sits
 * below server/ and tools/, which both use it, so that neither imports the other for it.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('cannot find the project root (no package.json above service/project/)')
    dir = up
  }
  return dir
}

/** The project root; PROJECT_ROOT points the tools at another checkout (the replay tests use one). */
export const ROOT = resolve(process.env.PROJECT_ROOT ?? findRoot())
export const RULES_DIR = resolve(process.env.RULES_DIR ?? join(ROOT, 'rules'))
export const TABLES_DIR = resolve(process.env.TABLES_DIR ?? join(ROOT, 'tables'))
export const ENDPOINTS_DIR = resolve(process.env.ENDPOINTS_DIR ?? join(ROOT, 'endpoints'))
export const GOLDEN_DIR = join(ROOT, 'test', 'golden')
export const DATA_DIR = resolve(process.env.DATA_DIR ?? join(ROOT, 'data'))
/** Where `npm run data -- update` installs newer copies of the data sets (engine/data/updates.ts). */
export const DATASETS_DIR = join(DATA_DIR, 'datasets')
