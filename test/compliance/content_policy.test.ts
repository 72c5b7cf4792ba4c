// POST /content-policy/check over HTTP, and the analyst's two edits docs/decisions/compliance_data.md describes, each made in a
// fixture copy of the rules and tables with no TypeScript: a new accepted phrase (a row of the FTC's
// declared list) and a new platform (one rule file and one table file, and its row in the list of
// loaded platforms). Whatever the edit, the engine matches the declared lists; no code knows a platform.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadCatalog } from '../../service/index.js'
import { ENDPOINTS_DIR, RULES_DIR, TABLES_DIR } from '../../service/project/paths.js'
import { catalogWithEdits, post, startService } from '../helpers.js'

const test = suite('content policy')
const PATH = '/content-policy/check'
const GIFTED = { platform: 'instagram', format: 'image', publication_date: '2026-12-01', text: '#gifted by Acme, my new blender', material_connection: 'free_product', platform_disclosure_tool_used: true }

test('an unknown platform is refused with the loaded ones, and every answer lists its policies with their dates', async () => {
  const service = await startService()
  try {
    const bad = await post(service, PATH, { platform: 'Snapchat', format: 'image', publication_date: '2026-12-01' })
    assert.is(bad.status, 400, bad.text)
    assert.is(bad.json.error.code, 'unsupported_parameter')
    const detail = bad.json.error.details.find((d: { field: string }) => d.field === 'platform')
    assert.match(detail.message, /loaded: .*facebook.*instagram.*tiktok.*x.*youtube/)
    for (const platform of ['youtube', 'instagram', 'facebook', 'tiktok', 'x']) {
      const ok = await post(service, PATH, { platform, format: 'video', publication_date: '2026-12-01', material_connection: 'paid' })
      assert.is(ok.status, 200, ok.text)
      const policies = ok.json.result.policies_used as { url: string; retrieved: string }[]
      assert.ok(policies.length >= 3, `${platform}: the FTC's two texts and the platform's`)
      for (const p of policies) {
        assert.match(p.url, /^https:\/\//)
        assert.match(p.retrieved, /^\d{4}-\d{2}-\d{2}$/)
      }
      assert.ok((ok.json.result.notes as string[]).some((n) => n.startsWith('Platform policies change')), platform)
    }
  } finally {
    await service.close()
  }
})

test('an analyst adds an accepted phrase as one row of the FTC list, and the same text then discloses', async () => {
  const before = await startService()
  try {
    const r = await post(before, PATH, GIFTED)
    assert.is(r.status, 200, r.text)
    assert.is(r.json.result.ftc.text_disclosure.found, false, '#gifted is not in the declared list')
  } finally {
    await before.close()
  }
  const edited = catalogWithEdits({
    'tables/content_policy/ftc.yaml': (text) => {
      const anchor = '          - { phrase: hashtag_ad,'
      assert.ok(text.includes(anchor))
      const row = `          - { phrase: gifted, label: "#gifted", pattern: '(?i)#gifted\\b', connections: "free_product", buried_pattern: "", source: "fixture" }\n`
      return text.replace(anchor, row + anchor)
    },
  })
  const after = await startService(edited)
  try {
    const r = await post(after, PATH, GIFTED)
    assert.is(r.status, 200, r.text)
    assert.is(r.json.result.ftc.text_disclosure.found, true)
    assert.is(r.json.result.ftc.text_disclosure.phrase, '#gifted')
    assert.is(r.json.result.ftc.text_disclosure.position, 0)
    // It discloses a gift, not a payment: the row's connections say so.
    const paid = await post(after, PATH, { ...GIFTED, material_connection: 'paid' })
    assert.is(paid.json.result.ftc.text_disclosure.found, false)
  } finally {
    await after.close()
  }
})

test('an analyst adds a platform as YAML only: a rule file, a table file and a row, and it is loaded', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'analyst-platform-'))
  cpSync(RULES_DIR, join(dir, 'rules'), { recursive: true })
  cpSync(TABLES_DIR, join(dir, 'tables'), { recursive: true })
  cpSync(ENDPOINTS_DIR, join(dir, 'endpoints'), { recursive: true })
  // A made-up platform that copies X's rules under another name and requires "#sponsored" instead of "#ad".
  const rules = readFileSync(join(dir, 'rules/content_policy/platform/x.yaml'), 'utf8')
  writeFileSync(join(dir, 'rules/content_policy/platform/fixturegram.yaml'), rules.replace('title: X Paid Partnerships Policy', 'title: Fixturegram'))
  const tables = readFileSync(join(dir, 'tables/content_policy/platform/x.yaml'), 'utf8')
  writeFileSync(
    join(dir, 'tables/content_policy/platform/fixturegram.yaml'),
    tables.replace('"2026-03-01": { value: "X", unverified:', '"2026-03-01": { value: "Fixturegram", unverified:').replace(`label: "#ad", pattern: '(?i)#ad\\b'`, `label: "#sponsored", pattern: '(?i)#sponsored\\b'`),
  )
  const list = join(dir, 'tables/content_policy/check.yaml')
  writeFileSync(list, readFileSync(list, 'utf8').replace('          - { platform: instagram,', '          - { platform: fixturegram, name: "Fixturegram" }\n          - { platform: instagram,'))
  const service = await startService(loadCatalog({ rulesDir: join(dir, 'rules'), tablesDir: join(dir, 'tables') }))
  try {
    const post1 = { platform: 'fixturegram', format: 'text', publication_date: '2026-12-01', material_connection: 'paid' }
    const withAd = await post(service, PATH, { ...post1, text: 'Great blender #ad' })
    assert.is(withAd.status, 200, withAd.text)
    assert.is(withAd.json.result.platform_name, 'Fixturegram')
    assert.is(withAd.json.result.platform_policy.text_disclosure.found, false, 'its own declared phrase is #sponsored')
    const withSponsored = await post(service, PATH, { ...post1, text: 'Great blender #sponsored' })
    assert.is(withSponsored.json.result.platform_policy.text_disclosure.found, true)
    assert.is(withSponsored.json.result.compliant, true)
    const unknown = await post(service, PATH, { ...post1, platform: 'snapchat' })
    assert.match(unknown.text, /fixturegram/)
  } finally {
    await service.close()
  }
})

test.run()
