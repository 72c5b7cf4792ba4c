/**
 * @module Matcher evaluation: run the shared entity matcher (entity_match, engine/functions/matching.ts,
 * with the words of tables/matching/entity.yaml) on every labelled name pair of
 * test/fixtures/matching/labelled_pairs.csv and report precision, recall and F1 at the thresholds the
 * YAML sets and over a sweep of thresholds, with the pairs the matcher gets wrong at the match threshold.
 *
 *   node dist/tools/matcher-evaluation.js           print the measurement
 *   node dist/tools/matcher-evaluation.js --write   also replace the marked block of docs/decisions/compliance_data.md
 *                                                   (<!-- matcher-evaluation:start --> … end)
 *
 * A second, separate set, test/fixtures/matching/typed_queries.csv, holds names as people type them
 * (typos, abbreviations, legal forms, word order, joined names, parents, short names, generic words,
 * well-known firms absent from the data), each searched with entity_search in the data set it names
 * (the FDA warning letters or the Maryland directory) as the endpoints search: recall of "match or
 * possible match", precision of confident matches and top-1. The thresholds were never tuned on it.
 * Both measurements go to the marked block of docs/decisions/compliance_data.md, and the headline
 * figures to the marked block of RULES.md (<!-- matcher-figures:start --> … end).
 *
 * The pairs and queries are labelled evaluation fixtures (names from the real records of the data sets,
 * or well-known firms absent from them, each label with its reason), not data: no answer of the service reads them.
 */
import { answerHelp } from './help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'csv-parse/sync'
import { Dec } from '../engine/values/decimal.js'
import { compileExpression } from '../engine/compile/expression.js'
import { loadCatalog, type Catalog } from '../service/index.js'
import { ROOT } from '../service/project/paths.js'
import type { LookupEntry, ParameterEntry, TableEntry } from '../engine/data/tables.js'
import type { Runtime, Value } from '../engine/model/types.js'
import { entitySearch } from '../engine/functions/matching.js'

answerHelp(import.meta.url)

export const PAIRS_FILE = join('test', 'fixtures', 'matching', 'labelled_pairs.csv')
export const TYPED_FILE = join('test', 'fixtures', 'matching', 'typed_queries.csv')
export const FIGURES_START = '<!-- matcher-figures:start -->'
export const FIGURES_END = '<!-- matcher-figures:end -->'
/** The data sets a typed query names: the file of its rows and the column of the name searched. */
export const DATA_SETS: Record<string, { file: string; column: string }> = {
  fda_warning_letters: { file: join('tables', 'fda', 'warning_letters', 'letters.csv'), column: 'company' },
  md_mdot_directory: { file: join('tables', 'supplier_diversity', 'md_mdot_directory', 'firms.csv'), column: 'firm_name' },
}
export const KINDS = ['typo', 'abbreviation', 'form', 'order', 'joined', 'parent', 'short', 'generic_negative', 'absent'] as const
export const BLOCK_START = '<!-- matcher-evaluation:start -->'
export const BLOCK_END = '<!-- matcher-evaluation:end -->'
/** The sweep's thresholds: 0.70 to 0.98 by 0.02. */
export const SWEEP: string[] = Array.from({ length: 15 }, (_, i) => (0.7 + i * 0.02).toFixed(2))

export interface LabelledPair {
  name_a: string
  name_b: string
  label: 'match' | 'non_match'
  source_a: string
  source_b: string
  reason: string
}

export interface ScoredPair extends LabelledPair {
  confidence: Dec
}

export interface Measure {
  threshold: string
  tp: number
  fp: number
  fn: number
  tn: number
  precision: string
  recall: string
  f1: string
}

export interface Evaluation {
  pairs: number
  matches: number
  nonMatches: number
  matchThreshold: string
  possibleThreshold: string
  atMatch: Measure
  atPossible: Measure
  sweep: Measure[]
  /** Pairs the matcher gets wrong at the match threshold: non-matches at or above it, matches below. */
  falsePositives: ScoredPair[]
  falseNegatives: ScoredPair[]
}

