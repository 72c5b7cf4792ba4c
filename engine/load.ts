/**
 * @module Loading the catalog: every YAML file under rules/ and tables/, read once at start-up,
 * validated against its JSON Schema, compiled, and cross-checked. Any problem refuses the load.
 *
 * The path is the identifier: `rules/estate/state/ny.yaml` is rule set `estate.state.ny`, and its
 * tables are the entries of `tables/estate/state/ny.yaml`, named there without a prefix.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mergeOutputs } from './inherit.js'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { RuleLoadError, type Problem } from './errors.js'
import type { Currency } from './money.js'
import { periodStarts } from './period.js'
import { rounding, type Rounding } from './round.js'
import { compileRuleSet, type RuleSet } from './ruleset.js'
import { endpointSchema, ruleSetSchema, serviceSchema, tableEntrySchema, tablesSchema, type EndpointFile, type ServiceFile, type TableEntryFile, type TablesFile } from './schemas.js'
import { readYaml, type PathSegment, type SourceFile } from './source.js'
import { openDatasets } from './data/store.js'
import { at, buildFamilies, compileEntry, type DatasetEntry, type TableEntry, type TableFamily } from './tables.js'
import { compileRequest, type Endpoint } from './request.js'
import { schemaCompiler } from './validator-cache.js'
import { saveFormulas } from './formula-cache.js'
import { reachable } from './reach.js'
import { libraryFunction } from './functions/index.js'
import type { ValueType } from './functions/spec.js'
import { typeRuleSet } from './typing.js'

/** rules/service.yaml: the formula version, tier, currencies, roundings and work limits. */
export type Service = ServiceFile

export interface Catalog {
  service: Service
  ruleSets: Map<string, RuleSet>
  tables: Map<string, TableEntry>
  endpoints: Endpoint[]
  /** The tables files of each folder as a family (tables.ts `buildFamilies`). */
  families?: Map<string, TableFamily>
  /** What the load reports without refusing it (a formula over the length an analyst reads). */
  warnings?: Problem[]
}

export interface LoadOptions {
  rulesDir: string
  tablesDir: string
  /** Where the data set store is built and shared (default: a folder in the system's temporary directory). */
  dataCacheDir?: string
}

function yamlFiles(dir: string): string[] {
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
      return `${where}must be a string such as "0.16" or "15_000_000" (a bare YAML number would be a binary float), or text, or true/false`
    case 'pattern':
      return `${where}${e.message ?? 'bad format'} (write amounts as strings such as "15_000_000", "0.16" or "2/37")`
    default:
      return `${where}${e.message ?? e.keyword}`
  }
}

