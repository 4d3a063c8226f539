/**
 * The consumer's end of an app stream: a chunked HTTP answer, one JSON
 * message per line (an event in its envelope, or a control object), a blank
 * line every 30 s while idle.
 *
 * At the maximum create rate the hub hands over a batch of events in one
 * turn of the event loop: their lines go out together at the end of that
 * turn, in one chunk and one write to the socket instead of one each.
 */
import type { PassThrough } from 'node:stream'
import type { AppStreamItem, AppStreamMessage, AppStreamSink, DomainViews, FileService, Viewer } from '../../data/index.js'
import type { PresentContext } from '../present/context.js'
import { presentPostsJson } from '../present/posts/post.js'
import { presentAppEventData } from '../present/streams/app-stream-event.js'
import { ChunkedLines } from './chunked-lines.js'
import { KEEP_ALIVE_MS } from './stream-sinks.js'

/**
 * JSON text already made: of rendered data (a post comes presented as text)
 * and of whole messages. The hub hands every stream of an app the same
 * message object, so each is serialized once however many streams write it.
 */
const jsonOf = new WeakMap<object, string>()

const lineOf = (message: AppStreamMessage): string => {
  let line = jsonOf.get(message)
  if (line !== undefined) return line
  if (!('meta' in message) || typeof message.data !== 'object' || message.data === null) line = JSON.stringify(message)
  else {
    let data = jsonOf.get(message.data)
    if (data === undefined) jsonOf.set(message.data, (data = JSON.stringify(message.data)))
    line = `{"meta":${JSON.stringify(message.meta)},"data":${data}}`
  }
  jsonOf.set(message, line)
  return line
}

export class AppChunkedSink implements AppStreamSink {
  readonly renderKey: string
  private closed = false
  private readonly lines: ChunkedLines
  private readonly ctx: PresentContext
  private readonly keepAlive: NodeJS.Timeout
  /** Lines written in this turn of the event loop, sent at its end. */
  private pending: string[] = []
  private sending: NodeJS.Immediate | null = null
  /** While the socket's buffer is full: resolves once it has room again. */
  private room: Promise<void> | null = null

  private readonly files: FileService

  constructor(out: PassThrough, views: DomainViews, baseUrl: string, viewer: Viewer) {
    this.files = views.files
    this.lines = new ChunkedLines(out)
    this.renderKey = baseUrl
    this.ctx = { views, viewer, baseUrl, options: { include_annotations: true }, streamed: true }
    this.keepAlive = setInterval(() => this.lines.ping(), KEEP_ALIVE_MS)
    this.keepAlive.unref()
  }

  async render(item: AppStreamItem): Promise<unknown> {
    if (item.data.shape !== 'post') return presentAppEventData(this.ctx, this.files, item)
    // A post is presented as JSON text: parsed for the filters, and the text itself kept for the line.
    const raw = (await presentPostsJson(this.ctx, [item.data.post]))[0].object()
    const data = raw.toJSON()
    jsonOf.set(data, raw.json)
    return data
  }

  write(message: AppStreamMessage): Promise<void> | void {
    // While the socket is full the hub waits; otherwise the line joins this turn's chunk at once.
    if (this.room) return this.room.then(() => this.write(message))
    if (this.closed) return
    this.pending.push(lineOf(message))
    this.sending ??= setImmediate(() => this.send())
  }

  close(last: AppStreamMessage | null): void {
    if (this.closed) return
    const rest = last === null ? this.pending : [...this.pending, lineOf(last)]
    this.gone()
    this.lines.end(rest.length === 0 ? null : rest.join('\r\n'))
  }

  /** The socket went away on its own. */
  gone(): void {
    this.closed = true
    this.pending = []
    if (this.sending) clearImmediate(this.sending)
    this.sending = null
    clearInterval(this.keepAlive)
  }

  private send(): void {
    this.sending = null
    if (this.closed || this.pending.length === 0) return
    const text = this.pending.join('\r\n')
    this.pending = []
    // A socket that fails closes too, and the route's close handler ends the stream: nothing waits on the error.
    const room = this.lines
      .write(text)
      .catch(() => undefined)
      .finally(() => {
        if (this.room === room) this.room = null
      })
    this.room = room
  }
}
