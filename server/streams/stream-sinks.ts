/**
 * The consumer's end of a user stream, one per transport: a WebSocket (one
 * frame per event) or a chunked HTTP answer (one line per event, `\r\n`
 * after each, blank lines to keep idle connections open). Each renders an
 * event with the presenter and writes it, waiting while the socket's buffer
 * is full: a consumer that stops reading holds up only its own stream, whose
 * backlog then disconnects it.
 */
import { once } from 'node:events'
import type { PassThrough } from 'node:stream'
import type { Zlib } from 'node:zlib'
import type { WebSocket } from 'ws'
import type { Domain, StreamDelivery, StreamDisplayOptions, StreamSink } from '../../data/index.js'
import type { PresentContext } from '../present/context.js'
import { presentStreamEvent } from '../present/streams/stream-event.js'

/** How often an idle stream shows it is alive. */
export const KEEP_ALIVE_MS = 30_000
/**
 * Bytes a WebSocket may have unsent before the stream waits for it. Small,
 * because it is per connection (10,000 consumers that stop reading would
 * otherwise hold gigabytes); the hub's backlog of events, shared objects,
 * holds the rest.
 */
const HIGH_WATER = 64 * 1024

const contextFor = (domain: Domain, baseUrl: string, options: StreamDisplayOptions, d: StreamDelivery): PresentContext => ({
  views: domain,
  viewer: d.viewer,
  baseUrl,
  options,
})

abstract class RenderingSink implements StreamSink {
  closed = false
  private readonly keepAlive: NodeJS.Timeout

  constructor(
    private readonly domain: Domain,
    private readonly baseUrl: string,
    private readonly options: StreamDisplayOptions,
  ) {
    this.keepAlive = setInterval(() => this.ping(), KEEP_ALIVE_MS)
    this.keepAlive.unref()
  }

  async send(delivery: StreamDelivery): Promise<void> {
    if (this.closed) return
    await this.write(await presentStreamEvent(contextFor(this.domain, this.baseUrl, this.options, delivery), delivery))
  }

  close(reason: string): void {
    if (this.closed) return
    this.closed = true
    clearInterval(this.keepAlive)
    this.end(reason)
  }

  /** The socket went away on its own. */
  gone(): void {
    this.closed = true
    clearInterval(this.keepAlive)
  }

  protected abstract write(json: string): Promise<void>
  protected abstract ping(): void
  protected abstract end(reason: string): void
}

export class WebSocketSink extends RenderingSink {
  constructor(
    private readonly socket: WebSocket,
    domain: Domain,
    baseUrl: string,
    options: StreamDisplayOptions,
  ) {
    super(domain, baseUrl, options)
  }

  protected async write(json: string): Promise<void> {
    while (this.socket.bufferedAmount > HIGH_WATER && !this.closed) await new Promise((r) => setTimeout(r, 50))
    if (!this.closed) this.socket.send(json)
  }

  protected ping(): void {
    this.socket.ping()
  }

  protected end(reason: string): void {
    // 4000-4999 are the application's own close codes; the reason is limited to 123 bytes.
    this.socket.close(4000, Buffer.from(reason).subarray(0, 123).toString())
  }
}

export class ChunkedSink extends RenderingSink {
  private compressor: Zlib | null = null

  constructor(
    private readonly out: PassThrough,
    domain: Domain,
    baseUrl: string,
    options: StreamDisplayOptions,
  ) {
    super(domain, baseUrl, options)
    // hapi gzips a stream for clients that accept it (Python's requests does) and hands its compressor
    // to a payload that asks for it: each event is flushed through at once instead of waiting for a full block.
    Object.assign(out, { setCompressor: (compressor: Zlib) => (this.compressor = compressor) })
  }

  protected async write(json: string): Promise<void> {
    const room = this.out.write(`${json}\r\n`)
    this.flush()
    if (!room) await Promise.race([once(this.out, 'drain'), once(this.out, 'close')])
  }

  protected ping(): void {
    this.out.write('\r\n')
    this.flush()
  }

  private flush(): void {
    // The line reaches the compressor on the next tick, through hapi's pipe.
    if (this.compressor) setImmediate(() => this.compressor?.flush())
  }

  protected end(reason: string): void {
    this.out.end(`${JSON.stringify({ meta: { code: 200, disconnected: true, error_message: reason } })}\r\n`)
  }
}
