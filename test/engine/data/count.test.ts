// row_count(): how many rows a data set holds, the figure a coverage statement reports.
import { writeFileSync, appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../../service/index.js'
import { copyFixture, load } from './fixture.js'

const test = suite('engine/data: row_count')

const COUNTS = `# FIXTURE: counts the rows of the demo data sets.
formula_version: "2026.1"
kind: rule_set
title: Demo coverage (fixture)
reference: { title: "Fixture: no law" }
inputs:
  on: { type: date }
date: { default: "on" }
outputs:
  inspections: row_count(demo.sites.inspections)
  bands: row_count(demo.sites.accessible_spaces)
`

test('row_count counts every row, and follows the file', async () => {
  const dir = copyFixture()
  writeFileSync(join(dir, 'rules', 'demo', 'counts.yaml'), COUNTS)
  const before = await evaluate(load(dir), 'demo.counts', { on: '2026-01-01' })
  appendFileSync(join(dir, 'tables', 'demo', 'inspections.csv'), 'north,2026-02-01,blocked ramp,400\n')
  const after = await evaluate(load(dir), 'demo.counts', { on: '2026-01-01' })
  // inspections.csv holds 4 rows under its header, accessible_spaces.csv 5
  assert.is(before.result.inspections, 4)
  assert.is(before.result.bands, 5)
  assert.is(after.result.inspections, 5)
})

test.run()
