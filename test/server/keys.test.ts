// The key store: keys are shown once, stored only as hashes (SHA-256; older ones scrypt), and revocable.
import { randomBytes, scryptSync } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { AddressInfo } from 'node:net'
import { createApp } from '../../server/app.js'
import { FileKeyStore, parseKey } from '../../service/keys.js'
import { catalog } from '../helpers.js'

const test = suite('server/keys: FileKeyStore')

test('an issued key verifies; its secret is not in the file', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json')
  const store = new FileKeyStore(file)
  const { id, key } = await store.issue('t')
  const secret = key.split('.')[1]!
  assert.ok(Buffer.from(secret, 'base64url').length >= 16, 'at least 128 random bits')
  assert.ok(await store.verify(key))
  assert.ok(await store.verify(key), 'again, from the cache')
  assert.not.ok(readFileSync(file, 'utf8').includes(secret))
  assert.ok(readFileSync(file, 'utf8').includes(id))
})

test('a wrong secret, an unknown id and a revoked key do not verify', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { id, key } = await store.issue('t')
  assert.not.ok(await store.verify(`${id}.${'A'.repeat(43)}`))
  assert.not.ok(await store.verify(`kNoSuchKey.${key.split('.')[1]}`))
  assert.ok(await store.verify(key))
  assert.ok(await store.revoke(id))
  assert.not.ok(await store.verify(key))
  assert.is((await store.list())[0]!.revoked_at !== undefined, true)
})

test('parseKey refuses keys without a dot or with odd characters', () => {
  assert.is(parseKey('nodot'), undefined)
  assert.is(parseKey('a.b'), undefined)
  assert.is(parseKey('kabc.def ghi jklmnopqrstuv'), undefined)
  assert.equal(parseKey('kabcd.0123456789abcdefXYZ'), { id: 'kabcd', secret: '0123456789abcdefXYZ' })
})

test('a missing or malformed key is refused without hashing anything', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  await store.issue('t')
  const before = store.hashes
  for (const header of [undefined, '', 'no-dot', 'k.short', '.'.repeat(40)]) assert.not.ok(await store.verify(header))
  assert.is(store.hashes, before)
  assert.not.ok(await store.verify(`kAbCdEf.${'A'.repeat(43)}`))
  assert.is(store.hashes, before + 1, 'a well-formed key costs one SHA-256')
})

test('a new key is stored as SHA-256; a key stored with scrypt before still verifies', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-'))
  const file = join(dir, 'keys.json')
  const secret = randomBytes(32).toString('base64url')
  const salt = randomBytes(16)
  const hash = scryptSync(secret, salt, 32, { N: 16384, r: 8, p: 1 })
  writeFileSync(file, JSON.stringify({ keys: [{ id: 'kLegacy01', label: 'old', salt: salt.toString('base64'), hash: hash.toString('base64'), created_at: '2026-01-01T00:00:00.000Z' }] }))
  const store = new FileKeyStore(file)
  assert.ok(await store.verify(`kLegacy01.${secret}`))
  assert.not.ok(await store.verify(`kLegacy01.${'B'.repeat(43)}`))
  await store.issue('new')
  const records = (JSON.parse(readFileSync(file, 'utf8')) as { keys: { algorithm?: string; salt?: string }[] }).keys
  assert.equal(records.map((r) => r.algorithm ?? 'scrypt'), ['scrypt', 'sha256'])
  assert.is(records[1]!.salt, undefined)
})

test('surelyInvalid decides a bad key without waiting, and leaves an old key not yet verified to verify()', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { id, key } = await store.issue('t')
  assert.ok(store.surelyInvalid(undefined))
  assert.ok(store.surelyInvalid(`${id}.${'A'.repeat(43)}`))
  assert.ok(store.surelyInvalid(`kNoSuchKey.${key.split('.')[1]}`))
  assert.not.ok(store.surelyInvalid(key))
  await store.revoke(id)
  assert.ok(store.surelyInvalid(key))
})

test('surelyInvalid hashes and compares for an unknown or revoked id as for a known one, so its time does not tell which ids exist', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { id } = await store.issue('t')
  const revoked = await store.issue('r')
  await store.revoke(revoked.id)
  for (const header of [`${id}.${'A'.repeat(43)}`, `kNoSuchKey.${'A'.repeat(43)}`, `${revoked.id}.${'A'.repeat(43)}`]) {
    const before = store.hashes
    assert.ok(store.surelyInvalid(header))
    assert.is(store.hashes, before + 1, header)
  }
})

test('quickCheck says valid for a live SHA-256 key, invalid for a bad one, and undecided for an old key not yet verified', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json')
  const store = new FileKeyStore(file)
  const { id, key } = await store.issue('t')
  assert.is(store.quickCheck(key), 'valid')
  assert.is(store.quickCheck(`${id}.${'A'.repeat(43)}`), 'invalid')
  assert.is(store.quickCheck(undefined), 'invalid')
  // The same key again is not hashed again; revoked, it is checked afresh and refused.
  const before = store.hashes
  assert.is(store.quickCheck(key), 'valid')
  assert.is(store.hashes, before)
  await store.revoke(id)
  assert.is(store.quickCheck(key), 'invalid')
  assert.is(store.hashes, before + 1)
})

test('a good request through the app hashes its secret once (the guard says valid, so authenticate does not hash again)', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const { key } = await store.issue('t')
  const app = createApp({ catalog: catalog(), keys: store })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  try {
    const { port } = server.address() as AddressInfo
    const before = store.hashes
    const response = await fetch(`http://127.0.0.1:${port}/estate/calculate-state-tax`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ state: 'NY', tax_year: 2026, gross_estate: 1 }) })
    assert.is(response.status, 200)
    assert.is(store.hashes, before + 1)
  } finally {
    server.close()
  }
})

test('issueFirst issues a key only into an empty store; list shows no hashes', async () => {
  const store = new FileKeyStore(join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys.json'))
  const first = await store.issueFirst('first')
  assert.ok(first && (await store.verify(first.key)))
  assert.is(await store.issueFirst('second'), undefined)
  await store.revoke(first.id)
  assert.is(await store.issueFirst('third'), undefined, 'a revoked key still counts')
  assert.equal(Object.keys((await store.list())[0]!).sort(), ['created_at', 'id', 'label', 'revoked_at'])
})

test.run()
