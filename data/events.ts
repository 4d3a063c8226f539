/**
 * Typed domain events. A service checks its rules, commits, and only then
 * emits; every listener (user streams, app streams, the console) reads this
 * one source. Listeners never throw into the request that caused an event.
 */
import type { AppRow } from './model/app.js'
import type { ChannelRow, MarkerRow, MessageRow } from './model/channel.js'
import type { ExploreStreamRow } from './model/explore.js'
import type { PostRow } from './model/post.js'
import type { TokenRow } from './model/token.js'
import type { UserRow } from './model/user.js'

export interface DomainEvents {
  'app.created': { app: AppRow }
  'user.created': { user: UserRow }
  'user.updated': { user: UserRow }
  'token.authorized': { token: TokenRow; app: AppRow; user?: UserRow }
  'token.scopes_changed': { token: TokenRow; app: AppRow; user?: UserRow }
  'token.deauthorized': { token: TokenRow; app: AppRow; user?: UserRow }
  'follow.added': { user: UserRow; target: UserRow }
  'follow.removed': { user: UserRow; target: UserRow }
  'mute.added': { user: UserRow; target: UserRow }
  'mute.removed': { user: UserRow; target: UserRow }
  'block.added': { user: UserRow; target: UserRow }
  'block.removed': { user: UserRow; target: UserRow }
  'post.created': { post: PostRow }
  'post.deleted': { post: PostRow }
  'star.added': { post: PostRow; user: UserRow }
  'star.removed': { post: PostRow; user: UserRow }
  'explore.changed': { stream: ExploreStreamRow; removed?: boolean }
  'channel.created': { channel: ChannelRow; subscribed_user_ids: number[] }
  'channel.updated': { channel: ChannelRow; subscribed_user_ids: number[] }
  'subscription.added': { channel: ChannelRow; user: UserRow }
  'subscription.removed': { channel: ChannelRow; user: UserRow }
  'message.created': { message: MessageRow; channel: ChannelRow; subscribed_user_ids: number[] }
  'message.deleted': { message: MessageRow; channel: ChannelRow; subscribed_user_ids: number[] }
  'marker.set': { marker: MarkerRow; user: UserRow; channel?: ChannelRow }
}

export type EventName = keyof DomainEvents

/** One emitted event: a process-wide sequence number, its name, when, and its payload. */
export interface DomainEvent<N extends EventName = EventName> {
  seq: number
  name: N
  at: number
  payload: DomainEvents[N]
}

type Listener<N extends EventName> = (event: DomainEvent<N>) => void
type AnyListener = (event: DomainEvent) => void

export class EventBus {
  private seq = 0
  private readonly listeners = new Map<EventName, Set<Listener<EventName>>>()
  private readonly any = new Set<AnyListener>()
  private readonly kept: DomainEvent[] = []

  head(): number {
    return this.seq
  }

  oldest(): number {
    return this.kept[0]?.seq ?? this.seq + 1
  }

  async after(seq: number, limit: number): Promise<DomainEvent[]> {
    return this.kept.filter((e) => e.seq > seq).slice(0, limit)
  }

  /** Subscribes to one event; answers the unsubscribe function. */
  on<N extends EventName>(name: N, listener: Listener<N>): () => void {
    let set = this.listeners.get(name)
    if (!set) this.listeners.set(name, (set = new Set()))
    set.add(listener as Listener<EventName>)
    return () => set.delete(listener as Listener<EventName>)
  }

  /** Subscribes to every event. */
  onAny(listener: AnyListener): () => void {
    this.any.add(listener)
    return () => this.any.delete(listener)
  }

  emit<N extends EventName>(name: N, payload: DomainEvents[N]): DomainEvent<N> {
    const event: DomainEvent<N> = { seq: ++this.seq, name, at: Date.now(), payload }
    this.kept.push(event as DomainEvent)
    for (const listener of [...(this.listeners.get(name) ?? []), ...this.any]) {
      try {
        ;(listener as Listener<N>)(event)
      } catch (err) {
        process.emitWarning(`svc: listener for ${name} failed: ${(err as Error).message}`)
      }
    }
    return event
  }
}
