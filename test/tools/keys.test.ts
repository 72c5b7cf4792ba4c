// The keys tool on the default store, the file DATA_DIR/keys.json: it says which store it used, on
// stderr, and the key it issues is in that file. (On PostgreSQL: test/server/keys-postgres.test.ts.)
import { spawnSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { FileKeyStore } from '../../service/keys.js'

const test = suite('tools/keys')

test('without DATABASE_URL it issues, lists and revokes in DATA_DIR/keys.json, and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-tool-'))
  const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }
  const tool = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', 'keys.js'), ...args], { env, encoding: 'utf8', timeout: 30_000 })
  const issued = tool('issue', '--label', 'file')
  assert.is(issued.status, 0, issued.stderr)
  assert.is(issued.stderr, `key store: file ${join(dir, 'keys.json')}\n`)
  const key = issued.stdout.trim().split('\n').pop()!
  assert.ok(await new FileKeyStore(join(dir, 'keys.json')).verify(key))
  const id = key.split('.')[0]!
  assert.match(tool('list').stdout, `${id}\tactive\t`)
  assert.is(tool('revoke', id).status, 0)
  assert.is(tool('revoke', id).status, 1)
  assert.is(tool('bogus').status, 2)
})

test('list starts with a header row; revoke takes the whole key and never prints its secret', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keys-tool-'))
  const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '' }
  const tool = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, 'dist', 'tools', 'keys.js'), ...args], { env, encoding: 'utf8', timeout: 30_000 })
  const key = tool('issue').stdout.trim().split('\n').pop()!
  const [id, secret] = key.split('.') as [string, string]
  assert.is(tool('list').stdout.split('\n')[0], 'id\tstatus\tcreated_at\tlabel')
  const revoked = tool('revoke', key)
  assert.is(revoked.status, 0, revoked.stderr)
  assert.is(revoked.stdout, `revoked ${id}\n`)
  const again = tool('revoke', key)
  assert.is(again.status, 1)
  assert.not.ok((again.stdout + again.stderr + revoked.stderr).includes(secret), 'the secret is never printed')
})

test.run()