function validate<T>(source: SourceFile, check: ValidateFunction<T>, problems: Problem[], at: PathSegment[], data: unknown): data is T {
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
export function loadCatalog(options: LoadOptions): Catalog {
  // The file kinds' validators come from the on-disk cache of compiled schemas when their schemas are unchanged.
  const ajv = schemaCompiler({ allErrors: true, strict: false, discriminator: true })
  const validators = {
    // Each file's TypeScript type is derived from its schema (schemas.ts), so what ajv passes is typed.
    tables: ajv.compile<TablesFile>(tablesSchema),
    table_entry: ajv.compile<TableEntryFile>(tableEntrySchema),
    rule_set: ajv.compile(ruleSetSchema),
    endpoint: ajv.compile<EndpointFile>(endpointSchema),
    service: ajv.compile<ServiceFile>(serviceSchema),
  }
  const problems: Problem[] = []
  const rel = (f: string) => relative(process.cwd(), f) || f

  const read = (file: string) => {
    const { source, problems: syntax } = readYaml(rel(file))
    problems.push(...syntax)
    return source
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

  const tables = new Map<string, TableEntry>()
  const tableSources = new Map<TableEntry, SourceFile>()
  for (const file of yamlFiles(options.tablesDir)) {
    const source = read(file)
    if (!source) continue
    const data = source.data
    if (!validate(source, validators.tables, problems, [], data) || !stamped(source)) continue
    const fileId = idOf(options.tablesDir, file)
    for (const [name, raw] of Object.entries(data.tables)) {
      if (!validate(source, validators.table_entry, problems, ['tables', name], raw)) continue
      const entry = compileEntry(source, fileId, name, raw, data.as_of, problems)
      if (tables.has(entry.id)) problems.push(source.problem(['tables', name], `duplicate table id ${entry.id}`))
      tables.set(entry.id, entry)
      tableSources.set(entry, source)
    }
  }

  // Data sets: their rows checked and imported once into the shared store, or the store opened.
  const datasets = [...tables.values()].filter((t): t is DatasetEntry => t.kind === 'dataset')
  const files = datasets.map((d) => ({ id: d.id, descriptor: d.descriptor, path: d.path, shown: d.file_shown }))
  const missing = files.filter((f) => !existsSync(f.path))
  for (const f of missing) problems.push(tableSources.get(tables.get(f.id)!)!.problem(['tables', tables.get(f.id)!.name, 'file'], `no data file at ${f.shown}`))
  if (missing.length === 0) {
    const stores = openDatasets(files, options.dataCacheDir ?? join(tmpdir(), 'rules-as-code-datasets'), problems)
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
  const endpointSources: { source: SourceFile; manifest: EndpointFile }[] = []
  for (const file of yamlFiles(options.rulesDir)) {
    if (file === serviceFile) continue
    const source = read(file)
    if (!source) continue
    const kind = (source.data as { kind?: unknown } | null)?.kind
    if (kind === 'endpoint') {
      const manifest = source.data
      if (validate(source, validators.endpoint, problems, [], manifest) && stamped(source)) endpointSources.push({ source, manifest })
      continue
    }
    if (kind !== 'rule_set') {
      problems.push(source.problem(['kind'], `kind must be rule_set or endpoint (rules/service.yaml is the service file)`))
      continue
    }
    if (!validate(source, validators.rule_set, problems, [], source.data) || !stamped(source)) continue
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
    const { problems: found, output } = typeRuleSet(rs, tableResolver(id), libraryFunction, typeOf, families)
    for (const p of found) problems.push(ruleSources.get(id)!.problem(p.path, p.message, p.index))
    outputs.set(id, output)
    rs.outputType = output
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

  const endpoints: Endpoint[] = []
  const operations = new Set<string>()
  const paths = new Set<string>()
  for (const { source, manifest } of endpointSources) {
    const endpoint = compileRequest(source, manifest, ruleSets, problems, currencyOf, (id) => tables.get(id))
    if (!endpoint) continue
    if (!Object.hasOwn(service.suites, endpoint.suite)) problems.push(source.problem(['suite'], `unknown suite ${endpoint.suite}; the suites are ${Object.keys(service.suites).join(', ')} (rules/service.yaml)`))
    if (operations.has(endpoint.operation_id)) problems.push(source.problem(['operation_id'], `duplicate operation id ${endpoint.operation_id}`))
    operations.add(endpoint.operation_id)
    for (const p of endpoint.paths) {
      if (paths.has(p)) problems.push(source.problem(['paths'], `path ${p} is already served by another endpoint`))
      paths.add(p)
    }
    endpoints.push(endpoint)
    const rs = ruleSets.get(endpoint.rule_set)
    if (rs && endpoint.years) coverage(rs, endpoint, ruleSets, tableSources, problems)
  }

  // The formulas this load parsed are kept for the next process (engine/formula-cache.ts).
  saveFormulas()
  const warnings = dedupe(problems.filter((p) => p.warning))
  if (errors(problems) > 0) throw new RuleLoadError(dedupe(problems.filter((p) => !p.warning)), warnings)
  return { service, ruleSets, tables, endpoints, families, warnings }
}

/** How many of the problems stop the load (a warning does not). */
function errors(problems: Problem[]): number {
  return problems.reduce((n, p) => (p.warning ? n : n + 1), 0)
}

function locate(source: { file: string }, path: PathSegment[], message: string): Problem {
  const { source: s } = readYaml(source.file)
  return s ? s.problem(path, message) : { file: source.file, line: 1, column: 1, message }
}

/** A parameter with no value on a date the endpoint covers is a load error. */
function coverage(
  rs: RuleSet,
  endpoint: Endpoint,
  ruleSets: Map<string, RuleSet>,
  tableSources: Map<TableEntry, SourceFile>,
  problems: Problem[],
) {
  const dates = endpoint.years!.supported.flatMap((year) => periodStarts(year, endpoint.years!.period))
  for (const date of dates) {
    for (const other of reachable(rs, ruleSets)) {
      for (const entry of other.tables) {
        if (entry.kind === 'series' || entry.kind === 'dataset') continue
        if (!at<unknown>(entry.history, date)) {
          const source = tableSources.get(entry)!
          problems.push(source.problem(['tables', entry.name, 'values'], `${entry.id} has no value in force on ${date}, which ${endpoint.operation_id} covers (read by ${other.id})`))
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
