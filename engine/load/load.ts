/**
 * @module Loading the law: every YAML file under rules/ and tables/, read once at start-up,
 * validated against its JSON Schema, compiled, and cross-checked. Any problem refuses the load.
 * What callers may ask of it (endpoint manifests) is loaded on top by service/load.ts.
 *
 * The path is the identifier: `rules/estate/state/ny.yaml` is rule set `estate.state.ny`, and its
 * tables are the entries of `tables/estate/state/ny.yaml`, named there without a prefix.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mergeOutputs } from './inherit.js'
import { join, relative, sep } from 'node:path'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { RuleLoadError, type Problem } from '../errors.js'
import type { Currency } from '../values/money.js'
import { rounding, type Rounding } from '../values/round.js'
import { compileRuleSet } from '../compile/rule-set.js'
import type { RuleSet } from '../model/rule-set.js'
import { ruleSetSchema, serviceSchema, sourcesSchema, tableEntrySchema, tablesSchema, type ServiceFile, type TableEntryFile, type TablesFile } from './schemas.js'
import { compileRegistry, emptyRegistry, resolveReferences, type SourcesFile } from './sources.js'
import { readYaml, type PathSegment, type SourceFile } from './source.js'
import { DATASET_CACHE_DIR, openDatasets } from '../data/store.js'
import { applyInstalled, storeFolder } from '../data/updates.js'
import { at, buildFamilies, compileEntry, type DatasetEntry, type TableEntry, type TableFamily } from '../data/tables.js'
import { schemaCompiler } from './validator-cache.js'
import { saveFormulas } from './formula-cache.js'
import { reachable } from '../check/reach.js'
import { libraryFunction } from '../functions/index.js'
import type { ValueType } from '../functions/spec.js'
import { typeRuleSet } from '../check/rule-set-types.js'

/** rules/service.yaml: the formula version, tier, suites, currencies, roundings and work limits. */
export type Service = ServiceFile

/** The law as loaded: the service file, the compiled rule sets and the tables. */
export interface Law {
  service: Service
  ruleSets: Map<string, RuleSet>
  tables: Map<string, TableEntry>
  /** The tables files of each folder as a family (tables.ts `buildFamilies`). */
  families?: Map<string, TableFamily>
  /**
   * What the rule check reports without refusing the load: an address the registry of sources holds
   * written out by hand, a source no one cites, a formula over the length an analyst reads.
   */
  warnings?: Problem[]
}

/** A load's law with the problems found so far, for a loader that adds files on top (service/load.ts). */
export interface LawReading {
  law: Law
  problems: Problem[]
  /** Read a YAML file, its syntax problems recorded. */
  read: (file: string) => SourceFile | undefined
  /** Whether a file carries the service's formula version (a problem recorded if not). */
  stamped: (source: SourceFile) => boolean
  /** The service's currency of a code (its default when none is given), if the service declares it. */
  currencyOf: (code?: string) => Currency | undefined
  /** Where a table was written, to place a problem about it. */
  sourceOf: (entry: TableEntry) => SourceFile | undefined
  /** A file did not parse: the load stopped at its syntax problems, and `law` is empty. */
  stopped?: boolean
}

export interface LoadOptions {
  rulesDir: string
  tablesDir: string
  /** Where the data set store is built and shared (default: a folder in the system's temporary directory). */
  dataCacheDir?: string
  /** Where `npm run data -- update` installs newer copies of data sets (data/updates.ts); none: the shipped files. */
  datasetsDir?: string
}

/** Every YAML file under a folder, in name order. @api public */
export function yamlFiles(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name)
      if (statSync(full).isDirectory()) walk(full)
      else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(full)
    }
  }
  walk(dir)
  return out
}

/** `rules/estate/state/ny.yaml` under `rules/` is `estate.state.ny`. */
function idOf(dir: string, file: string): string {
  return relative(dir, file).replace(/\.ya?ml$/, '').split(sep).join('.')
}

