/**
 * The `user_streams` watch topic: every kept user stream, its consumer
 * connected or not, its subscriptions, its backlog and its replay position.
 * Connected streams come from the hub's snapshot (in memory, so polled),
 * the others from storage.
 */
import type { Domain } from '../domain/domain.js'
import { USER_STREAM_BACKLOG } from '../limits.js'
import type { ConnectionSnapshot } from '../streams/stream-hub.js'
import type { UserStreamFacts, UserStreamsPicture } from './protocol.js'
import { eitherOf, onEveryEvent, pollEvery, type WatchTopic } from './watch-topic.js'

/** The console shows at most this many streams (connected ones first). */
const MOST_STREAMS = 500

interface Owner {
  user: UserStreamFacts['user']
  app: string
}

/** Who holds token `id`: its user and app (read once per picture). */
async function ownerOf(domain: Domain, tokenId: number, known: Map<number, Owner>): Promise<Owner> {
  const cached = known.get(tokenId)
  if (cached) return cached
  const token = await domain.auth.tokens.find(String(tokenId))
  const info = token ? await domain.auth.tokens.describe(token) : null
  const owner: Owner = {
    user: info?.user ? { id: String(info.user.id), username: info.user.username } : null,
    app: info?.app.name ?? '(gone)',
  }
  known.set(tokenId, owner)
  return owner
}

const subscriptionsOf = (subs: ConnectionSnapshot['subscriptions']): UserStreamFacts['subscriptions'] =>
  subs.map((s) => ({ subscription_id: s.subscription_id, endpoint: s.endpoint, ...(s.target === undefined ? {} : { target: String(s.target) }) }))

async function picture(domain: Domain): Promise<UserStreamsPicture> {
  const { head, connections } = domain.streams.hub.snapshot()
  const connected = new Map(connections.map((c) => [c.connection_id, c]))
  const owners = new Map<number, Owner>()
  const streams: UserStreamFacts[] = []
  for (const c of connections.slice(0, MOST_STREAMS)) {
    const row = await domain.streams.user.find(c.connection_id)
    streams.push({
      connection_id: c.connection_id,
      ...(await ownerOf(domain, c.token_id, owners)),
      token_id: String(c.token_id),
      connected: true,
      since: c.connected_at,
      created_at: row?.created_at ?? c.connected_at,
      subscriptions: subscriptionsOf(c.subscriptions),
      backlog: c.backlog,
      cursor: c.cursor,
      live: c.live,
    })
  }
  for (const row of await domain.streams.user.list(MOST_STREAMS)) {
    if (connected.has(row.connection_id) || streams.length >= MOST_STREAMS) continue
    streams.push({
      connection_id: row.connection_id,
      ...(await ownerOf(domain, row.token_id, owners)),
      token_id: String(row.token_id),
      connected: false,
      since: row.closed_at ?? row.created_at,
      created_at: row.created_at,
      subscriptions: subscriptionsOf(await domain.streams.user.subscriptionsOf(row)),
      backlog: 0,
      cursor: row.cursor,
      live: false,
    })
  }
  return { head, backlog_limit: USER_STREAM_BACKLOG, streams }
}

export const userStreamsTopic: WatchTopic<UserStreamsPicture> = {
  picture,
  // Connects, backlogs and positions change without an event: polled; subscriptions and revokes come with events.
  changes: eitherOf(onEveryEvent, pollEvery(500)),
}
