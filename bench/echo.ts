/**
 * @module The bare baseline: a Koa JSON echo with the service's own middleware stack (@koa/router,
 * koa-bodyparser), so the bench measures what the rules add, not what Koa costs. POST /echo parses the
 * body and answers a JSON body of the size asked in `?bytes=` (the size of the service's answer for
 * the same request). WORKERS > 1 runs one worker per core, as `npm start` does.
 */
import cluster from 'node:cluster'
import Koa from 'koa'
import Router from '@koa/router'
import bodyParser from 'koa-bodyparser'

const port = Number(process.env.PORT ?? 8081)
const workers = Number(process.env.WORKERS ?? 1)

function serve() {
  const app = new Koa()
  const router = new Router()
  router.post('/echo', (ctx) => {
    const body = (ctx.request as { body?: unknown }).body
    const echoed = JSON.stringify(body)
    const bytes = Number(ctx.query.bytes ?? 0)
    ctx.body = { result: body, padding: 'x'.repeat(Math.max(0, bytes - echoed.length - 25)) }
  })
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: '64kb', strict: true }))
  app.use(router.routes())
  app.use(router.allowedMethods())
  app.listen(port, '127.0.0.1', () => console.log(`echo listening on ${port}`))
}

if (workers > 1 && cluster.isPrimary) for (let i = 0; i < workers; i++) cluster.fork()
else serve()
