/**
 * Interactions: what other people did with the signed-in user's account,
 * posts and broadcast channels (followed them; starred, reposted or replied to
 * a post; subscribed to or unsubscribed from a broadcast channel), plus the
 * user's own creation of each broadcast channel, grouped so that the same
 * action on the same object within a day is one interaction with several
 * users. The list is rebuilt on every call, as App.net's was.
 *
 * Pagination ids are derived from each group's latest event time
 * (milliseconds × 100, made unique downwards), so pages walk back in time.
 */
import type { ChannelRow, MarkerRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { paginateSorted, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import { pair } from '../store/schema.js'
import type { Readers, Store } from '../store/port.js'
import type { Viewer } from '../viewer.js'
import { holdersOf, targetsOf } from '../relations/relation-reads.js'
import { actingUser } from '../users/acting-user.js'
import { BROADCAST_TYPE, ChannelAccess } from '../channels/channel-acl.js'

/**
 * The actions App.net clients ask for. svc produces all but `welcome`: the
 * reference gives only its empty `objects`, not when it appears or who its
 * users are, and an account's list is observed empty, so it is not always there.
 */
export const INTERACTION_ACTIONS = ['follow', 'star', 'repost', 'reply', 'broadcast_create', 'broadcast_subscribe', 'broadcast_unsubscribe', 'welcome'] as const
export type InteractionAction = (typeof INTERACTION_ACTIONS)[number]
/** The stream marker of the list: how far the user has read it, by pagination id (a later interaction has a higher one). */
export const INTERACTIONS_MARKER = 'interactions'

/** A page of interactions and the user's marker of the list (its row null until set). */
export type InteractionPage = Page<Interaction> & { marker: { name: string; row: MarkerRow | null } }

type PostAction = 'star' | 'repost' | 'reply'
type BroadcastAction = 'broadcast_create' | 'broadcast_subscribe' | 'broadcast_unsubscribe'

export type Interaction =
  | { action: 'follow'; event_date: string; objects: UserRow[]; users: UserRow[] }
  | { action: PostAction; event_date: string; objects: PostRow[]; users: UserRow[] }
  | { action: BroadcastAction; event_date: string; objects: ChannelRow[]; users: UserRow[] }

/** Events of the same action on the same object this close together are grouped. */
export const GROUP_WINDOW_MS = 24 * 3_600_000

const ALL = { limit: Number.MAX_SAFE_INTEGER }

/** An action and what it was done to; the action decides the kind of object. */
type Subject = { action: 'follow'; object: UserRow } | { action: PostAction; object: PostRow } | { action: BroadcastAction; object: ChannelRow }

type Event = Subject & { actorId: number; at: number }

interface Group {
  subject: Subject
  latest: number
  oldest: number
  actorIds: number[]
}

export class InteractionService {
  // Stateless over the store, so a private one spares the domain's wiring.
  private readonly access: ChannelAccess

  constructor(private readonly store: Store) {
    this.access = new ChannelAccess(store)
  }

  /**
   * The page of interactions with `viewer`'s user, newest first, limited to
   * `actions` when given; muted and blocked users are left out, and so are
   * the user's own actions but for creating a broadcast channel. Broadcast
   * interactions are about the user's active broadcast channels their token
   * may read. The page comes with the user's `interactions` marker.
   * Errors: `forbidden` (not a user token), `invalid` (marker-relative ids).
   */
  async list(viewer: Viewer, actions: readonly InteractionAction[] | undefined, input: PageInput): Promise<InteractionPage> {
    const me = actingUser(viewer)
    const wanted = new Set(actions ?? INTERACTION_ACTIONS)
    const hidden = await hiddenUsers(this.store.read, me.id)
    const all = [...(await this.events(me, wanted)), ...(await this.broadcastEvents(viewer, me, wanted))]
    // Creating a channel is the owner's own act; telling them of it is the point.
    const events = all.filter((e) => (e.actorId !== me.id || e.action === 'broadcast_create') && !hidden.has(e.actorId))
    const groups = groupEvents(events)
    const users = new Map((await this.store.read.users.getMany([...new Set(events.map((e) => e.actorId))])).map((u) => [u.id, u]))
    // Unique keys, newest group highest.
    const byKey = new Map<number, Interaction>()
    let previous = Number.MAX_SAFE_INTEGER
    for (const g of groups) {
      const key = Math.min(g.latest * 100 + 99, previous - 1)
      previous = key
      const actors = g.actorIds.map((id) => users.get(id)).filter((u): u is UserRow => u !== undefined)
      if (actors.length === 0) continue
      byKey.set(key, interactionOf(g.subject, new Date(g.latest).toISOString().replace(/\.\d{3}Z$/, 'Z'), actors))
    }
    const keys = [...byKey.keys()].sort((a, b) => a - b)
    const page = await paginateSorted(resolvePage(input), keys, async (ids) => ids.map((k) => byKey.get(k) ?? null))
    const row = await this.store.read.markers.one('user_name', pair(me.id, INTERACTIONS_MARKER))
    return { ...page, marker: { name: INTERACTIONS_MARKER, row } }
  }

  private async events(me: UserRow, wanted: Set<InteractionAction>): Promise<Event[]> {
    const r = this.store.read
    const events: Event[] = []
    if (wanted.has('follow')) {
      for (const f of await r.follows.getMany(await r.follows.ids('target', me.id, ALL)))
        events.push({ action: 'follow', object: me, actorId: f.user_id, at: Date.parse(f.created_at) })
    }
    if (!wanted.has('star') && !wanted.has('repost') && !wanted.has('reply')) return events
    const mine = (await r.posts.getMany(await r.posts.ids('user_live', me.id, ALL))).filter((p) => p.repost_of === undefined)
    for (const post of mine) {
      if (wanted.has('star')) {
        for (const s of await r.stars.getMany(await r.stars.ids('post', post.id, ALL)))
          events.push({ action: 'star', object: post, actorId: s.user_id, at: Date.parse(s.created_at) })
      }
      if (wanted.has('repost')) events.push(...(await postEvents(r, 'repost_live', 'repost', post)))
      if (wanted.has('reply')) events.push(...(await postEvents(r, 'reply_to_live', 'reply', post)))
    }
    return events
  }

  /**
   * Creation of, subscriptions to and departures from the viewer's active
   * broadcast channels. Times are kept to the second, so a channel made and
   * joined in the same second ties: the later kind of act is pushed first and
   * the stable sort in `groupEvents` keeps it above.
   */
  private async broadcastEvents(viewer: Viewer, me: UserRow, wanted: Set<InteractionAction>): Promise<Event[]> {
    if (!wanted.has('broadcast_create') && !wanted.has('broadcast_subscribe') && !wanted.has('broadcast_unsubscribe')) return []
    const r = this.store.read
    const events: Event[] = []
    for (const channel of await r.channels.getMany(await r.channels.ids('owner', me.id, ALL))) {
      if (channel.type !== BROADCAST_TYPE || channel.is_inactive || !(await this.access.canRead(viewer, channel))) continue
      if (wanted.has('broadcast_unsubscribe')) {
        const left = await r.broadcast_unsubscriptions.getMany(await r.broadcast_unsubscriptions.ids('channel', channel.id, ALL))
        for (const u of left) events.push({ action: 'broadcast_unsubscribe', object: channel, actorId: u.user_id, at: Date.parse(u.unsubscribed_at) })
      }
      if (wanted.has('broadcast_subscribe')) {
        for (const s of await r.subscriptions.getMany(await r.subscriptions.ids('channel', channel.id, ALL)))
          events.push({ action: 'broadcast_subscribe', object: channel, actorId: s.user_id, at: Date.parse(s.created_at) })
      }
      if (wanted.has('broadcast_create')) events.push({ action: 'broadcast_create', object: channel, actorId: me.id, at: Date.parse(channel.created_at) })
    }
    return events
  }
}

function interactionOf(subject: Subject, event_date: string, users: UserRow[]): Interaction {
  switch (subject.action) {
    case 'follow':
      return { action: subject.action, event_date, objects: [subject.object], users }
    case 'star':
    case 'repost':
    case 'reply':
      return { action: subject.action, event_date, objects: [subject.object], users }
    default:
      return { action: subject.action, event_date, objects: [subject.object], users }
  }
}

/** The users `userId` muted or blocked, and those who blocked them. */
async function hiddenUsers(r: Readers, userId: number): Promise<Set<number>> {
  const sets = await Promise.all([targetsOf(r, 'mutes', userId), targetsOf(r, 'blocks', userId), holdersOf(r, 'blocks', userId)])
  return new Set(sets.flatMap((s) => [...s]))
}

/** Live reposts or replies of `post`, as events by their authors. */
async function postEvents(r: Readers, index: 'repost_live' | 'reply_to_live', action: 'repost' | 'reply', post: PostRow): Promise<Event[]> {
  const rows = await r.posts.getMany(await r.posts.ids(index, post.id, ALL))
  return rows.map((p) => ({ action, object: post, actorId: p.user_id, at: Date.parse(p.created_at) }))
}

/** Groups events newest first: one group per action and object while events stay within the window. */
function groupEvents(events: Event[]): Group[] {
  const sorted = [...events].sort((a, b) => b.at - a.at)
  const open = new Map<string, Group>()
  const groups: Group[] = []
  for (const e of sorted) {
    const key = `${e.action}:${e.object.id}`
    const group = open.get(key)
    if (group && group.oldest - e.at <= GROUP_WINDOW_MS) {
      group.oldest = e.at
      if (!group.actorIds.includes(e.actorId)) group.actorIds.push(e.actorId)
      continue
    }
    const fresh: Group = { subject: e, latest: e.at, oldest: e.at, actorIds: [e.actorId] }
    open.set(key, fresh)
    groups.push(fresh)
  }
  return groups
}
