/**
 * `GET /metrics` on a port of its own on 127.0.0.1 (`svc serve
 * --metrics-port`, `metrics_port` in config.json): off the public port, so
 * only this machine (a Prometheus beside it, or a tunnel the operator
 * chose) reads the instance's numbers.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

export interface MetricsServer {
  url: string
  close(): Promise<void>
}

export async function serveMetrics(registry: Registry, port: number): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(path === '/metrics' ? 405 : 404, { 'content-type': 'text/plain; charset=utf-8' })
        .end(path === '/metrics' ? 'GET only\n' : 'not found: metrics are at /metrics\n')
      return
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics failed: ${(err as Error).message}\n`),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port: bound } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
