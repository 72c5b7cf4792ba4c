/**
 * @module The playground at GET /playground: a page where a person picks a calculator, fills a form
 * built from its request schema in /openapi.json, and reads the answer (figures, notes, citations,
 * the explanation, and a chart where one helps). Plain static files from server/playground/, with
 * uPlot from the installed package for the charts: nothing from a CDN, no build step.
 *
 * No key is needed to load the page; the calculations it sends carry the key the person pastes,
 * which stays in the page (sessionStorage at most). The Content-Security-Policy holds the page to
 * its own origin, so neither the key nor an answer can be sent anywhere else.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Context } from 'koa'
import type Router from '@koa/router'

// The page's own files sit beside this module's source (server/playground/), which the image ships:
// found from this file in dist/server/ or server/, never from the working directory.
const PAGE_DIR = fileURLToPath(new URL('../../server/playground/', import.meta.url))
const UPLOT_DIR = join(dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist')

// A Map, not an object literal: /playground/__proto__ must be a 404, not Object.prototype (docs.ts).
const ASSETS = new Map<string, { file: string; type: string }>([
  ['playground.js', { file: join(PAGE_DIR, 'playground.js'), type: 'application/javascript; charset=utf-8' }],
  ['playground.css', { file: join(PAGE_DIR, 'playground.css'), type: 'text/css; charset=utf-8' }],
  ['uPlot.iife.min.js', { file: join(UPLOT_DIR, 'uPlot.iife.min.js'), type: 'application/javascript; charset=utf-8' }],
  ['uPlot.min.css', { file: join(UPLOT_DIR, 'uPlot.min.css'), type: 'text/css; charset=utf-8' }],
])

// Scripts, styles and calls only to this origin; citation links open other sites, which a
// navigation may. Canvas charts need no image source; `data:` is the favicon's.
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

function secure(ctx: Context): void {
  ctx.set('Content-Security-Policy', POLICY)
  ctx.set('X-Content-Type-Options', 'nosniff')
  // A citation link opened from the page tells the other site nothing of it.
  ctx.set('Referrer-Policy', 'no-referrer')
}

/** GET /playground and its files. @api public */
export function playgroundRoutes(router: Router): void {
  const cache = new Map<string, Buffer>()
  const read = (file: string): Buffer => {
    let body = cache.get(file)
    if (!body) cache.set(file, (body = readFileSync(file)))
    return body
  }
  router.get('/playground', (ctx) => {
    secure(ctx)
    ctx.type = 'text/html; charset=utf-8'
    ctx.body = read(join(PAGE_DIR, 'index.html'))
  })
  router.get('/playground/:asset', (ctx, next) => {
    const asset = ASSETS.get(String(ctx.params.asset))
    if (!asset) return next()
    secure(ctx)
    ctx.type = asset.type
    ctx.set('Cache-Control', 'no-cache')
    ctx.body = read(asset.file)
  })
}
