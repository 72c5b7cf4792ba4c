/**
 * The README is where callers read the fields: every request field of every endpoint has a row in
 * the field table of that endpoint's section (a `### POST …` heading naming one of its paths), so a
 * field added to a manifest without a word for callers fails here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { catalog } from '../helpers.js'

const test = suite('README: a row for every request field')
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const sections = readme.split(/^(?=### )/m)

for (const endpoint of catalog().endpoints) {
  test(`${endpoint.operation_id}: every request field is in its README table`, () => {
    const section = sections.find((s) => endpoint.paths.some((p) => s.split('\n')[0]!.includes(`POST ${p}`)))
    assert.ok(section, `a README section headed with POST ${endpoint.paths[0]}`)
    // A row's first cell may name several fields ("prior_taxable_gifts, spouse_prior_taxable_gifts").
    const named = new Set(section!.split('\n').filter((l) => l.startsWith('| ')).flatMap((l) => l.split('|')[1]!.split(',').map((n) => n.trim())))
    const missing = Object.keys((endpoint.request.properties ?? {}) as Record<string, unknown>).filter((f) => !named.has(f))
    assert.equal(missing, [], `fields with no README row in "${section!.split('\n')[0]}"`)
  })
}

test.run()
