// Money as notes print it, in the endpoint's declared currency.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { Dec } from '../../engine/values/decimal.js'
import { formatMoney, type Currency } from '../../engine/values/money.js'

const test = suite('engine/money: formatMoney')
const usd: Currency = { code: 'USD', name: 'US dollars', symbol: '$', minor_units: 2 }
const aud: Currency = { code: 'AUD', name: 'Australian dollars', symbol: 'A$', minor_units: 2 }

test('whole amounts print without cents, others with the minor units', () => {
  assert.is(formatMoney(new Dec('1234567'), usd), '$1,234,567')
  assert.is(formatMoney(new Dec('1234567.5'), usd), '$1,234,567.50')
  assert.is(formatMoney(new Dec('0.005'), usd), '$0.01')
  assert.is(formatMoney(new Dec('999'), usd), '$999')
})

test('a negative amount puts its sign before the symbol', () => {
  assert.is(formatMoney(new Dec('-1000.25'), usd), '-$1,000.25')
})

test('the symbol is the currency\'s own', () => {
  assert.is(formatMoney(new Dec('30000'), aud), 'A$30,000')
})

test.run()
