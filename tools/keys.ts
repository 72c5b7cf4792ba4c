/**
 * @module Issue, list and revoke API keys in the key store the service uses: PostgreSQL when
 * DATABASE_URL is set, else DATA_DIR/keys.json. Says on stderr which store it used.
 *
 *   node dist/tools/keys.js issue [--label TEXT]   prints the full key once
 *   node dist/tools/keys.js list
 *   node dist/tools/keys.js revoke KEY_ID          (the full key is accepted too; its secret is never printed)
 */
import { answerHelp } from './help.js'
import { openKeyStore, type KeyStore } from '../service/keys.js'

answerHelp(import.meta.url)

const USAGE = 'usage: keys issue [--label TEXT] | keys list | keys revoke KEY_ID'
const [command, ...rest] = process.argv.slice(2)
if (command !== 'issue' && command !== 'list' && command !== 'revoke') {
  console.error(USAGE)
  process.exit(2)
}
if (command === 'revoke' && !rest[0]) {
  console.error('usage: keys revoke KEY_ID')
  process.exit(2)
}

let store: KeyStore
try {
  store = await openKeyStore()
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
console.error(`key store: ${store.description}`)

try {
  switch (command) {
    case 'issue': {
      const i = rest.indexOf('--label')
      const label = i >= 0 && rest[i + 1] ? rest[i + 1]! : 'issued by tools/keys'
      const { id, key } = await store.issue(label)
      console.log(`issued ${id}; the key is shown only this once:\n${key}`)
      break
    }
    case 'list':
      console.log('id\tstatus\tcreated_at\tlabel')
      for (const k of await store.list()) console.log(`${k.id}\t${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}\t${k.created_at}\t${k.label}`)
      break
    case 'revoke': {
      // A whole key pasted instead of its id is read as its id: the part before the dot. The secret
      // after it is never echoed, in an answer or an error.
      const id = rest[0]!.split('.')[0]!
      if (!(await store.revoke(id))) {
        console.error(`no active key ${id}`)
        process.exitCode = 1
        break
      }
      console.log(`revoked ${id}`)
      break
    }
  }
} catch (error) {
  console.error(`key store ${store.description}: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  await store.close()
}
