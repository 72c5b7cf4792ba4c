// The clause engine's agreement with the curated analyses, as docs/decisions/compliance_data.md records it: the tool runs, and
// the block between the tos-agreement markers is exactly what it computes now (so it cannot drift).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { agreementBlock, measureAgreement, recordedBlock, type Agreement } from '../../tools/tos-agreement.js'
import { catalog } from '../helpers.js'

const test = suite('tos/agreement: the clause engine against the curated verdicts')
// One measurement for both tests: it reads every curated document.
let measured: Promise<Agreement> | undefined
const measure = () => (measured ??= measureAgreement(catalog()))

test('every curated document is measured on the six dimensions', async () => {
  const a = await measure()
  const services = [...catalog().families!.get('tos.services')!.members.keys()]
  assert.ok(a.documents > 0)
  assert.is(a.documents, services.length)
  assert.equal(a.dimensions, ['commercial_use', 'machine_learning_training', 'scraping_automated_access', 'redistribution', 'attribution', 'rate_limits'])
  assert.is(a.comparisons.length, a.documents * 6)
  for (const c of a.comparisons) assert.ok(['allowed', 'conditional', 'prohibited', 'silent'].includes(c.engine), `${c.service} ${c.dimension}: ${c.engine}`)
})

test('docs/decisions/compliance_data.md records the agreement the tool computes now', async () => {
  const recorded = recordedBlock(readFileSync(join(ROOT, 'docs', 'decisions', 'compliance_data.md'), 'utf8'))
  assert.ok(recorded, 'docs/decisions/compliance_data.md has the tos-agreement block')
  assert.fixture(recorded!, agreementBlock(await measure()))
})

test.run()
