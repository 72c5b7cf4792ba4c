// The table functions: each reads the table it is given, through the runtime, and checks its keys at load.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../../engine/values/decimal.js'
import { CompileError } from '../../../engine/compile/expression.js'
import type { LookupEntry, ParameterEntry, ScheduleEntry, SeriesEntry, TableEntry } from '../../../engine/data/tables.js'
import { formula, show } from './formula.js'

const test = suite('engine/functions/tables')
const base = { label: 'fixture', file: 'fixture.yaml', as_of: '2026-01-01', references: [] }
const schedule: ScheduleEntry = {
  ...base,
  id: 'demo.schedule',
  name: 'schedule',
  kind: 'marginal_rate_schedule',
  history: [{ from: '2026-01-01', references: [], value: [
    { over: new Dec(0), rate: new Dec('0.1'), base: new Dec(0) },
    { over: new Dec(1000), rate: new Dec('0.2'), base: new Dec(100) },
  ] }],
}
const rows: LookupEntry = {
  ...base,
  id: 'demo.rows',
  name: 'rows',
  kind: 'lookup',
  keys: ['state', 'class'],
  history: [{ from: '2026-01-01', references: [], value: new Map([[`NY\u0000A`, { state: 'NY', class: 'A', rate: new Dec('0.05') }]]) }],
}
const one: LookupEntry = { ...rows, id: 'demo.one', name: 'one', keys: ['state'], history: [{ from: '2026-01-01', references: [], value: new Map([['NY', { state: 'NY', rate: new Dec('0.05') }], ['CT', { state: 'CT', rate: new Dec('0.06') }]]) }] }
const index: SeriesEntry = { ...base, id: 'demo.index', name: 'index', kind: 'series', unit: '/1', points: new Map([['2025', new Dec('1.5')]]), pointReferences: new Map() }
const age: ParameterEntry = { ...base, id: 'demo.age', name: 'age', kind: 'parameter', unit: 'year', history: [{ from: '1900-01-01', references: [], value: new Dec(72) }, { from: '1951-01-01', references: [], value: new Dec(73) }] }
const tables: Record<string, TableEntry> = { schedule, rows, one, index, age }
const f = (t: string) => show(formula(t, { born: '1955-06-01' }, tables))

test('schedule and marginal_rate read the brackets', () => {
  assert.is(f('schedule(schedule, 1500)'), '"200"')
  assert.is(f('schedule(schedule, 0)'), '"0"')
  assert.is(f('marginal_rate(schedule, 1000)'), '"0.2"')
  assert.is(f('marginal_rate(schedule, 999)'), '"0.1"')
})

test('bracket_end and rate_bracket_end give the income that fills a bracket, null in the top one', () => {
  assert.is(f('bracket_end(schedule, 400)'), '"1000"')
  assert.is(f('bracket_end(schedule, 1000)'), 'null')
  assert.is(f('rate_bracket_end(schedule, 0.1)'), '"1000"')
  assert.is(f('rate_bracket_end(schedule, 0.2)'), 'null')
  assert.is(f('rate_bracket_end(schedule, 0.3)'), 'null')
})

test('lookup and has_row take one key per key column, counted at load', () => {
  assert.is(f("lookup(rows, 'NY', 'A').rate"), '"0.05"')
  assert.is(f("has_row(rows, 'NY', 'B')"), 'false')
  assert.throws(() => f("lookup(rows, 'NY', 'B')"), /has no row/)
  assert.throws(() => formula("lookup(rows, 'NY')", {}, tables), (e: unknown) => e instanceof CompileError && /looked up by 2 key\(s\) \(state, class\), got 1/.test((e as Error).message))
})

test('keys lists a one-key lookup, and is refused on a two-key one at load', () => {
  assert.is(f('keys(one)'), '["CT","NY"]')
  assert.throws(() => formula('keys(rows)', {}, tables), /one key column/)
})

test('series, has_point and points read a series by key', () => {
  assert.is(f('series(index, 2025)'), '"1.5"')
  assert.is(f('has_point(index, 2026)'), 'false')
  assert.is(f('points(index)'), '["2025"]')
})

test('value_at and in_force read a parameter on another date of the case', () => {
  assert.is(f('value_at(age, born)'), '"73"')
  assert.is(f("value_at(age, '1950-12-31')"), '"72"')
  assert.is(f("in_force(age, '1899-12-31')"), 'false')
})

test('a table of the wrong kind is refused at load', () => {
  assert.throws(() => formula('schedule(rows, 1)', {}, tables), (e: unknown) => e instanceof CompileError && /marginal-rate-schedule table as argument 1/.test((e as Error).message))
})

test.run()
