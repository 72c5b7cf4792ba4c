/**
 * @module JSON Schema validators compiled once per schema, not once per process.
 *
 * ajv compiling the catalog's schemas (every request and response schema, the file kinds)
 * was most of a cold start. Compiling is a pure function of the schema, ajv's version and its options,
 * so the code ajv generates (its `standalone` output) is kept under the temporary directory, keyed by
 * a hash of those, the way engine/load/source.ts keeps parsed YAML. A later process evaluates that code
 * and never loads ajv's compiler at all. Only a schema that compiled is kept: a bad schema is compiled
 * again by every process and fails as before, so it stays a load error of its file. A cache that cannot
 * be read or written is simply not used.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Options, ValidateFunction } from 'ajv'
import type { Ajv2020 } from 'ajv/dist/2020.js'

const require = createRequire(import.meta.url)
const version = (pkg: string) => (require(`${pkg}/package.json`) as { version: string }).version
/** Where the generated code is kept, beside the YAML cache. @api private */
export const CACHE_DIR = join(tmpdir(), 'rules-as-code-ajv')
// The generated code calls ajv's runtime and ajv-formats' checks: both versions are part of the key.
const GENERATOR = `ajv ${version('ajv')} ajv-formats ${version('ajv-formats')} draft 2020-12`

/** A compiler of schemas into validators, cached on disk. @api public */
export interface SchemaCompiler {
  /** The validator of `schema`; throws as ajv does when the schema is bad. */
  compile<T = unknown>(schema: object): ValidateFunction<T>
}

/** How many validators were found in the cache and how many were compiled (for the bench and tests). @api private */
export const cacheStats = { hits: 0, compiled: 0 }

/**
 * A compiler with these ajv options; `formats` names the ajv-formats formats to add (they change the
 * generated code, so they are part of the key). ajv itself is loaded only at the first miss.
 * @api public
 */
export function schemaCompiler(options: Options, formats: string[] = [], dir = CACHE_DIR): SchemaCompiler {
  const settings = JSON.stringify({ options, formats })
  let ajv: Ajv2020 | undefined
  const compiler = (): Ajv2020 => {
    if (ajv) return ajv
    const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')
    ajv = new Ajv2020({ ...options, code: { ...options.code, source: true } })
    if (formats.length > 0) (require('ajv-formats') as { default: (ajv: Ajv2020, formats: string[]) => unknown }).default(ajv, formats)
    return ajv
  }
  return {
    compile<T>(schema: object): ValidateFunction<T> {
      const file = join(dir, `${createHash('sha256').update(GENERATOR).update('\0').update(settings).update('\0').update(JSON.stringify(schema)).digest('hex')}.cjs`)
      const compiled = () => {
        const validate = compiler().compile<T>(schema)
        cacheStats.compiled++
        writeCached(file, dir, compiler(), validate as ValidateFunction)
        return validate
      }
      if (existsSync(file)) {
        cacheStats.hits++
        return deferred<T>(file, compiled)
      }
      return compiled()
    },
  }
}

/**
 * A cached validator made into a function when first called: a schema found in the cache compiled
 * cleanly before, so nothing is checked by making it now, and the catalog holds many validators a
 * process may never call (every response schema, requests it never receives).
 * A damaged file is compiled again from the schema instead.
 */
function deferred<T>(file: string, compile: () => ValidateFunction<T>): ValidateFunction<T> {
  let real: ValidateFunction<T> | undefined
  const validate = ((data: unknown, context?: unknown) => {
    real ??= evaluated<T>(file) ?? compile()
    const ok = (real as (data: unknown, context?: unknown) => boolean)(data, context)
    validate.errors = real.errors
    return ok
  }) as ValidateFunction<T>
  validate.errors = null
  return validate
}

function evaluated<T>(file: string): ValidateFunction<T> | undefined {
  try {
    const code = readFileSync(file, 'utf8')
    // ajv's own compile ends the same way: its generated source made a function with `new Function`.
    const module = { exports: {} as unknown }
    new Function('require', 'module', 'exports', code)(require, module, module.exports)
    const validate = module.exports as ValidateFunction<T>
    return typeof validate === 'function' ? validate : undefined
  } catch {
    // A file gone or damaged since the load: compile again, which writes it anew.
    return undefined
  }
}

function writeCached(file: string, dir: string, ajv: Ajv2020, validate: ValidateFunction): void {
  try {
    const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default
    const code = standaloneCode(ajv, validate)
    mkdirSync(dir, { recursive: true })
    const partial = `${file}.${process.pid}.tmp`
    writeFileSync(partial, code)
    renameSync(partial, file)
  } catch {
    // A read-only or full temporary directory, or code ajv cannot write standalone: the next start compiles again.
  }
}
