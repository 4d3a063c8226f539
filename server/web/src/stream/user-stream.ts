/**
 * One user stream per signed-in tab (WebSocket at `/stream/user`). Lists
 * subscribe by calling their REST endpoint with `connection_id` and a
 * `subscription_id` of ours, so events can be routed before that call
 * returns. A dropped connection comes back with the same `connection_id`
 * (the server keeps the subscriptions for a few minutes); when the server
 * starts a new one instead, every list is told to subscribe again.
 */
import type { UserStreamConnection, UserStreamEvent } from '../../../api'

type Handler = (event: UserStreamEvent) => void

const RETRY_MS = [1000, 2000, 5000, 10000, 30000]

export class UserStream {
  private socket: WebSocket | null = null
  private connectionId: string | null = null
  private ready: Promise<string>
  private resolveReady: (id: string) => void = () => undefined
  private handlers = new Map<string, Handler>()
  private resetListeners = new Set<() => void>()
  private attempts = 0
  private closed = false

  constructor(private readonly token: string) {
    this.ready = new Promise((resolve) => (this.resolveReady = resolve))
    this.connect()
  }

  /** The connection id to subscribe with, once the stream is open. */
  connection(): Promise<string> {
    return this.ready
  }

  /** Routes events of `subscriptionId` to `handler` until the answer's function is called. */
  listen(subscriptionId: string, handler: Handler): () => void {
    this.handlers.set(subscriptionId, handler)
    return () => {
      this.handlers.delete(subscriptionId)
      const id = this.connectionId
      if (id && !this.closed)
        void fetch(`/stream/0/users/me/streams/${id}/${subscriptionId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${this.token}` } }).catch(
          () => undefined,
        )
    }
  }

  /** Calls `listener` when the server started a new stream and subscriptions must be made again. */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener)
    return () => this.resetListeners.delete(listener)
  }

  close(): void {
    this.closed = true
    this.socket?.close()
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws'
    const params = new URLSearchParams({ access_token: this.token })
    if (this.connectionId) params.set('connection_id', this.connectionId)
    const socket = new WebSocket(`${scheme}://${location.host}/stream/user?${params}`)
    this.socket = socket
    socket.onmessage = (message) => this.receive(String(message.data))
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return
      this.ready = new Promise((resolve) => (this.resolveReady = resolve))
      const delay = RETRY_MS[Math.min(this.attempts++, RETRY_MS.length - 1)]
      setTimeout(() => this.connect(), delay)
    }
  }

  private receive(text: string): void {
    let event: UserStreamEvent | UserStreamConnection
    try {
      event = JSON.parse(text) as UserStreamEvent | UserStreamConnection
    } catch {
      return
    }
    // The first frame: the connection's id alone.
    if (!('data' in event)) {
      if (!event.meta?.connection_id) return
      const resumed = this.connectionId === event.meta.connection_id
      const first = this.connectionId === null
      this.connectionId = event.meta.connection_id
      this.attempts = 0
      this.resolveReady(this.connectionId)
      if (!resumed && !first) for (const listener of this.resetListeners) listener()
      return
    }
    for (const id of event.meta?.subscription_ids ?? []) this.handlers.get(id)?.(event)
  }
}
