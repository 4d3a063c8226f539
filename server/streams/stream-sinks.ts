/**
 * The consumer's end of a user stream, one per transport: a WebSocket (one
 * frame per event) or a chunked HTTP answer (one line per event, `\r\n`
 * after each, blank lines to keep idle connections open). Each renders an
 * event with the presenter and writes it at once; while the socket's buffer
 * is full the sink says it is not ready, and the hub waits for it off its
 * delivery lanes: a consumer that stops reading holds up only its own
 * stream, whose backlog then disconnects it.
 */
import type { PassThrough } from 'node:stream'
import type { WebSocket } from 'ws'
import type { DomainViews, StreamDelivery, StreamDisplayOptions, StreamSink } from '../../data/index.js'
import type { UserStreamEnd } from '../api/index.js'
import type { PresentContext } from '../present/context.js'
import { presentStreamEvent } from '../present/streams/stream-event.js'
import { ChunkedLines } from './chunked-lines.js'

/** How often an idle stream shows it is alive. */
export const KEEP_ALIVE_MS = 30_000
/**
 * Bytes a WebSocket may have unsent before the stream waits for it. Small,
 * because it is per connection (10,000 consumers that stop reading would
 * otherwise hold gigabytes); the hub's backlog of events, shared objects,
 * holds the rest.
 */
const HIGH_WATER = 64 * 1024

const contextFor = (views: DomainViews, baseUrl: string, options: StreamDisplayOptions, d: StreamDelivery): PresentContext => ({
  views,
  viewer: d.viewer,
  baseUrl,
  options,
  streamed: true,
})

abstract class RenderingSink implements StreamSink {
  closed = false
  private readonly keepAlive: NodeJS.Timeout

  constructor(
    private readonly views: DomainViews,
    private readonly baseUrl: string,
    private readonly options: StreamDisplayOptions,
  ) {
    this.keepAlive = setInterval(() => this.ping(), KEEP_ALIVE_MS)
    this.keepAlive.unref()
  }

  async send(delivery: StreamDelivery): Promise<void> {
    if (this.closed) return
    const json = await presentStreamEvent(contextFor(this.views, this.baseUrl, this.options, delivery), delivery)
    if (!this.closed) this.write(json)
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

  abstract whenReady(): Promise<void> | null
  protected abstract write(json: string): void
  protected abstract ping(): void
  protected abstract end(reason: string): void
}

export class WebSocketSink extends RenderingSink {
  constructor(
    private readonly socket: WebSocket,
    views: DomainViews,
    baseUrl: string,
    options: StreamDisplayOptions,
  ) {
    super(views, baseUrl, options)
  }

  whenReady(): Promise<void> | null {
    if (this.socket.bufferedAmount <= HIGH_WATER || this.closed) return null
    // ws tells nobody when its buffer drains: look again a little later.
    return (async () => {
      while (this.socket.bufferedAmount > HIGH_WATER && !this.closed) await new Promise((r) => setTimeout(r, 50))
    })()
  }

  protected write(json: string): void {
    this.socket.send(json)
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
  private readonly lines: ChunkedLines

  constructor(out: PassThrough, views: DomainViews, baseUrl: string, options: StreamDisplayOptions) {
    super(views, baseUrl, options)
    this.lines = new ChunkedLines(out)
  }

  whenReady(): Promise<void> | null {
    return this.closed ? null : this.lines.drained()
  }

  protected write(json: string): void {
    this.lines.put(json)
  }

  protected ping(): void {
    this.lines.ping()
  }

  protected end(reason: string): void {
    const last: UserStreamEnd = { meta: { code: 200, disconnected: true, error_message: reason } }
    this.lines.end(JSON.stringify(last))
  }
}
