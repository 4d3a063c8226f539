/**
 * The floor under the yardstick: Node's own HTTP server, no framework,
 * answering the constant route's body (`GET|POST /constant/{bytes}`). What
 * the load generator and this machine allow any Node server at all; hapi's
 * constant route stands between it and svc. Prints its port once listening.
 */
import http from 'node:http'
import { constantBodies } from './constant-body.js'

const bodyOf = constantBodies((text) => Buffer.from(text))

const server = http.createServer((req, res) => {
  const bytes = Math.min(Number(/^\/constant\/(\d+)/.exec(req.url ?? '')?.[1]) || 0, 10_000_000)
  req.resume()
  req.on('end', () => {
    const body = bodyOf(bytes)
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as { port: number }).port}\n`))
process.on('SIGTERM', () => server.close(() => process.exit(0)))
