/**
 * The messages of app stream events, built once and shared. An event's items
 * and their notification keys are worked out once for every stream; an
 * item's message once for all the streams of one app that render alike (the
 * same object, so a sink serializes it once too); its data once per
 * rendering. What is settled is answered without a promise, so a stream
 * reading what another already built does not wait a turn for it.
 */
import type { DomainEvent } from '../model/event.js'
import type { AppAudiences } from './app-audience.js'
import type { AppStreamSink, SharedMessage } from './app-stream-delivery.js'
import { appItemsOf, type AppStreamItem } from './app-stream-events.js'
import type { NotificationMeta, NotificationRules } from './notifications.js'

export interface Prepared {
  item: AppStreamItem
  notifications: NotificationMeta
}

/** Results kept for the other streams reading the same part of the log (up to twice as many between trims). */
const KEPT = 4096

export class AppMessages {
  /** Events being prepared, and those done. */
  private readonly prepared = new Map<number, Promise<Prepared[]>>()
  private readonly preparedNow = new Map<number, Prepared[]>()
  /** Items' messages by app, rendering and item, being built and built. */
  private readonly messages = new Map<string, Promise<SharedMessage | null>>()
  private readonly messagesNow = new Map<string, SharedMessage | null>()
  private readonly rendered = new Map<string, Promise<unknown>>()

  constructor(
    private readonly audiences: AppAudiences,
    private readonly notifications: NotificationRules,
  ) {}

  /** The event's items with their notification keys. */
  items(event: DomainEvent): Prepared[] | Promise<Prepared[]> {
    return this.preparedNow.get(event.seq) ?? this.prepare(event)
  }

  /** The message of item `index` of event `seq` for the streams of `appId` that write to sinks like `sink`; `null` when the app may not see it. */
  message(appId: number, sink: AppStreamSink, seq: number, index: number, prepared: Prepared): SharedMessage | null | Promise<SharedMessage | null> {
    const key = `${appId}\n${sink.renderKey}\n${seq}:${index}`
    const built = this.messagesNow.get(key)
    return built !== undefined ? built : this.build(key, appId, sink, seq, index, prepared)
  }

  /** The event's items with their notification keys, worked out once for every stream. */
  private prepare(event: DomainEvent): Promise<Prepared[]> {
    let prepared = this.prepared.get(event.seq)
    if (!prepared) {
      const items = appItemsOf(event)
      prepared = (items.length === 0 ? Promise.resolve([]) : this.notifications.of(event).then((n) => items.map((item) => ({ item, notifications: n })))).then(
        (done) => {
          remember(this.preparedNow, event.seq, done)
          this.prepared.delete(event.seq)
          return done
        },
        (err: unknown) => {
          // A failure is not kept: the next stream to reach the event tries again.
          this.prepared.delete(event.seq)
          throw err
        },
      )
      this.prepared.set(event.seq, prepared)
    }
    return prepared
  }

  private build(key: string, appId: number, sink: AppStreamSink, seq: number, index: number, { item, notifications }: Prepared): Promise<SharedMessage | null> {
    let building = this.messages.get(key)
    if (!building) {
      building = (async () => {
        if (!(await this.audiences.allows(appId, item.visibility))) return null
        const message: SharedMessage = { meta: { ...item.meta, ...notifications } }
        if (item.data.shape !== 'none') message.data = await this.render(sink, seq, index, item)
        return message
      })().then(
        (done) => {
          remember(this.messagesNow, key, done)
          this.messages.delete(key)
          return done
        },
        (err: unknown) => {
          this.messages.delete(key)
          this.rendered.delete(`${sink.renderKey}\n${seq}:${index}`)
          throw err
        },
      )
      this.messages.set(key, building)
    }
    return building
  }

  private render(sink: AppStreamSink, seq: number, index: number, item: AppStreamItem): Promise<unknown> {
    const key = `${sink.renderKey}\n${seq}:${index}`
    let data = this.rendered.get(key)
    if (!data) remember(this.rendered, key, (data = sink.render(item)))
    return data
  }
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.set(key, value)
  if (map.size <= 2 * KEPT) return
  // The oldest half goes at once: a Map keeps deleted slots until it rehashes, and deleting one key per
  // event made each `keys().next()` step over every slot deleted before it.
  let extra = map.size - KEPT
  for (const old of map.keys()) {
    if (extra-- <= 0) break
    map.delete(old)
  }
}
