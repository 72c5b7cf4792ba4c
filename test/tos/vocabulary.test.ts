// The clause engine's vocabulary as data (tables/tos/clause_patterns.yaml): every pattern and every cue
// carries a test sentence quoted from a curated document (its example and example_from), and the
// pattern matches it, so an analyst who edits a pattern learns at once when it stops reading the wording
// it was written for; and the combination (tables/tos/combination.yaml) declares every kind of reading
// for every dimension, so no clause can fall outside the hit policy.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { RE2 } from 're2-wasm'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parse as parseYaml } from 'yaml'
import { TABLES_DIR } from '../../service/project/paths.js'

const test = suite('tos/vocabulary: each pattern and cue with its test sentence')

interface Row { name?: string; cue?: string; dimension?: string; pattern: string; example: string; example_from: string; contribution?: string; verdict?: string; rank?: string }
interface TableFile { tables: Record<string, { values: Record<string, { rows: Row[] }> }> }

const read = (file: string) => parseYaml(readFileSync(join(TABLES_DIR, 'tos', file), 'utf8')) as TableFile
const rows = (t: TableFile, table: string) => Object.values(t.tables[table]!.values)[0]!.rows
const patterns = read('clause_patterns.yaml')

test('every pattern matches its example, quoted verbatim from the document it names', () => {
  for (const row of rows(patterns, 'patterns')) {
    assert.ok(row.example.length > 0, `${row.name} has an example`)
    const document = readFileSync(join(TABLES_DIR, 'tos', row.example_from.replace(/^tables\/tos\//, '')), 'utf8')
    assert.ok(document.includes(row.example.trim()), `${row.name}: the example is not in ${row.example_from}`)
    // As the rule set matches it: case-insensitively.
    assert.ok(new RE2(`(?i)${row.pattern}`, 'u').test(row.example), `${row.name} does not match its example: ${row.example}`)
  }
})

test('every cue matches its example, quoted verbatim from the document it names', () => {
  for (const row of rows(patterns, 'cues')) {
    const document = readFileSync(join(TABLES_DIR, 'tos', row.example_from.replace(/^tables\/tos\//, '')), 'utf8')
    assert.ok(document.includes(row.example.trim()) || document.includes(row.example), `${row.cue}: the example is not in ${row.example_from}`)
    assert.ok(new RE2(row.pattern, 'u').test(row.example), `${row.cue} does not match its example: ${JSON.stringify(row.example)}`)
  }
})

test('the hit policy gives every kind of reading a verdict and a rank on every dimension', () => {
  const dimensions = rows(patterns, 'dimensions').map((r) => r.dimension!)
  const policy = rows(read('combination.yaml'), 'hit_policy')
  const kinds = ['user_exception', 'route', 'permission_beside_prohibition', 'prohibition', 'provider_exception', 'carve_out', 'permission', 'silence']
  for (const d of dimensions) {
    for (const k of kinds) {
      const row = policy.find((r) => r.dimension === d && r.contribution === k)
      assert.ok(row, `${d} ${k} has a row`)
      assert.ok(['allowed', 'conditional', 'prohibited', 'silent'].includes(row!.verdict!), `${d} ${k}: ${row!.verdict}`)
    }
  }
  assert.is(policy.length, dimensions.length * kinds.length)
})

test.run()
