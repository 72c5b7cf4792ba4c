/**
 * @module The data set fixture (test/fixtures/data, made-up records) loaded as a catalog, whole or
 * with one file replaced by a broken one from its bad/ folder.
 */
import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadCatalog, type Catalog } from '../../../service/index.js'
import { FIXTURES, loadProblems } from '../../helpers.js'

export const DATA_FIXTURE = join(FIXTURES, 'data')

/** A scratch copy of the fixture, with `bad/<name>` written over `target` when given. */
export function copyFixture(bad?: string, target?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'data-fixture-'))
  cpSync(join(DATA_FIXTURE, 'rules'), join(dir, 'rules'), { recursive: true })
  cpSync(join(DATA_FIXTURE, 'tables'), join(dir, 'tables'), { recursive: true })
  if (bad && target) cpSync(join(DATA_FIXTURE, 'bad', bad), join(dir, target))
  return dir
}

export function load(dir: string, cache = join(dir, 'cache')): Catalog {
  return loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables'), dataCacheDir: cache })
}

/** The load problems of the fixture with one file broken, as `file:line:column: message` from the copy's root. */
export function problems(bad: string, target: string): string[] {
  return loadProblems(copyFixture(bad, target))
}
