// GET /docs in a real browser: Debian's chromium driven by playwright-core. The page must render the
// OpenAPI document from the installed swagger-ui-dist (the machine has no internet), with the estate
// tax operations and the fixture endpoint added with no other change; a screenshot is saved.
// Skips, saying why, only where no chromium is installed (.ci/run installs it).
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ROOT } from '../../service/project/paths.js'
import { catalogWithNewEndpoint, startService, type Service } from '../helpers.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const SCREENSHOT = join(ROOT, 'test-output', 'docs.png')
// The machine's network is closed: without these flags chromium keeps trying to reach Google's hosts.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

const test = suite('docs page in headless Chromium')

if (!existsSync(CHROMIUM)) {
  console.log(`\n  SKIPPED the docs browser test: no chromium at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)\n`)
  test.skip('renders the estate operations and the new fixture endpoint, and saves a screenshot', () => {})
} else {
  let service: Service
  let browser: Browser
  test.before(async () => {
    service = await startService(catalogWithNewEndpoint())
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS })
  })
  test.after(async () => {
    await browser?.close()
    await service?.close()
  })

  test('renders the estate operations and the new fixture endpoint, and saves a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } })
    const external: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith(service.url)) external.push(r.url())
    })
    await page.goto(service.url + '/docs')
    await page.waitForSelector('.opblock-summary-path', { timeout: 15_000 })
    const paths = await page.locator('.opblock-summary-path').allInnerTexts()
    const ids = await page.locator('.opblock-summary-operation-id').allInnerTexts()
    for (const path of ['/estate/calculate-state-tax', '/estate/calculate-federal-tax', '/demo/flat-tax']) {
      assert.ok(paths.some((p) => p.replace(/\u200b/g, '') === path), `${path} is not on the page: ${paths.join(' ')}`)
    }
    for (const id of ['state_estate_tax', 'federal_estate_tax', 'demo_flat_tax']) assert.ok(ids.includes(id), `${id} is not on the page`)
    // Operations are grouped by the suites callers know (SPEC.md), not by folder names.
    const tags = await page.locator('.opblock-tag').allInnerTexts()
    assert.ok(tags.some((t) => t.startsWith('Estate Planning Suite')), `suite headings: ${tags.join(' | ')}`)
    assert.not.ok(tags.some((t) => /^estate(_planning)?\b/.test(t)), `folder names as headings: ${tags.join(' | ')}`)
    const summaries = await page.locator('.opblock-summary-description').allInnerTexts()
    assert.ok(summaries.some((t) => t.endsWith('(primary path)')), 'the primary path is marked')
    assert.equal(external, [], 'the page must load nothing from outside the service')
    mkdirSync(join(ROOT, 'test-output'), { recursive: true })
    await page.screenshot({ path: SCREENSHOT, fullPage: false })
    assert.ok(existsSync(SCREENSHOT))
  })
}

test.run()
