/**
 * @module The registry of sources (tables/sources.yaml): each page or publication the rules and
 * tables cite, written once under a key, and the references that name it by that key.
 *
 * A reference is one of: a key (`reference: nj_dol_minimum_wage`); a key with a pinpoint
 * (`{ source: key, section: "(b)(1)" }`) or with the pinpoint's own name (`{ source: key, title }`);
 * or, for a source cited once, a title and address written out (`{ title, href }`). At load every
 * keyed reference is replaced by the `{ title, href }` it stands for, so the compiler and the
 * answer see one form; an unknown key is a problem where it is written. One address has one key:
 * a second key for it is refused, and an address written out where the registry holds it is a
 * warning naming the key to write instead.
 */
import type { Problem } from '../errors.js'
import type { PathSegment, SourceFile } from './source.js'

/** One entry of the registry. @api private */
export interface RegisteredSource {
  title: string
  href: string
  publisher?: string
  retrieved?: string
}

/** The sources by key, and the key of each address. @api private */
export interface Registry {
  sources: Map<string, RegisteredSource>
  byAddress: Map<string, string>
  /** Where the registry was read from, as problems name it. */
  file?: string
  /** The keys some reference named: a key no one names is a warning, so the registry holds only what is cited. */
  used: Set<string>
}

export const emptyRegistry = (): Registry => ({ sources: new Map(), byAddress: new Map(), used: new Set() })

/**
 * An address as compared for sameness: scheme and host in lower case, http as https, and no
 * trailing slash before the query or fragment. Two spellings of one page are one source. @api private
 */
export function address(href: string): string {
  const text = href.trim()
  const m = /^(https?):\/\/([^/?#]*)(.*)$/i.exec(text)
  if (!m) return text.replace(/\/+$/, '')
  const rest = m[3]!.replace(/\/+(?=[?#]|$)/, '')
  return `https://${m[2]!.toLowerCase()}${rest}`
}

/** The file's shape after its schema (schemas.ts `sourcesSchema`) passed it. */
export interface SourcesFile {
  sources: Record<string, RegisteredSource>
}

/** Read the registry its schema passed; a second key for one address is a problem at that key's href. @api private */
export function compileRegistry(source: SourceFile, data: SourcesFile, problems: Problem[]): Registry {
  const registry: Registry = { ...emptyRegistry(), file: source.file }
  for (const [key, entry] of Object.entries(data.sources)) {
    const at = address(entry.href)
    const first = registry.byAddress.get(at)
    if (first !== undefined) {
      problems.push(source.problem(['sources', key, 'href'], `${key} has the address of ${first} (${entry.href}): one address is one source with one key`))
      continue
    }
    registry.byAddress.set(at, key)
    registry.sources.set(key, entry)
  }
  return registry
}

/**
 * Keys that never hold a reference but may hold a field or input named `reference`: a result's
 * fields, a call's inputs, a table's rows and columns, an input declaration.
 */
const NOT_REFERENCES = new Set(['inputs', 'outputs', 'result', 'input', 'rows', 'columns', 'fields', 'items', 'notes'])

/** The title a pinpoint gives: a subsection follows the source's title directly, anything else after a comma. */
function pinpointed(title: string, section: string): string {
  return section.startsWith('(') ? `${title}${section}` : `${title}, ${section}`
}

/**
 * Replace every keyed reference under `node` (a rule set, or one table entry at `at`) by the
 * citation it names; unknown keys are problems, addresses the registry holds written out by hand are
 * warnings. A data set's `source` is a citation too. @api private
 */
export function resolveReferences(source: SourceFile, at: PathSegment[], node: unknown, registry: Registry, problems: Problem[], warnings: Problem[]): void {
  const one = (value: unknown, path: PathSegment[]): unknown => {
    if (typeof value === 'string') {
      const found = registry.sources.get(value)
      if (!found) {
        problems.push(source.problem(path, unknownKey(value, registry)))
        return value
      }
      registry.used.add(value)
      return { title: found.title, href: found.href }
    }
    if (value === null || typeof value !== 'object') return value
    const c = value as { source?: string; section?: string; title?: string; href?: string; note?: string }
    if (c.source === undefined) {
      const key = c.href === undefined ? undefined : registry.byAddress.get(address(c.href))
      if (key !== undefined) warnings.push(source.problem([...path, 'href'], `the address of source ${key} written out by hand: write \`source: ${key}\` (its title and address are in ${registry.file ?? 'tables/sources.yaml'})`))
      return value
    }
    const found = registry.sources.get(c.source)
    if (!found) {
      problems.push(source.problem([...path, 'source'], unknownKey(c.source, registry)))
      return value
    }
    registry.used.add(c.source)
    const title = c.title ?? (c.section === undefined ? found.title : pinpointed(found.title, c.section))
    return { title, href: found.href, ...(c.note === undefined ? {} : { note: c.note }) }
  }
  const resolve = (value: unknown, path: PathSegment[]): unknown => (Array.isArray(value) ? value.map((v, i) => one(v, [...path, i])) : one(value, path))
  const walk = (value: unknown, path: PathSegment[]) => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i]))
      return
    }
    if (value === null || typeof value !== 'object') return
    const record = value as Record<string, unknown>
    const dataset = record.kind === 'dataset'
    for (const [key, v] of Object.entries(record)) {
      if (key === 'reference' || (dataset && key === 'source')) record[key] = resolve(v, [...path, key])
      else if (!NOT_REFERENCES.has(key)) walk(v, [...path, key])
    }
  }
  walk(node, at)
}

function unknownKey(key: string, registry: Registry): string {
  return `unknown source '${key}': ${registry.file ?? 'tables/sources.yaml'} has no such key`
}
