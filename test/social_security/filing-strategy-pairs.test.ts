// The filing-strategy optimizer's couple search (rules/social_security/filing_strategy.yaml `pairs`)
// values only the claims whose bound can reach a pair already valued: checked here against every
// pair valued directly, so that skipping never changes the best pair (the first of equal values in
// the order of the person's claims, then the spouse's) nor its value.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { evaluate } from '../../service/index.js'
import { Dec } from '../../engine/values/decimal.js'
import { readGolden } from '../../tools/golden.js'
import { GOLDEN_DIR, ROOT } from '../../service/project/paths.js'
import { catalog } from '../helpers.js'

const test = suite('social_security.filing_strategy: the couple search skips no best pair')
const rules = catalog()

type Option = Record<string, unknown> & { age: Dec; t: Dec; survivor_amount: Dec; benefit_later: Dec; pair_base: Dec; pair_base_own_widow: Dec; widow_annuity: Dec; spousal_excess: Dec; spousal_at_own: Dec; spousal: Dec[] }

/** pair_value written out: each one's own side less the other's widow(er)'s benefit, and the spouse's benefits. */
function pairValue(a: Option, b: Option): Dec {
  const own = (x: Option, y: Option) => (y.survivor_amount.gte(x.benefit_later) ? x.pair_base_own_widow : x.pair_base.minus(y.survivor_amount.times(x.widow_annuity)))
  const spousal = (x: Option, y: Option) => (x.spousal_excess.gt(0) ? (x.t.gte(y.t) ? x.spousal_at_own : x.spousal[y.t.toNumber()]!) : new Dec(0))
  return own(a, b).plus(own(b, a)).plus(spousal(a, b).plus(spousal(b, a)))
}

/** Every couple the golden cases answer, and two more (every claim still open; two close earners at a negative rate). */
function couples(): { name: string; input: Record<string, unknown> }[] {
  const out: { name: string; input: Record<string, unknown> }[] = []
  for (const f of readGolden(GOLDEN_DIR, ROOT).files) {
    if (f.endpoint !== 'optimize_ss_filing_strategy') continue
    for (const c of f.cases) {
      const input = c.input as Record<string, unknown> & { spouse?: { date_of_birth?: string } }
      if (c.expect && input.spouse?.date_of_birth) out.push({ name: c.name, input })
    }
  }
  out.push({ name: "a low earner with a spouse's benefit, young enough for every claim", input: { calculation_date: '2020-06-30', person: { date_of_birth: '1962-11-20', pia: 600, sex: 'female' }, spouse: { date_of_birth: '1960-04-05', pia: 3100, sex: 'male' }, discount_rate: 0.03 } })
  out.push({ name: 'two close earners at a negative rate', input: { calculation_date: '2021-02-01', person: { date_of_birth: '1959-12-31', pia: 1800, sex: 'male' }, spouse: { date_of_birth: '1961-07-14', pia: 1750, sex: 'female' }, discount_rate: -0.01 } })
  return out
}

test('the best pair and its value are those of every pair valued in order', async () => {
  const list = couples()
  assert.ok(list.length >= 6, `only ${list.length} couples`)
  for (const { name, input } of list) {
    const { formulas } = await evaluate(rules, 'social_security.filing_strategy', input, { formulas: ['a_open', 'b_open', 'best', 'pairs_searched'] })
    const [as, bs] = [formulas!.a_open as Option[], formulas!.b_open as Option[]]
    let best: { a: Dec; b: Dec; value: Dec } | undefined
    for (const a of as) for (const b of bs) {
      const value = pairValue(a, b)
      if (!best || value.gt(best.value)) best = { a: a.age, b: b.age, value }
    }
    const found = formulas!.best as { a: Dec; b: Dec; value: Dec }
    assert.ok(found.a.eq(best!.a) && found.b.eq(best!.b), `${name}: best (${found.a}, ${found.b}), every pair (${best!.a}, ${best!.b})`)
    assert.ok(found.value.eq(best!.value), `${name}: ${found.value} against ${best!.value}`)
    assert.is((formulas!.pairs_searched as Dec).toNumber(), as.length * bs.length, name)
  }
})

test.run()
