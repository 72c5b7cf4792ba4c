/**
 * @module Loading the catalog a caller is answered from: the law (engine/load) and, on top of it,
 * every endpoint manifest under endpoints/, each checked against the rule set it answers by.
 * Any problem, in a rule, a table or a manifest, refuses the load; all of them are listed at once.
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { coverage, readLaw, refuseOnProblems, validate, yamlFiles, type Law, type LoadOptions as LawOptions } from '../engine/load/load.js'
import { schemaCompiler } from '../engine/load/validator-cache.js'
import { periodStarts } from '../engine/values/period.js'
import { endpointSchema, type EndpointFile } from './manifest-schema.js'
import { compileRequest, type Endpoint } from './request.js'

/** The law and the endpoints that answer from it. */
export interface Catalog extends Law {
  endpoints: Endpoint[]
}

export interface LoadOptions extends LawOptions {
  /** The endpoint manifests' folder (default: `endpoints/` beside the rules folder; none if absent). */
  endpointsDir?: string
}

/** Load the law and the endpoints; throws RuleLoadError listing every problem. @api public */
export function loadCatalog(options: LoadOptions): Catalog {
  const reading = readLaw(options)
  const { law, problems } = reading
  const { service, ruleSets, tables } = law
  const check = schemaCompiler({ allErrors: true, strict: false, discriminator: true }).compile<EndpointFile>(endpointSchema)
  const dir = options.endpointsDir ?? join(dirname(options.rulesDir), 'endpoints')

  const endpoints: Endpoint[] = []
  const operations = new Set<string>()
  const paths = new Set<string>()
  const files = existsSync(dir) ? yamlFiles(dir) : []
  // A slip in the YAML of a rule or table stopped the load at it: the manifests are only parsed.
  if (reading.stopped) {
    for (const file of files) reading.read(file)
    refuseOnProblems(problems)
  }
  for (const file of files) {
    const source = reading.read(file)
    if (!source) continue
    const manifest = source.data
    if (!validate(source, check, problems, [], manifest) || !reading.stamped(source)) continue
    const endpoint = compileRequest(source, manifest, ruleSets, problems, reading.currencyOf, (id) => tables.get(id))
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
    const years = endpoint.years
    if (rs && years) coverage(reading, rs, years.supported.flatMap((year) => periodStarts(year, years.period)), endpoint.operation_id)
  }
  const warnings = refuseOnProblems(problems)
  return { ...law, endpoints, warnings: [...(law.warnings ?? []), ...warnings] }
}
