/**
 * @module Functions on lists: aggregates (min, max, sum, count), building lists for a loop or a
 * search (range, grid, merge), choosing (item, filter, sort_by, take, argmax), and reading a curve
 * (minima, runs, percentile). A list longer than `MAX_LIST` is refused: a range or a grid is a
 * loop, and a loop needs a bound (the request's work limit bounds the rest).
 */
import { Dec, compare, isDec } from '../values/decimal.js'
import type { Value } from '../model/types.js'
import type { CallContext, FunctionLibrary, Lambda, ValueType } from './spec.js'
import { amount, amountsOf, bool, chargeItems, chargeSort, integer, itemOf, lambda, list, sameValue, describe } from './values.js'

/** The longest list range() and grid() make. */
export const MAX_LIST = 10_000

/**
 * The least (`above` 1) or greatest (`above` -1) amount, chosen as decimal.js's min and max choose
 * (a tie goes to the later amount while the kept one is positive, so min(0, -0) is -0; NaN wins),
 * without the copy of every argument they make.
 */
function extreme(values: Dec[], above: 1 | -1): Dec {
  let x = values[0]!
  for (let i = 1; i < values.length; i++) {
    const y = values[i]!
    if (y.isNaN()) return y
    const k = compare(x, y)
    if (k === above || (k === 0 && x.s === above)) x = y
  }
  return x
}

/** The amounts of min/max/sum's arguments, charged one step an amount. */
function amounts(cx: CallContext, args: (Value | Lambda)[], name: string): Dec[] {
  const values = amountsOf(cx, args, name)
  chargeItems(cx, values.length)
  return values
}

function nonEmpty(cx: CallContext, values: Dec[], name: string): Dec[] {
  return values.length === 0 ? cx.fail(`${name}() of an empty list`) : values
}

function booleans(cx: CallContext, v: Value | Lambda, name: string): boolean[] {
  const items = list(cx, v, `the list of ${name}()`)
  chargeItems(cx, items.length)
  return items.map((b) => bool(cx, b, `an item of ${name}()`))
}

/** Order two sort keys: amounts by value, dates and text as text; anything else cannot be sorted. */
function order(cx: CallContext, a: Value, b: Value, name: string): number {
  if (isDec(a) && isDec(b)) return compare(a, b)
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0
  return cx.fail(`${name}() sorts by amounts, dates or text, got ${describe(a)} and ${describe(b)}`)
}

/** The item with the greatest (`sign` 1) or least (`sign` -1) key; the first of equal keys. */
function pick(cx: CallContext, items: Value[], key: Lambda, sign: 1 | -1, name: string): Value {
  if (items.length === 0) return cx.fail(`${name}() of an empty list`)
  let best = items[0]!
  let bestKey = key(best)
  for (let i = 1; i < items.length; i++) {
    const k = key(items[i]!)
    if (order(cx, k, bestKey, name) * sign > 0) {
      best = items[i]!
      bestKey = k
    }
  }
  return best
}

const sameList = (t: ValueType[]): ValueType => t[0] ?? 'any'
const itemParam = { lambda: 1, paramTypes: (t: ValueType[]) => [itemOf(t[0])] } as const