export function readPairs(root: string = ROOT): LabelledPair[] {
  const rows = parse(readFileSync(join(root, PAIRS_FILE), 'utf8'), { columns: true }) as Record<string, string>[]
  return rows.map((r, i) => {
    if (r.label !== 'match' && r.label !== 'non_match') throw new Error(`${PAIRS_FILE} row ${i + 2}: label must be match or non_match, got ${JSON.stringify(r.label)}`)
    for (const c of ['name_a', 'name_b', 'source_a', 'source_b', 'reason'] as const) {
      if (!r[c]) throw new Error(`${PAIRS_FILE} row ${i + 2}: ${c} is empty`)
    }
    return r as unknown as LabelledPair
  })
}

/** entity_match as a rule set calls it: the expression compiled by the engine, on the catalog's words table. */
function matcher(words: LookupEntry): (a: string, b: string) => Dec {
  const tables: Record<string, TableEntry> = { words }
  const expr = compileExpression('entity_match(words, a, b).confidence', {
    hasValue: (n: string) => n === 'a' || n === 'b',
    table: (n: string) => tables[n],
  })
  return (a, b) => {
    const values: Record<string, Value> = { a, b }
    const rt = {
      get: (n: string) => values[n]!,
      // The runtime's one read path: the words table as last in force.
      read: (e: TableEntry) => (e.kind === 'lookup' ? e.history[e.history.length - 1]!.value : new Map()),
    } as unknown as Runtime
    const v = expr.run(rt)
    if (!(v instanceof Dec)) throw new Error(`entity_match gave no confidence for ${a} / ${b}`)
    return v
  }
}

const ratio = (n: number, d: number) => (d === 0 ? '-' : (n / d).toFixed(3))

function measure(scored: ScoredPair[], threshold: string): Measure {
  const t = new Dec(threshold)
  let tp = 0
  let fp = 0
  let fn = 0
  let tn = 0
  for (const p of scored) {
    const said = p.confidence.gte(t)
    if (p.label === 'match') said ? tp++ : fn++
    else said ? fp++ : tn++
  }
  const precision = ratio(tp, tp + fp)
  const recall = ratio(tp, tp + fn)
  const f1 = tp === 0 ? '0.000' : ((2 * tp) / (2 * tp + fp + fn)).toFixed(3)
  return { threshold, tp, fp, fn, tn, precision, recall, f1 }
}

function threshold(e: TableEntry | undefined, id: string): string {
  if (!e || e.kind !== 'parameter') throw new Error(`${id} is not a parameter of the catalog`)
  return new Dec(String((e as ParameterEntry).history[(e as ParameterEntry).history.length - 1]!.value)).toFixed(2)
}

/** The pairs measured; `catalog` is the project's at `root` unless a caller that has loaded it already passes it (a load is seconds). */
export function evaluateMatcher(root: string = ROOT, catalog: Catalog = loadCatalog({ rulesDir: join(root, 'rules'), tablesDir: join(root, 'tables') })): Evaluation {
  const words = catalog.tables.get('matching.entity.name_words')
  if (!words || words.kind !== 'lookup') throw new Error('matching.entity.name_words is not a lookup of the catalog')
  const matchThreshold = threshold(catalog.tables.get('matching.entity.match_threshold'), 'matching.entity.match_threshold')
  const possibleThreshold = threshold(catalog.tables.get('matching.entity.possible_match_threshold'), 'matching.entity.possible_match_threshold')
  const score = matcher(words)
  const scored = readPairs(root).map((p) => ({ ...p, confidence: score(p.name_a, p.name_b) }))
  const t = new Dec(matchThreshold)
  return {
    pairs: scored.length,
    matches: scored.filter((p) => p.label === 'match').length,
    nonMatches: scored.filter((p) => p.label === 'non_match').length,
    matchThreshold,
    possibleThreshold,
    atMatch: measure(scored, matchThreshold),
    atPossible: measure(scored, possibleThreshold),
    sweep: SWEEP.map((s) => measure(scored, s)),
    falsePositives: scored.filter((p) => p.label === 'non_match' && p.confidence.gte(t)),
    falseNegatives: scored.filter((p) => p.label === 'match' && p.confidence.lt(t)),
  }
}

