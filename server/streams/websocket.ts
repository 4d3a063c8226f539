/**
 * The WebSocket flavour of the user stream. hapi does not speak WebSocket,
 * so the upgrade is taken from its listener: the handshake is first run
 * through hapi as an ordinary request to `/stream/user` (token, rate limit
 * and query checked by the same route), and only when that passes does `ws`
 * complete the upgrade. A refused handshake gets the route's HTTP answer,
 * envelope and status included, on the raw socket.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { Server } from '@hapi/hapi'
import { WebSocketServer } from 'ws'
import type { DomainViews, OpenedStream, StreamDisplayOptions, StreamServices } from '../../data/index.js'
import { presentConnectionFrame } from '../present/streams/stream-event.js'
import { WebSocketSink } from './stream-sinks.js'

export const UPGRADE_PROBE = 'svcUpgrade'

/** What the probe request hands back to the upgrade. */
export interface UpgradeProbe {
  opened?: OpenedStream
  options?: StreamDisplayOptions
  baseUrl?: string
}

/** Answers a refused handshake with the HTTP response hapi gave, then hangs up. */
function refuse(socket: Duplex, status: number, headers: Record<string, unknown>, body: string): void {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`]
  for (const [name, value] of Object.entries(headers)) {
    if (!['connection', 'content-length', 'transfer-encoding'].includes(name.toLowerCase())) lines.push(`${name}: ${String(value)}`)
  }
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`)
}

export function serveUserStreamWebSockets(server: Server, hub: StreamServices['hub'], views: DomainViews): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 })
  server.listener.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(req, socket, head).catch(() => socket.destroy())
  })

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://svc')
    if (url.pathname !== '/stream/user') {
      refuse(socket, 404, { 'content-type': 'application/json' }, JSON.stringify({ meta: { code: 404, error_message: 'Not found' } }))
      return
    }
    const probe: UpgradeProbe = {}
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['upgrade', 'connection', 'sec-websocket-key'].includes(name)))
    const res = await server.inject({
      method: 'GET',
      url: req.url ?? '/stream/user',
      headers: headers as Record<string, string>,
      remoteAddress: req.socket.remoteAddress,
      plugins: { [UPGRADE_PROBE]: probe },
    })
    const { opened, options, baseUrl } = probe
    if (res.statusCode !== 200 || !opened || !options) {
      refuse(socket, res.statusCode, res.headers, res.payload)
      return
    }
    if (socket.destroyed) {
      await hub.abandon(opened)
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const sink = new WebSocketSink(ws, views, baseUrl ?? '', options)
      // Frames from the client ("ping", or its first message) are tolerated and ignored.
      ws.on('message', () => {})
      ws.on('error', () => ws.terminate())
      ws.send(presentConnectionFrame(opened.connectionId))
      ws.once('close', () => {
        sink.gone()
        void hub.disconnected(opened.connectionId, sink)
      })
      hub.attach(opened, sink).catch((err: Error) => ws.close(4000, Buffer.from(err.message).subarray(0, 123).toString()))
    })
  }
}
