/**
 * @module Every document `npm run docs` generates, by its path under docs/: the endpoint reference
 * (docs/api/) and the reference of functions and node kinds (docs/functions.md).
 */
import type { Catalog } from '../../service/index.js'
import { apiDocs } from './api.js'
import { functionsDoc } from './functions.js'

/** Every generated file, by its path under docs/; answers every endpoint's example. @api public */
export async function generatedDocs(catalog: Catalog): Promise<Map<string, string>> {
  const files = await apiDocs(catalog)
  files.set('functions.md', functionsDoc())
  return files
}