export interface TypedQuery {
  query: string
  data_set: string
  /** The names of the data set that are the firm typed (spellings of one firm, or the firms a lead may list); none for a negative. */
  expected: string[]
  kind: (typeof KINDS)[number]
  reason: string
}

export interface TypedResult extends TypedQuery {
  /** The names listed (at least a possible match), best first, each once, with its confidence. */
  listed: { name: string; confidence: Dec }[]
}

export interface TypedEvaluation {
  queries: number
  positives: number
  negatives: number
  /** Positives listing an expected name, match or possible match. */
  found: number
  /** Positives whose first name listed is an expected one. */
  top1: number
  /** Confident matches (names at or above the match threshold) over all queries, and those right. */
  confident: number
  confidentRight: number
  /** Negatives listing anyone. */
  falseLeads: number
  recall: string
  top1Rate: string
  precision: string
  missed: TypedResult[]
  wrongTop: TypedResult[]
  wrongConfident: TypedResult[]
  leads: TypedResult[]
  results: TypedResult[]
}

export function readTyped(root: string = ROOT): TypedQuery[] {
  const rows = parse(readFileSync(join(root, TYPED_FILE), 'utf8'), { columns: true }) as Record<string, string>[]
  return rows.map((r, i) => {
    const at = `${TYPED_FILE} row ${i + 2}`
    if (!DATA_SETS[r.data_set!]) throw new Error(`${at}: data_set must be one of ${Object.keys(DATA_SETS).join(', ')}`)
    if (!(KINDS as readonly string[]).includes(r.kind!)) throw new Error(`${at}: kind must be one of ${KINDS.join(', ')}`)
    if (!r.query || !r.reason) throw new Error(`${at}: query and reason must be given`)
    const expected = (r.expected ?? '').split(' | ').map((e) => e.trim()).filter((e) => e !== '')
    const negative = r.kind === 'generic_negative' || r.kind === 'absent'
    if (negative !== (expected.length === 0)) throw new Error(`${at}: a ${r.kind} query ${negative ? 'expects no name' : 'names the names expected'}`)
    return { query: r.query, data_set: r.data_set!, expected, kind: r.kind as TypedQuery['kind'], reason: r.reason }
  })
}

/** Every row of a data set a typed query names, as read from its file. */
export function dataSetRows(root: string, dataSet: string): Value[] {
  return parse(readFileSync(join(root, DATA_SETS[dataSet]!.file), 'utf8'), { columns: true }) as Value[]
}

