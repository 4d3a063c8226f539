/**
 * What the app stream hub and its transport share: the log as the hub reads
 * it, the consumer's end of a stream (the sink), the messages it writes, and
 * the facts the console shows.
 */
import type { DomainEvent } from '../model/event.js'
import type { AppStreamRow } from '../model/app-stream.js'
import type { AppStreamItem } from './app-stream-events.js'

/** The event log as this hub reads it. */
export interface AppEventSource {
  head(): number
  oldest(): number
  after(seq: number, limit: number): Promise<DomainEvent[]>
  onAny(listener: (event: DomainEvent) => void): () => void
  holdFrom(floor: () => number): () => void
}

/** An event's message as every stream of one app writes it. */
export type SharedMessage = { meta: Record<string, unknown>; data?: unknown }

/** One message of an app stream: an event in its envelope, or a control object. */
export type AppStreamMessage = SharedMessage | { control: Record<string, unknown> }

/** The consumer's end of an app stream, provided by the transport. */
export interface AppStreamSink {
  /** Renders an item's objects (the API's own shapes) for this consumer; `key` names what the rendering depends on, for sharing it. */
  readonly renderKey: string
  render(item: AppStreamItem): Promise<unknown>
  /** Writes one message; answers a promise only when the transport must be waited for (a full socket). */
  write(message: AppStreamMessage): Promise<void> | void
  /** Ends the connection, with a last control message when there is one. */
  close(last: AppStreamMessage | null): void
}

export interface ConnectOptions {
  /** Skip what was queued before this connect. */
  purge?: boolean
  /** Delete the stream when this consumer leaves. */
  autoDelete?: boolean
}

/** A stream as the console shows it. */
export interface AppStreamFacts {
  stream: AppStreamRow
  connected: boolean
  /** Events between the stream's cursor and the log's head. */
  queueDepth: number
  queueLimit: number
}
