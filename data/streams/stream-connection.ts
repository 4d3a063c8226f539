/**
 * One connected consumer of a user stream, as the hub keeps it: its backlog,
 * its position, its subscriptions, and what it caches of its viewer until an
 * event changes it; and the hub's indexes of connections by key.
 */
import type { DomainEvent } from '../model/event.js'
import type { StreamSubscriptionRow, UserStreamRow } from '../model/stream.js'
import type { PostTest } from '../posts/post-filters.js'
import type { Viewer } from '../viewer.js'
import { isoNow } from '../time.js'
import type { StreamSink } from './stream-delivery.js'
import { relationOf } from './event-audience.js'
import { RecentRate } from './stream-overload.js'

export class Connection {
  readonly queue: DomainEvent[] = []
  /** The stream's token, app and user, read once and again after they change. */
  viewer: Viewer | null = null
  /** Compiled tests of the subscriptions, valid until the user's relations change. */
  readonly memo = new Map<string, PostTest>()
  live = false
  /** Holds one of the hub's places for streams catching up from the log. */
  catchingUp = false
  /** Waiting for a turn on the lanes, taking one, or waiting for its consumer to take more. */
  scheduled = false
  /** While catching up: the batch of the log read and not yet handled. */
  pending: DomainEvent[] = []
  closed = false
  threads: number[] = []
  channels: number[] = []
  /** When this consumer connected (the console shows it). */
  readonly connectedAt = isoNow()
  /** When its consumer last became ready to take more after it was not (ms since the epoch; 0: never waited). */
  readyAt = 0
  /** Events pushed to its backlog lately: what it asks of the process, when the process is behind. */
  readonly asked = new RecentRate()

  constructor(
    public stream: UserStreamRow,
    public subs: StreamSubscriptionRow[],
    readonly sink: StreamSink,
    /** Every event up to here was handled (while catching up; live, see `cursorOf`). */
    public cursor: number,
  ) {}
}

/**
 * Drops what a stream keeps of its viewer when `event` changes it: the token
 * and user on token and profile changes, the compiled tests on the user's
 * follows, mutes and blocks. Run in the stream's own event order, so each
 * later event is judged by the relations as they are after this one.
 */
export function forgetWhatChanged(conn: Connection, event: DomainEvent): void {
  const { token_id, user_id } = conn.stream
  switch (event.name) {
    case 'token.authorized':
    case 'token.scopes_changed':
    case 'token.deauthorized':
      if ((event as DomainEvent<'token.authorized'>).payload.token.id === token_id) conn.viewer = null
      return
    case 'user.updated':
      if ((event as DomainEvent<'user.updated'>).payload.user.id === user_id) conn.viewer = null
      return
    default: {
      const relation = relationOf(event)
      if (relation && (relation.user === user_id || relation.target === user_id)) conn.memo.clear()
    }
  }
}

export const addTo = <K>(map: Map<K, Set<Connection>>, key: K, conn: Connection): void => {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(conn)
}

export const removeFrom = <K>(map: Map<K, Set<Connection>>, key: K, conn: Connection): void => {
  const set = map.get(key)
  if (!set) return
  set.delete(conn)
  if (set.size === 0) map.delete(key)
}
