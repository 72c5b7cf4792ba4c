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
 * The pairs are a labelled evaluation fixture (names from the real records of the data sets, each label
 * with its evidence), not data: no answer of the service reads them.
 */
import { answerHelp } from './help.js'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parse } from 'csv-parse/sync'
import { Dec } from '../engine/values/decimal.js'
import { compileExpression } from '../engine/compile/expression.js'
import { loadCatalog } from '../service/index.js'
import { ROOT } from '../service/project/paths.js'
import type { LookupEntry, ParameterEntry, TableEntry } from '../engine/data/tables.js'
import type { Runtime, Value } from '../engine/model/types.js'

answerHelp(import.meta.url)

export const PAIRS_FILE = join('test', 'fixtures', 'matching', 'labelled_pairs.csv')
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

export function evaluateMatcher(root: string = ROOT): Evaluation {
  const catalog = loadCatalog({ rulesDir: join(root, 'rules'), tablesDir: join(root, 'tables') })
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

const row = (m: Measure, mark = '') => `| ${m.threshold}${mark} | ${m.precision} | ${m.recall} | ${m.f1} | ${m.tp} | ${m.fp} | ${m.fn} | ${m.tn} |`
const pairLine = (p: ScoredPair) => `  - ${p.confidence.toFixed(4)}: "${p.name_a}" / "${p.name_b}"`

/** The block docs/decisions/compliance_data.md holds between the markers (without them), as the tool computes it. */
export function renderBlock(e: Evaluation): string {
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
  ]
  return lines.join('\n')
}

/** docs/decisions/compliance_data.md with the block between the markers replaced; an error if the markers are missing. */
export function replaceBlock(rules: string, block: string): string {
  const start = rules.indexOf(BLOCK_START)
  const end = rules.indexOf(BLOCK_END)
  if (start < 0 || end < start) throw new Error(`docs/decisions/compliance_data.md has no ${BLOCK_START} … ${BLOCK_END} block`)
  return `${rules.slice(0, start + BLOCK_START.length)}\n${block}\n${rules.slice(end)}`
}

/** The block docs/decisions/compliance_data.md holds now, or null without markers. */
export function currentBlock(rules: string): string | null {
  const start = rules.indexOf(BLOCK_START)
  const end = rules.indexOf(BLOCK_END)
  if (start < 0 || end < start) return null
  return rules.slice(start + BLOCK_START.length, end).replace(/^\n/, '').replace(/\n$/, '')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const e = evaluateMatcher()
  const block = renderBlock(e)
  console.log(block)
  if (process.argv.includes('--write')) {
    const file = join(ROOT, 'docs', 'decisions', 'compliance_data.md')
    writeFileSync(file, replaceBlock(readFileSync(file, 'utf8'), block))
    console.log(`\ndocs/decisions/compliance_data.md: the matcher-evaluation block rewritten.`)
  }
}
