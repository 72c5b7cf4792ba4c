// The key store: keys are shown once, stored only as salted hashes, and revocable.
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { KeyStore, parseKey } from '../../server/keys.js'

const test = suite('server/keys: KeyStore')

test('an issued key verifies; its secret is not in the file', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json')
  const store = new KeyStore(file)
  const { id, key } = await store.issue('t')
  const secret = key.split('.')[1]!
  assert.ok(Buffer.from(secret, 'base64url').length >= 16, 'at least 128 random bits')
  assert.ok(await store.verify(key))
  assert.ok(await store.verify(key), 'again, from the cache')
  assert.not.ok(readFileSync(file, 'utf8').includes(secret))
  assert.ok(readFileSync(file, 'utf8').includes(id))
})

test('a wrong secret, an unknown id and a revoked key do not verify', async () => {
  const store = new KeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { id, key } = await store.issue('t')
  assert.not.ok(await store.verify(`${id}.${'A'.repeat(43)}`))
  assert.not.ok(await store.verify(`kNoSuchKey.${key.split('.')[1]}`))
  assert.ok(await store.verify(key))
  assert.ok(store.revoke(id))
  assert.not.ok(await store.verify(key))
  assert.is(store.list()[0]!.revoked_at !== undefined, true)
})

test('parseKey refuses keys without a dot or with odd characters', () => {
  assert.is(parseKey('nodot'), undefined)
  assert.is(parseKey('a.b'), undefined)
  assert.is(parseKey('kabc.def ghi jklmnopqrstuv'), undefined)
  assert.equal(parseKey('kabcd.0123456789abcdefXYZ'), { id: 'kabcd', secret: '0123456789abcdefXYZ' })
})

test.run()
