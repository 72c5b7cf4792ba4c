/**
 * @module The documentation page at GET /docs: Swagger UI rendering /openapi.json, served from the
 * installed swagger-ui-dist package (the service may run with no internet, so nothing from a CDN);
 * and the generated reference pages of docs/api/ at GET /docs/api/<suite>.md, which each operation
 * links to (OpenAPI `externalDocs`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type Router from '@koa/router'
import { ROOT } from '../service/project/paths.js'

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))

/** The package files the page loads, and their media types; nothing else of the package is served. */
// A Map, not a plain object: a lookup of `__proto__` or `toString` on an object literal finds
// Object.prototype's members, and /docs/__proto__ was a 500.
const ASSETS = new Map<string, string>([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
])

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Rules-as-code calculation service: API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`

// No validator badge: Swagger UI would send the document to validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
})
`

/** The reference pages, by file name: only the Markdown files docs/api/ holds at start are served. */
const API_DIR = join(ROOT, 'docs', 'api')
const PAGES = new Set(existsSync(API_DIR) ? readdirSync(API_DIR).filter((f) => f.endsWith('.md')) : [])

export function docsRoutes(router: Router): void {
  const cache = new Map<string, Buffer>()
  // As plain text, which every browser shows in place (Markdown is read as written).
  router.get('/docs/api/:page', (ctx, next) => {
    const name = String(ctx.params.page)
    if (!PAGES.has(name)) return next()
    ctx.type = 'text/plain; charset=utf-8'
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.body = readFileSync(join(API_DIR, name))
  })
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8'
    ctx.body = PAGE
  })
  router.get('/docs/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8'
    ctx.body = INIT
  })
  router.get('/docs/:asset', (ctx, next) => {
    const name = String(ctx.params.asset)
    const type = ASSETS.get(name)
    if (!type) return next()
    let body = cache.get(name)
    if (!body) cache.set(name, (body = readFileSync(join(distDir, name))))
    ctx.type = type
    ctx.set('Cache-Control', 'public, max-age=86400')
    ctx.body = body
  })
}
