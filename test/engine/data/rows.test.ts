// Reading a data set's rows: each broken file (test/fixtures/data/bad/<what is wrong>) is refused
// with the exact message at the file's line and column.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { problems } from './fixture.js'

const test = suite('engine/data/rows: readRows')

test('an amount written with a thousands separator is refused at its line and column', () => {
  assert.equal(problems('bad-amount.csv', 'tables/demo/inspections.csv'), [
    'tables/demo/inspections.csv:3:4: column \'fine\' is not an exact amount (write it as 1234.56, without separators): "1,500.50"',
  ])
})

test('a column the descriptor does not declare is refused', () => {
  assert.equal(problems('unknown-column.csv', 'tables/demo/inspections.csv'), [
    "tables/demo/inspections.csv:2:1: unknown column 'inspector'; the columns are site, inspected_on, finding, fine",
  ])
})

test('two bands that overlap are refused at the second', () => {
  assert.equal(problems('overlapping-bands.csv', 'tables/demo/accessible_spaces.csv'), [
    'tables/demo/accessible_spaces.csv:4:1: band from 50 overlaps the band from 26 (line 3), which runs to 51',
  ])
})

test('a key with two rows on one effective date is refused', () => {
  assert.equal(problems('duplicate-history-row.jsonl', 'tables/demo/hourly_minimum.jsonl'), [
    'tables/demo/hourly_minimum.jsonl:3:1: duplicate row for region=east, effective=2026-01-01: line 2 already has it',
  ])
})

test('a query on what a data set does not index is refused at load, not scanned at run time', () => {
  assert.equal(problems('unindexed-query.yaml', 'rules/demo/sites.yaml'), [
    'rules/demo/sites.yaml:11:15: demo.sites.hourly_minimum declares no key; a query may only use what the data set indexes',
  ])
})

test('key_values() on a data set without a one-column key is refused at load', () => {
  assert.equal(problems('key-values-without-key.yaml', 'rules/demo/sites.yaml'), [
    'rules/demo/sites.yaml:11:23: demo.sites.hourly_minimum has no one-column key (key: [column]); key_values lists the values of such a key',
  ])
})

test.run()
