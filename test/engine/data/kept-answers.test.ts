// A store's query answers kept in memory: the same rows again for the same key, frozen, within a
// budget of rows, the least recently used given up first.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KeptAnswers } from '../../../engine/data/store.js'
import type { Value } from '../../../engine/model/types.js'

const test = suite('engine/data/store: kept answers')
const rows = (n: number, tag: string): Record<string, Value>[] => Array.from({ length: n }, (_, i) => ({ tag, i: String(i) }))

test('a key read twice is read from the store once and answers the same frozen list', () => {
  const kept = new KeptAnswers(10)
  let reads = 0
  const first = kept.get('rows\u0000MD', () => (reads++, rows(3, 'MD')))
  const second = kept.get('rows\u0000MD', () => (reads++, rows(3, 'MD')))
  assert.is(reads, 1)
  assert.is(second, first)
  assert.ok(Object.isFrozen(first))
  assert.throws(() => (first as unknown as Value[]).push(null))
})

test('past the budget the least recently used answer is given up, and read again when asked', () => {
  const kept = new KeptAnswers(10)
  let reads = 0
  const read = (tag: string) => () => (reads++, rows(4, tag))
  kept.get('a', read('a'))
  kept.get('b', read('b'))
  kept.get('a', read('a')) // a is now the most recently used
  kept.get('c', read('c')) // 12 rows held: b goes
  assert.is(reads, 3)
  kept.get('a', read('a'))
  kept.get('c', read('c'))
  assert.is(reads, 3)
  kept.get('b', read('b'))
  assert.is(reads, 4)
})

test('an answer larger than the whole budget is returned but not kept', () => {
  const kept = new KeptAnswers(5)
  let reads = 0
  const big = () => (reads++, rows(6, 'big'))
  assert.is(kept.get('big', big).length, 6)
  kept.get('big', big)
  assert.is(reads, 2)
})

test.run()
