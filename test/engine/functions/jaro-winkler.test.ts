// Jaro-Winkler (engine/functions/jaro-winkler.ts): the published examples of Winkler's measure, and
// the two choices the matcher's measured thresholds depend on (half the out-of-order count rounded
// down, as strcmp95 does; the boost only from 0.7).
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { jaro, jaroWinkler } from '../../../engine/functions/jaro-winkler.js'

const test = suite('engine/functions/jaro-winkler')

const near = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} is not ${y}`)

test('jaroWinkler gives the textbook values (MARTHA/MARHTA, DWAYNE/DUANE, DIXON/DICKSONX)', () => {
  near(jaro('MARTHA', 'MARHTA'), 17 / 18)
  assert.is(jaroWinkler('MARTHA', 'MARHTA').toFixed(4), '0.9611')
  near(jaro('DWAYNE', 'DUANE'), 37 / 45)
  assert.is(jaroWinkler('DWAYNE', 'DUANE').toFixed(4), '0.8400')
  near(jaro('DIXON', 'DICKSONX'), 23 / 30)
  assert.is(jaroWinkler('DIXON', 'DICKSONX').toFixed(4), '0.8133')
})

test('jaro halves the out-of-order count rounding down: three out of order is one transposition', () => {
  // a, b, c matched in the order b, c, a: three positions differ, t = ⌊3 / 2⌋ = 1.
  near(jaro('abcxxxx', 'bcaxxxx'), (1 + 1 + 6 / 7) / 3)
})

test('jaroWinkler raises only a score of at least 0.7, and for at most four leading characters', () => {
  // "novo" within "nordisk novo": Jaro 0.56, below the boost threshold, though both begin "no".
  near(jaroWinkler('novo', 'nordisk novo'), jaro('novo', 'nordisk novo'))
  const j = jaro('abcdefgh', 'abcdefxy')
  near(jaroWinkler('abcdefgh', 'abcdefxy'), j + 4 * 0.1 * (1 - j))
})

test('jaroWinkler: equal texts are 1, nothing shared is 0', () => {
  assert.is(jaroWinkler('', ''), 1)
  assert.is(jaroWinkler('acme', 'acme'), 1)
  assert.is(jaroWinkler('', 'acme'), 0)
  assert.is(jaroWinkler('abc', 'xyz'), 0)
})

test.run()