export const lists: FunctionLibrary = {
  min: {
    doc: 'The least of amounts (a list counts as its items).',
    args: ['numbers'],
    rest: 'numbers',
    returns: 'amount',
    pure: true,
    impl: (args, cx) => extreme(nonEmpty(cx, amounts(cx, args, 'min'), 'min'), 1),
  },
  max: {
    doc: 'The greatest of amounts (a list counts as its items).',
    args: ['numbers'],
    rest: 'numbers',
    returns: 'amount',
    pure: true,
    impl: (args, cx) => extreme(nonEmpty(cx, amounts(cx, args, 'max'), 'max'), -1),
  },
  sum: {
    doc: 'The sum of amounts (a list counts as its items); 0 for none.',
    args: ['numbers'],
    rest: 'numbers',
    returns: 'amount',
    pure: true,
    impl: (args, cx) => amounts(cx, args, 'sum').reduce((a, b) => a.plus(b), new Dec(0)),
  },
  count: {
    doc: 'The number of items of a list.',
    args: ['list'],
    returns: 'integer',
    impl: ([l], cx) => new Dec(list(cx, l!, 'the list of count()').length),
  },
  contains: {
    doc: 'Whether a list holds a value (amounts compared by value).',
    args: ['list', 'any'],
    returns: 'boolean',
    impl: ([l, x], cx) => {
      const items = list(cx, l!, 'the list of contains()')
      chargeItems(cx, items.length)
      return items.some((e) => sameValue(e, x as Value) ?? cx.fail(`contains() cannot compare ${describe(e)} with ${describe(x!)}`))
    },
  },
  compact: {
    doc: 'The list without its null items.',
    args: ['list'],
    returns: sameList,
    impl: ([l], cx) => {
      const items = list(cx, l!, 'the list of compact()')
      chargeItems(cx, items.length)
      return items.filter((v) => v !== null)
    },
  },
  flatten: {
    doc: 'The items of a list of lists, in one list.',
    args: ['list'],
    returns: (t) => {
      const inner = itemOf(t[0])
      return typeof inner === 'object' && 'list' in inner ? inner : { list: inner }
    },
    impl: ([l], cx) => {
      const items = list(cx, l!, 'the list of flatten()')
      const out = items.flatMap((v) => (Array.isArray(v) ? v : [v]))
      chargeItems(cx, out.length)
      return out
    },
  },
  range: {
    doc: `The whole numbers from a to b inclusive (empty when b < a); at most ${MAX_LIST}.`,
    args: ['integer', 'integer'],
    returns: { list: 'integer' },
    impl: ([a, b], cx) => {
      const from = integer(cx, a!, 'the start')
      const to = integer(cx, b!, 'the end')
      if (to - from + 1 > MAX_LIST) return cx.fail(`range() of more than ${MAX_LIST} items`)
      chargeItems(cx, to - from + 1)
      const out: Value[] = []
      for (let i = from; i <= to; i++) out.push(new Dec(i))
      return out
    },
  },
  grid: {
    doc: `from, from + step, … up to \`to\`, which is always the last point: a search grid of at most ${MAX_LIST} points.`,
    args: ['number', 'number', 'number'],
    returns: { list: 'amount' },
    impl: ([a, b, s], cx) => {
      const from = amount(cx, a!, 'the start')
      const to = amount(cx, b!, 'the end')
      const step = amount(cx, s!, 'the step')
      if (!step.gt(0)) return cx.fail('the step of grid() must be above 0')
      if (to.lt(from)) return cx.fail('grid() ends before it starts')
      if (to.minus(from).div(step).gt(MAX_LIST)) return cx.fail(`grid() of more than ${MAX_LIST} points`)
      const out: Dec[] = []
      for (let x = from; x.lt(to); x = x.plus(step)) out.push(x)
      out.push(to)
      chargeItems(cx, out.length)
      return out
    },
  },
  merge: {
    doc: 'The sorted union of lists of amounts, each value once: a grid with exact break points added.',
    args: ['numbers'],
    rest: 'numbers',
    returns: { list: 'amount' },
    impl: (args, cx) => {
      const values = amountsOf(cx, args, 'merge')
      chargeSort(cx, values.length)
      const all = values.sort((x, y) => x.cmp(y))
      return all.filter((x, i) => i === 0 || !x.eq(all[i - 1]!))
    },
  },
  item: {
    doc: 'The item at index i of a list (0 is the first, -1 the last).',
    args: ['list', 'integer'],
    returns: (t) => itemOf(t[0]),
    impl: ([l, i], cx) => {
      const items = list(cx, l!, 'the list of item()')
      const k = integer(cx, i!, 'the index')
      const v = items[k < 0 ? items.length + k : k]
      return v === undefined ? cx.fail(`item() index ${k} is outside a list of ${items.length}`) : v
    },
  },
  take: {
    doc: 'The first n items of a list (all of them when it has fewer).',
    args: ['list', 'integer'],
    returns: sameList,
    impl: ([l, n], cx) => {
      const count = integer(cx, n!, 'the count')
      return count < 0 ? cx.fail('take() of a negative count') : list(cx, l!, 'the list of take()').slice(0, count)
    },
  },
  drop: {
    doc: 'The list without its first n items.',
    args: ['list', 'integer'],
    returns: sameList,
    impl: ([l, n], cx) => {
      const count = integer(cx, n!, 'the count')
      return count < 0 ? cx.fail('drop() of a negative count') : list(cx, l!, 'the list of drop()').slice(count)
    },
  },
  filter: {
    doc: 'The items for which a condition holds, in order: filter(heirs, h => h.share > 0).',
    args: ['list', { ...itemParam, body: 'boolean' }],
    returns: sameList,
    impl: ([l, f], cx) => {
      const test = lambda(cx, f!, 'the condition')
      return list(cx, l!, 'the list of filter()').filter((item) => bool(cx, test(item), 'the condition of filter()'))
    },
  },
  map: {
    doc: 'One value per item: map(years, y => y.amount * 2).',
    args: ['list', itemParam],
    returns: (t) => ({ list: t[1] ?? 'any' }),
    impl: ([l, f], cx) => {
      const fn = lambda(cx, f!, 'the function')
      return list(cx, l!, 'the list of map()').map((item) => fn(item))
    },
  },
  sort_by: {
    doc: 'The items in ascending order of a key (amounts, dates or text); equal keys keep their order: sort_by(years, y => y.indexed_earnings).',
    args: ['list', itemParam],
    returns: sameList,
    impl: ([l, f], cx) => {
      const key = lambda(cx, f!, 'the key')
      const keyed = list(cx, l!, 'the list of sort_by()').map((item, i) => ({ item, key: key(item), i }))
      // Each key is a lambda call (counted there); the comparisons are n·log₂ n more.
      chargeSort(cx, keyed.length)
      keyed.sort((a, b) => order(cx, a.key, b.key, 'sort_by') || a.i - b.i)
      return keyed.map((k) => k.item)
    },
  },
  argmax: {
    doc: 'The item with the greatest key (the first of equal ones); an empty list is an error: argmax(curve, p => p.total).',
    args: ['list', itemParam],
    returns: (t) => itemOf(t[0]),
    impl: ([l, f], cx) => pick(cx, list(cx, l!, 'the list of argmax()'), lambda(cx, f!, 'the key'), 1, 'argmax'),
  },
  argmin: {
    doc: 'The item with the least key (the first of equal ones); an empty list is an error: argmin(curve, p => p.total_tax).',
    args: ['list', itemParam],
    returns: (t) => itemOf(t[0]),
    impl: ([l, f], cx) => pick(cx, list(cx, l!, 'the list of argmin()'), lambda(cx, f!, 'the key'), -1, 'argmin'),
  },
  percentile: {
    doc: 'The p-th percentile (p from 0 to 1) of amounts, interpolated linearly between the closest ranks (NumPy\'s default): position p × (n − 1) of the sorted values.',
    args: [{ list: 'number' }, 'number'],
    returns: 'amount',
    pure: true,
    impl: ([l, p], cx) => {
      const values = nonEmpty(cx, amountsOf(cx, [l!], 'percentile'), 'percentile')
      chargeSort(cx, values.length)
      values.sort((a, b) => compare(a, b))
      const q = amount(cx, p!, 'the percentile')
      if (q.lt(0) || q.gt(1)) return cx.fail(`the percentile must be from 0 to 1, got ${q.toString()}`)
      const position = q.times(values.length - 1)
      const below = position.floor().toNumber()
      const above = Math.min(below + 1, values.length - 1)
      return values[below]!.plus(values[above]!.minus(values[below]!).times(position.minus(below)))
    },
  },
  minima: {
    doc: 'The local minima of the curve ys over xs, each a plateau {from, to, value}: a run of equal values lower than its neighbours (or at an end).',
    args: ['list', { list: 'number' }],
    returns: (t) => ({ list: { record: { from: itemOf(t[0]), to: itemOf(t[0]), value: 'amount' } } }),
    impl: ([x, y], cx) => {
      const xs = list(cx, x!, 'the xs of minima()')
      const ys = list(cx, y!, 'the ys of minima()').map((v) => amount(cx, v, 'a value of minima()'))
      if (xs.length !== ys.length) return cx.fail('minima() takes two lists of one length')
      chargeItems(cx, ys.length)
      const out: Value[] = []
      for (let i = 0; i < ys.length; ) {
        let j = i
        while (j + 1 < ys.length && ys[j + 1]!.eq(ys[i]!)) j++
        const lowerThanBefore = i === 0 || ys[i - 1]!.gt(ys[i]!)
        const lowerThanAfter = j === ys.length - 1 || ys[j + 1]!.gt(ys[j]!)
        if (lowerThanBefore && lowerThanAfter) out.push({ from: xs[i]!, to: xs[j]!, value: ys[i]! })
        i = j + 1
      }
      return out
    },
  },
  runs: {
    doc: 'The runs of consecutive xs where flags is true, each {from, to}.',
    args: ['list', { list: 'boolean' }],
    returns: (t) => ({ list: { record: { from: itemOf(t[0]), to: itemOf(t[0]) } } }),
    impl: ([x, f], cx) => {
      const xs = list(cx, x!, 'the xs of runs()')
      const flags = booleans(cx, f!, 'runs')
      if (xs.length !== flags.length) return cx.fail('runs() takes two lists of one length')
      const out: Value[] = []
      for (let i = 0; i < flags.length; i++) {
        if (!flags[i]) continue
        let j = i
        while (j + 1 < flags.length && flags[j + 1]) j++
        out.push({ from: xs[i]!, to: xs[j]! })
        i = j
      }
      return out
    },
  },
  sum_by: {
    doc: 'The totals of a list by a key, one { key, total } per distinct key in order of first appearance: sum_by(counts, c => c.state, c => c.rows), a grouped count added up without comparing every pair.',
    args: ['list', itemParam, { ...itemParam, body: 'number' }],
    returns: (t) => ({ list: { record: { key: t[1] ?? 'any', total: 'amount' } } }),
    impl: ([l, k, a], cx) => {
      const key = lambda(cx, k!, 'the key')
      const value = lambda(cx, a!, 'the amount')
      // Keys by their type and text, so 1 and '1' stay apart and 1.50 and 1.5 are one key.
      const totals = new Map<string, { key: Value; total: Dec }>()
      for (const item of list(cx, l!, 'the list of sum_by()')) {
        const kv = key(item)
        if (kv !== null && typeof kv === 'object' && !isDec(kv)) return cx.fail(`sum_by() groups by a text, an amount, a date or true/false, got ${describe(kv)}`)
        const id = `${isDec(kv) ? 'n' : typeof kv}:${isDec(kv) ? kv.toString() : String(kv)}`
        const v = amount(cx, value(item), 'the amount of sum_by()')
        const known = totals.get(id)
        if (known) known.total = known.total.plus(v)
        else totals.set(id, { key: kv, total: v })
      }
      chargeItems(cx, totals.size)
      return [...totals.values()].map((t) => ({ key: t.key, total: t.total }))
    },
  },
  any: {
    doc: 'Whether any of a list of true/false values is true.',
    args: [{ list: 'boolean' }],
    returns: 'boolean',
    impl: ([l], cx) => booleans(cx, l!, 'any').some((b) => b),
  },
  all: {
    doc: 'Whether all of a list of true/false values are true.',
    args: [{ list: 'boolean' }],
    returns: 'boolean',
    impl: ([l], cx) => booleans(cx, l!, 'all').every((b) => b),
  },
  given: {
    doc: 'Whether a value was given (is not null).',
    args: ['any'],
    returns: 'boolean',
    impl: ([x]) => x !== null,
  },
}
