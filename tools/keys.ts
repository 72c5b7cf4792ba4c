/**
 * @module Issue, list and revoke API keys in the key store (DATA_DIR/keys.json).
 *
 *   node dist/tools/keys.js issue [--label TEXT]   prints the full key once
 *   node dist/tools/keys.js list
 *   node dist/tools/keys.js revoke KEY_ID
 */
import { join } from 'node:path'
import { FileKeyStore } from '../server/keys.js'
import { DATA_DIR } from '../engine/project/paths.js'

const [command, ...rest] = process.argv.slice(2)
const store = new FileKeyStore(join(DATA_DIR, 'keys.json'))

switch (command) {
  case 'issue': {
    const i = rest.indexOf('--label')
    const label = i >= 0 && rest[i + 1] ? rest[i + 1]! : 'issued by tools/keys'
    const { id, key } = await store.issue(label)
    console.log(`issued ${id}; the key is shown only this once:\n${key}`)
    break
  }
  case 'list':
    for (const k of await store.list()) console.log(`${k.id}\t${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\t${k.created_at}\t${k.label}`)
    break
  case 'revoke': {
    const id = rest[0]
    if (!id) {
      console.error('usage: keys revoke KEY_ID')
      process.exit(2)
    }
    if (!(await store.revoke(id))) {
      console.error(`no active key ${id}`)
      process.exit(1)
    }
    console.log(`revoked ${id}`)
    break
  }
  default:
    console.error('usage: keys issue [--label TEXT] | keys list | keys revoke KEY_ID')
    process.exit(2)
}
