/**
 * The user-streams benchmark's yardstick: a bare `ws` server (no hapi, no
 * store) that holds the same WebSockets and, for each `POST /publish`
 * (`{"id": N, "to": [socket indexes], "bytes": B}`), sends a frame of B bytes
 * naming post N to each of those sockets, then answers. Clients connect to
 * `/?i=INDEX`. What node and `ws` alone cost for the same fan-out. Prints its
 * port on stdout once listening.
 */
import http from 'node:http'
import { WebSocketServer, type WebSocket } from 'ws'

const sockets = new Map<number, WebSocket>()
const wss = new WebSocketServer({ noServer: true })

const server = http.createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (chunk: string) => (body += chunk))
  req.on('end', () => {
    const { id, to, bytes } = JSON.parse(body) as { id: number; to: number[]; bytes: number }
    const shell = `{"meta":{"code":200,"min_id":"${id}","max_id":"${id}","more":false,"type":"post"},"data":""}`
    const frame = shell.replace('""}', `"${'x'.repeat(Math.max(0, bytes - shell.length))}"}`)
    for (const i of to) sockets.get(i)?.send(frame)
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"meta":{"code":200},"data":{"id":"${id}"}}`)
  })
})
server.on('upgrade', (req, socket, head) => {
  const i = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('i'))
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.set(i, ws)
    ws.on('close', () => sockets.get(i) === ws && sockets.delete(i))
    ws.send('{"meta":{"connection_id":"x"}}')
  })
})
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`)
})
process.on('SIGTERM', () => process.exit(0))
