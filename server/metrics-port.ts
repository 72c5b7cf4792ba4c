/**
 * @module GET /metrics on a port of its own (METRICS_PORT): a small node:http server that answers
 * only that route, so the operator's scraper reaches it on the pod's second port while the service
 * port (the one an ingress or a load balancer exposes) does not serve metrics at all.
 */
import { createServer, type Server } from 'node:http'

const TEXT = 'text/plain; version=0.0.4; charset=utf-8'

/** Listen on `port` and `host` and answer GET /metrics with `text()`; anything else is a JSON 404 or 405. */
export function serveMetricsPort(port: number, host: string, text: () => Promise<string>): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers })
      res.end(req.method === 'HEAD' ? undefined : body)
    }
    const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
      send(status, 'application/json', JSON.stringify({ error: { code, message, details: [] } }), headers)
    if (path !== '/metrics') return error(404, 'not_found', `this port serves only GET /metrics, not ${path}`)
    if (req.method !== 'GET' && req.method !== 'HEAD') return error(405, 'method_not_allowed', `${req.method} is not allowed on /metrics; allowed: GET`, { allow: 'GET, HEAD' })
    text().then(
      (body) => send(200, TEXT, body),
      (e: Error) => {
        console.error('metrics could not be gathered:', e.message)
        error(500, 'internal_error', 'internal error')
      },
    )
  })
  // A scrape is small and quick: the same bounds as the service's own port, tighter.
  server.requestTimeout = 10_000
  server.headersTimeout = 5_000
  return server.listen(port, host)
}