/** The names a search lists, best first (then by name), each once. */
export function listed(found: { row: Value; match: Record<string, Value> }[], column: string): { name: string; confidence: Dec }[] {
  const best = new Map<string, Dec>()
  for (const f of found) {
    const name = String((f.row as Record<string, Value>)[column])
    const c = f.match.confidence as Dec
    if (!best.has(name) || c.gt(best.get(name)!)) best.set(name, c)
  }
  return [...best.entries()]
    .map(([name, confidence]) => ({ name, confidence }))
    .sort((a, b) => b.confidence.cmp(a.confidence) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The typed queries measured; `options.catalog` as evaluateMatcher's `catalog`. */
export function evaluateTyped(root: string = ROOT, options: { scan?: boolean; catalog?: Catalog } = {}): TypedEvaluation {
  const catalog = options.catalog ?? loadCatalog({ rulesDir: join(root, 'rules'), tablesDir: join(root, 'tables') })
  const words = catalog.tables.get('matching.entity.name_words') as LookupEntry
  const rows = words.history[words.history.length - 1]!.value
  const least = new Dec(threshold(catalog.tables.get('matching.entity.possible_match_threshold'), 'possible'))
  const match = new Dec(threshold(catalog.tables.get('matching.entity.match_threshold'), 'match'))
  const sets = new Map<string, Value[]>()
  const results: TypedResult[] = readTyped(root).map((q) => {
    if (!sets.has(q.data_set)) sets.set(q.data_set, dataSetRows(root, q.data_set))
    const found = entitySearch(rows, q.query, sets.get(q.data_set)!, DATA_SETS[q.data_set]!.column, least, null, { scan: options.scan })
    return { ...q, listed: listed(found, DATA_SETS[q.data_set]!.column) }
  })
  const positives = results.filter((r) => r.expected.length > 0)
  const negatives = results.filter((r) => r.expected.length === 0)
  const missed = positives.filter((r) => !r.listed.some((l) => r.expected.includes(l.name)))
  const wrongTop = positives.filter((r) => r.listed.length === 0 || !r.expected.includes(r.listed[0]!.name))
  let confident = 0
  let confidentRight = 0
  const wrongConfident: TypedResult[] = []
  for (const r of results) {
    const sure = r.listed.filter((l) => l.confidence.gte(match))
    confident += sure.length
    const right = sure.filter((l) => r.expected.includes(l.name)).length
    confidentRight += right
    if (right < sure.length) wrongConfident.push(r)
  }
  const leads = negatives.filter((r) => r.listed.length > 0)
  return {
    queries: results.length,
    positives: positives.length,
    negatives: negatives.length,
    found: positives.length - missed.length,
    top1: positives.length - wrongTop.length,
    confident,
    confidentRight,
    falseLeads: leads.length,
    recall: ratio(positives.length - missed.length, positives.length),
    top1Rate: ratio(positives.length - wrongTop.length, positives.length),
    precision: ratio(confidentRight, confident),
    missed,
    wrongTop,
    wrongConfident,
    leads,
    results,
  }
}

const listedText = (r: TypedResult) => (r.listed.length === 0 ? 'nothing listed' : r.listed.slice(0, 3).map((l) => `"${l.name}" ${l.confidence.toFixed(4)}`).join(', '))
const typedLine = (r: TypedResult) => `  - "${r.query}" (${r.kind}): ${listedText(r)}`

/** The typed-query part of the block. */
export function renderTyped(t: TypedEvaluation): string {
  return [
    `Typed queries: the ${t.queries} names of \`${TYPED_FILE}\` (${t.positives} naming a firm of the data set, ${t.negatives} that should list no one),`,
    'each searched with entity_search in its data set at the possible-match threshold, as the endpoints search; never used to tune a threshold.',
    '',
    '| measure | value |',
    '|---|---|',
    `| recall (match or possible match lists the firm) | ${t.recall} (${t.found} of ${t.positives}) |`,
    `| precision of confident matches | ${t.precision} (${t.confidentRight} of ${t.confident}) |`,
    `| top-1 (the firm listed first) | ${t.top1Rate} (${t.top1} of ${t.positives}) |`,
    `| negatives listing anyone | ${t.falseLeads} of ${t.negatives} |`,
    '',
    `Firms not listed (${t.missed.length}):`,
    ...(t.missed.length > 0 ? t.missed.map(typedLine) : ['  - none']),
    '',
    `Listed, but another name first (${t.wrongTop.length - t.missed.length}):`,
    ...(t.wrongTop.filter((r) => !t.missed.includes(r)).length > 0 ? t.wrongTop.filter((r) => !t.missed.includes(r)).map(typedLine) : ['  - none']),
    '',
    `Queries with a wrong confident match (${t.wrongConfident.length}):`,
    ...(t.wrongConfident.length > 0 ? t.wrongConfident.map(typedLine) : ['  - none']),
    '',
    `Negatives listing someone (${t.leads.length}):`,
    ...(t.leads.length > 0 ? t.leads.map(typedLine) : ['  - none']),
  ].join('\n')
}

/** The headline figures RULES.md holds between its markers. */
export function renderFigures(e: Evaluation, t: TypedEvaluation): string {
  return (
    `Entity matching, measured by \`node dist/tools/matcher-evaluation.js\`: on the ${e.pairs} labelled pairs of FDA's own spellings (the thresholds' tuning set) ` +
    `precision ${e.atMatch.precision} and recall ${e.atMatch.recall} at match_threshold ${e.matchThreshold}; on the ${t.queries} typed queries (a separate set: typos, abbreviations, legal forms, ` +
    `word order, joined names, parents, short names, generic words, absent firms) recall of match or possible match ${t.recall}, precision of confident matches ${t.precision}, ` +
    `top-1 ${t.top1Rate}, and ${t.falseLeads} of ${t.negatives} negatives listing anyone (docs/decisions/compliance_data.md, "Entity matching").`
  )
}

const row = (m: Measure, mark = '') => `| ${m.threshold}${mark} | ${m.precision} | ${m.recall} | ${m.f1} | ${m.tp} | ${m.fp} | ${m.fn} | ${m.tn} |`
const pairLine = (p: ScoredPair) => `  - ${p.confidence.toFixed(4)}: "${p.name_a}" / "${p.name_b}"`

/** The block docs/decisions/compliance_data.md holds between the markers (without them), as the tool computes it. */
export function renderBlock(e: Evaluation, t?: TypedEvaluation): string {
  const lines = [
    `Measured by \`node dist/tools/matcher-evaluation.js\` on the ${e.pairs} labelled pairs of \`${PAIRS_FILE}\``,
    `(${e.matches} matches, ${e.nonMatches} non-matches). A pair counts as matched when entity_match's confidence is at`,
    'least the threshold; precision = TP / (TP + FP), recall = TP / (TP + FN).',
    '',
    '| threshold | precision | recall | F1 | TP | FP | FN | TN |',
    '|---|---|---|---|---|---|---|---|',
    row(e.atMatch, ' (match_threshold)'),
    row(e.atPossible, ' (possible_match_threshold)'),
    ...e.sweep.map((m) => row(m)),
    '',
    `At match_threshold ${e.matchThreshold}, the non-matches scored as matches (${e.falsePositives.length}):`,
    ...(e.falsePositives.length > 0 ? e.falsePositives.map(pairLine) : ['  - none']),
    '',
    `and the matches scored below it (${e.falseNegatives.length}):`,
    ...(e.falseNegatives.length > 0 ? e.falseNegatives.map(pairLine) : ['  - none']),
    ...(t ? ['', renderTyped(t)] : []),
  ]
  return lines.join('\n')
}

/** docs/decisions/compliance_data.md with the block between the markers replaced; an error if the markers are missing. */
export function replaceBlock(rules: string, block: string, startMark = BLOCK_START, endMark = BLOCK_END): string {
  const start = rules.indexOf(startMark)
  const end = rules.indexOf(endMark)
  if (start < 0 || end < start) throw new Error(`docs/decisions/compliance_data.md has no ${startMark} … ${endMark} block`)
  return `${rules.slice(0, start + startMark.length)}\n${block}\n${rules.slice(end)}`
}

/** The block docs/decisions/compliance_data.md holds now, or null without markers. */
export function currentBlock(rules: string, startMark = BLOCK_START, endMark = BLOCK_END): string | null {
  const start = rules.indexOf(startMark)
  const end = rules.indexOf(endMark)
  if (start < 0 || end < start) return null
  return rules.slice(start + startMark.length, end).replace(/^\n/, '').replace(/\n$/, '')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const e = evaluateMatcher()
  const t = evaluateTyped()
  const block = renderBlock(e, t)
  console.log(block)
  if (process.argv.includes('--write')) {
    const file = join(ROOT, 'docs', 'decisions', 'compliance_data.md')
    writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), block))
    const rulesFile = join(ROOT, 'RULES.md')
    writeFileSync(rulesFile, replaceBlock(readFileSync(rulesFile, 'utf8'), renderFigures(e, t), FIGURES_START, FIGURES_END))
    console.log(`\ndocs/decisions/compliance_data.md: the matcher-evaluation block rewritten; RULES.md: the matcher figures rewritten.`)
  }
}