function pathOf(instancePath: string): PathSegment[] {
  return instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

function prefix(at: PathSegment[], message: string): string {
  if (at.length === 0) return message
  const where = at.join('.')
  return /^[a-z_0-9.-]+: /i.test(message) ? `${where}.${message}` : `${where}: ${message}`
}

function describeAjv(e: ErrorObject): string {
  const where = e.instancePath ? `${e.instancePath.slice(1).replace(/\//g, '.')}: ` : ''
  switch (e.keyword) {
    case 'additionalProperties':
      return `${where}unknown key '${String(e.params.additionalProperty)}'`
    case 'required':
      return `${where}missing required key '${String(e.params.missingProperty)}'`
    case 'enum':
      return `${where}must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`
    case 'anyOf':
      if (/\/(reference|source)(\/\d+)?$/.test(e.instancePath)) return `${where}must be a source key, { source, section }, { title, href }, or a list of these`
      return `${where}must be a string such as "0.16" or "15_000_000" (a bare YAML number would be a binary float), or text, or true/false`
    case 'pattern':
      return `${where}${e.message ?? 'bad format'} (write amounts as strings such as "15_000_000", "0.16" or "2/37")`
    default:
      return `${where}${e.message ?? e.keyword}`
  }
}

/** Validate a file (or part of one) against its schema, recording each problem at its place. @api public */
export function validate<T>(source: SourceFile, check: ValidateFunction<T>, problems: Problem[], at: PathSegment[], data: unknown): data is T {
  if (check(data)) return true
  // oneOf reports each branch; keep the errors of the deepest path, which name the real mistake.
  const errors = check.errors ?? []
  const seen = new Set<string>()
  for (const e of errors) {
    if (e.keyword === 'oneOf' && errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath))) continue
    // An anyOf speaks for its branches: say it once, not once per branch.
    if (e.keyword !== 'anyOf' && errors.some((o) => o.keyword === 'anyOf' && o.instancePath === e.instancePath)) continue
    const message = prefix(at, describeAjv(e))
    if (seen.has(message)) continue
    seen.add(message)
    const path = [...at, ...pathOf(e.instancePath)]
    if (e.keyword === 'additionalProperties') path.push(String(e.params.additionalProperty))
    problems.push(source.problem(path, message))
  }
  return false
}

/** Load, validate and compile every rule and table file; throws RuleLoadError listing every problem. @api public */
export function loadLaw(options: LoadOptions): Law {
  const { law, problems } = readLaw(options)
  const warnings = refuseOnProblems(problems)
  return { ...law, warnings: [...(law.warnings ?? []), ...warnings] }
}

/**
 * Throws RuleLoadError listing every problem once, if there is any (a warning is none); keeps the
 * parsed formulas for the next process. Returns the warnings, each once. @api public
 */
export function refuseOnProblems(problems: Problem[]): Problem[] {
  // The formulas this load parsed are kept for the next process (formula-cache.ts).
  saveFormulas()
  const warnings = dedupe(problems.filter((p) => p.warning))
  if (errors(problems) > 0) throw new RuleLoadError(dedupe(problems.filter((p) => !p.warning)), warnings)
  return warnings
}

/** How many of the problems stop the load (a warning does not). */
function errors(problems: Problem[]): number {
  return problems.reduce((n, p) => (p.warning ? n : n + 1), 0)
}

/** Read the law, recording problems rather than throwing, for a loader that adds files on top. @api public */
export function readLaw(options: LoadOptions): LawReading {
  // The file kinds' validators come from the on-disk cache of compiled schemas when their schemas are unchanged.
  const ajv = schemaCompiler({ allErrors: true, strict: false, discriminator: true })
  const validators = {
    // Each file's TypeScript type is derived from its schema (schemas.ts), so what ajv passes is typed.
    tables: ajv.compile<TablesFile>(tablesSchema),
    table_entry: ajv.compile<TableEntryFile>(tableEntrySchema),
    rule_set: ajv.compile(ruleSetSchema),
    service: ajv.compile<ServiceFile>(serviceSchema),
    sources: ajv.compile<SourcesFile>(sourcesSchema),
  }
  const problems: Problem[] = []
  const rel = (f: string) => relative(process.cwd(), f) || f

  // Each file read once per load, its syntax problems recorded once.
  const sources = new Map<string, SourceFile | undefined>()
  const read = (file: string) => {
    if (sources.has(file)) return sources.get(file)
    const { source, problems: syntax } = readYaml(rel(file))
    problems.push(...syntax)
    sources.set(file, source)
    return source
  }

  // One slip in one file's YAML is one problem: a file that does not parse is read before anything
  // is compiled, and the load stops there, rather than reporting each table it held as unknown to
  // every rule that reads it (eight to eleven problems for one missing quote).
  for (const file of [...yamlFiles(options.rulesDir), ...yamlFiles(options.tablesDir)]) read(file)
  if (problems.length > 0) {
    const law: Law = { service: { formula_version: '', kind: 'service', tier: 'beta', currencies: {}, default_currency: '', limits: { steps: 0, milliseconds: 0 }, suites: {} }, ruleSets: new Map(), tables: new Map() }
    return { law, problems, read, stamped: () => false, currencyOf: () => undefined, sourceOf: () => undefined, stopped: true }
  }

  // The service file fixes the formula version every other file is stamped with.
  const serviceFile = join(options.rulesDir, 'service.yaml')
  const serviceSource = read(serviceFile)
  let service: Service = { formula_version: '', kind: 'service', tier: 'beta', currencies: {}, default_currency: '', limits: { steps: 0, milliseconds: 0 }, suites: {} }
  if (serviceSource && validate(serviceSource, validators.service, problems, [], serviceSource.data)) {
    service = serviceSource.data
    if (!Object.hasOwn(service.currencies, service.default_currency)) {
      problems.push(serviceSource.problem(['default_currency'], `default_currency ${service.default_currency} is not one of the currencies: ${Object.keys(service.currencies).join(', ')}`))
    }
  }
  const currencyOf = (code = service.default_currency): Currency | undefined =>
    Object.hasOwn(service.currencies, code) ? { code, ...service.currencies[code]! } : undefined

  const stamped = (source: SourceFile) => {
    const v = (source.data as { formula_version?: unknown }).formula_version
    if (v !== service.formula_version) {
      problems.push(source.problem(['formula_version'], `formula_version ${JSON.stringify(v)} does not match the service's ${JSON.stringify(service.formula_version)} (rules/service.yaml)`))
      return false
    }
    return true
  }

  // The registry of sources comes first: tables and rules name its entries by key.
  const warnings: Problem[] = []
  const sourcesFile = join(options.tablesDir, 'sources.yaml')
  let registry = emptyRegistry()
  const sourcesSource = existsSync(sourcesFile) ? read(sourcesFile) : undefined
  if (sourcesSource && validate(sourcesSource, validators.sources, problems, [], sourcesSource.data) && stamped(sourcesSource)) {
    registry = compileRegistry(sourcesSource, sourcesSource.data, problems)
  }

  const tables = new Map<string, TableEntry>()
  const tableSources = new Map<TableEntry, SourceFile>()
  for (const file of yamlFiles(options.tablesDir)) {
    if (file === sourcesFile) continue
    const source = read(file)
    if (!source) continue
    const data = source.data
    if (!validate(source, validators.tables, problems, [], data) || !stamped(source)) continue
    const fileId = idOf(options.tablesDir, file)
    for (const [name, raw] of Object.entries(data.tables)) {
      if (!validate(source, validators.table_entry, problems, ['tables', name], raw)) continue
      resolveReferences(source, ['tables', name], raw, registry, problems, warnings)
      const entry = compileEntry(source, fileId, name, raw, data.as_of, problems)
      if (tables.has(entry.id)) problems.push(source.problem(['tables', name], `duplicate table id ${entry.id}`))
      tables.set(entry.id, entry)
      tableSources.set(entry, source)
    }
  }

  // Data sets: their rows checked and imported once into the shared store, or the store opened.
  const datasets = [...tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset')
  for (const d of datasets) applyInstalled(d, options.datasetsDir)
  const files = datasets.map((d) => ({ id: d.id, descriptor: d.descriptor, path: d.path, shown: d.file_shown }))
  const missing = files.filter((f) => !existsSync(f.path))
  for (const f of missing) problems.push(tableSources.get(tables.get(f.id)!)!.problem(['tables', tables.get(f.id)!.name, 'file'], `no data file at ${f.shown}`))
  if (missing.length === 0) {
    const stores = openDatasets(files, options.dataCacheDir ?? DATASET_CACHE_DIR, problems, options.datasetsDir ? [storeFolder(options.datasetsDir)] : [])
    for (const d of datasets) {
      const store = stores.get(d.id)
      if (store) d.store = store
    }
  }

  const families = buildFamilies(tables)

  const shared = new Map<string, Rounding>()
  const sharedRaw = (serviceSource?.data as { roundings?: Record<string, { step: string; mode: Rounding['mode'] }> } | undefined)?.roundings
  for (const [name, r] of Object.entries(sharedRaw ?? {})) shared.set(name, rounding(r.step, r.mode))

  const ruleSources = new Map<string, SourceFile>()
  for (const file of yamlFiles(options.rulesDir)) {
    if (file === serviceFile) continue
    const source = read(file)
    if (!source) continue
    const kind = (source.data as { kind?: unknown } | null)?.kind
    if (kind !== 'rule_set') {
      const where = kind === 'endpoint' ? ': endpoint manifests live in endpoints/, not rules/' : ' (rules/service.yaml is the service file)'
      problems.push(source.problem(['kind'], `kind must be rule_set${where}`))
      continue
    }
    if (!validate(source, validators.rule_set, problems, [], source.data) || !stamped(source)) continue
    resolveReferences(source, [], source.data, registry, problems, warnings)
    const id = idOf(options.rulesDir, file)
    if (ruleSources.has(id)) problems.push(source.problem([], `duplicate rule set id ${id}`))
    else ruleSources.set(id, source)
  }
  // A rule set may take its input declarations (and its calculation date) from another: one
  // contract for many states.
  for (const source of ruleSources.values()) {
    const data = source.data as { inputs_like?: string; inputs?: Record<string, unknown>; date?: unknown }
    if (!data.inputs_like) continue
    const like = ruleSources.get(data.inputs_like)?.data as { inputs?: Record<string, unknown>; inputs_like?: string; date?: unknown } | undefined
    if (!like) problems.push(source.problem(['inputs_like'], `unknown rule set ${data.inputs_like}`))
    else if (like.inputs_like) problems.push(source.problem(['inputs_like'], `${data.inputs_like} itself takes its inputs from another rule set; name that one`))
    else {
      data.inputs = { ...like.inputs, ...data.inputs }
      // The calculation date comes with the inputs it is read from.
      if (data.date === undefined && like.date !== undefined) data.date = like.date
    }
  }
  // And the shape of its result: one shape for every state, each writing only what differs.
  for (const source of ruleSources.values()) {
    const data = source.data as { outputs_like?: string; outputs?: Record<string, unknown> }
    if (!data.outputs_like) continue
    const like = ruleSources.get(data.outputs_like)?.data as { outputs?: Record<string, unknown>; outputs_like?: string } | undefined
    if (!like) problems.push(source.problem(['outputs_like'], `unknown rule set ${data.outputs_like}`))
    else if (like.outputs_like) problems.push(source.problem(['outputs_like'], `${data.outputs_like} itself takes its outputs from another rule set; name that one`))
    else data.outputs = mergeOutputs(like.outputs ?? {}, data.outputs ?? {})
  }
  const ruleSets = new Map<string, RuleSet>()
  const clean = new Set<string>()
  const tableResolver = (id: string) => (name: string) => tables.get(`${id}.${name}`) ?? tables.get(name)
  for (const [id, source] of ruleSources) {
    const before = errors(problems)
    ruleSets.set(id, compileRuleSet(source, id, tableResolver(id), problems, shared))
    if (errors(problems) === before) clean.add(id)
  }
  // Types are checked on the rule sets that compiled cleanly (an unknown name is reported once), a
  // called rule set before its callers, so that a caller reads the fields its callee gives.
  const outputs = new Map<string, ValueType>()
  const typeOf = (id: string): ValueType => {
    const known = outputs.get(id)
    if (known) return known
    const rs = ruleSets.get(id)
    if (!rs || !clean.has(id)) return { record: 'open' }
    outputs.set(id, { record: 'open' }) // a cycle of calls reads an open record
    const { problems: found, output, formulas } = typeRuleSet(rs, tableResolver(id), libraryFunction, typeOf, families)
    for (const p of found) problems.push(ruleSources.get(id)!.problem(p.path, p.message, p.index))
    outputs.set(id, output)
    rs.outputType = output
    rs.formulaTypes = formulas
    return output
  }
  for (const id of ruleSets.keys()) typeOf(id)

  // A call names an existing rule set, or a template whose fallback exists.
  for (const rs of ruleSets.values()) {
    for (const call of rs.calls) {
      const templated = call.target.includes('{')
      const source = { file: rs.file }
      if (!templated && !ruleSets.has(call.target)) problems.push(locate(source, call.path, `calls unknown rule set ${call.target}`))
      if (templated && (!call.fallback || !ruleSets.has(call.fallback))) {
        problems.push(locate(source, call.path, `a templated call (${call.target}) needs a fallback rule set that exists`))
      }
    }
  }

  if (sourcesSource) {
    for (const key of registry.sources.keys()) if (!registry.used.has(key)) warnings.push(sourcesSource.problem(['sources', key], `source ${key} is cited by no rule or table`))
  }

  const law: Law = { service, ruleSets, tables, families, warnings: dedupe(warnings) }
  return { law, problems, read, stamped, currencyOf, sourceOf: (entry) => tableSources.get(entry) }
}

function locate(source: { file: string }, path: PathSegment[], message: string): Problem {
  const { source: s } = readYaml(source.file)
  return s ? s.problem(path, message) : { file: source.file, line: 1, column: 1, message }
}

/**
 * A parameter with no value on a date a caller covers (an endpoint's supported years) is a load
 * problem: every table the rule set may reach must be in force on each of the dates. @api public
 */
export function coverage(reading: LawReading, rs: RuleSet, dates: string[], coveredBy: string): void {
  for (const date of dates) {
    for (const other of reachable(rs, reading.law.ruleSets)) {
      for (const entry of other.tables) {
        if (entry.kind === 'series' || entry.kind === 'dataset') continue
        if (!at<unknown>(entry.history, date)) {
          const source = reading.sourceOf(entry)!
          reading.problems.push(source.problem(['tables', entry.name, 'values'], `${entry.id} has no value in force on ${date}, which ${coveredBy} covers (read by ${other.id})`))
        }
      }
    }
  }
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>()
  return problems.filter((p) => {
    const key = `${p.file}:${p.line}:${p.column}: ${p.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
