/** The API shape of an Interaction: `action`, `event_date`, `objects` (Users, Posts or Channels) and the acting `users`. */
import type { ChannelRow, Interaction, InteractionPage, Page, PostRow, UserRow } from '../../../data/index.js'
import type { Interaction as InteractionObject } from '../../api/index.js'
import type { Envelope } from '../../envelope.js'
import { presentChannels } from '../channels/channel.js'
import { presentMarker } from '../channels/marker.js'
import type { PresentContext } from '../context.js'
import { presentPage } from '../page.js'
import { presentPosts } from './post.js'
import { presentUsers } from '../users/user.js'

/** Presents rows once each, however many interactions share them. */
async function presentOnce<R extends { id: number }, O>(rows: R[], present: (rows: R[]) => Promise<O[]>): Promise<Map<number, O>> {
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()]
  const shaped = await present(unique)
  return new Map(unique.map((r, i) => [r.id, shaped[i]]))
}

/** An interaction's objects by kind: the action decides which one holds them. */
function objectsOf(i: Interaction): { users: UserRow[]; posts: PostRow[]; channels: ChannelRow[] } {
  switch (i.action) {
    case 'follow':
      return { users: i.objects, posts: [], channels: [] }
    case 'star':
    case 'repost':
    case 'reply':
      return { users: [], posts: i.objects, channels: [] }
    default:
      return { users: [], posts: [], channels: i.objects }
  }
}

async function presentInteractions(ctx: PresentContext, items: Interaction[]): Promise<InteractionObject[]> {
  const objects = items.map(objectsOf)
  const postMap = await presentOnce(
    objects.flatMap((o) => o.posts),
    (rows) => presentPosts(ctx, rows),
  )
  const channelMap = await presentOnce(
    objects.flatMap((o) => o.channels),
    (rows) => presentChannels(ctx, rows),
  )
  const userMap = await presentOnce([...items.flatMap((i) => i.users), ...objects.flatMap((o) => o.users)], (rows) => presentUsers(ctx, rows))
  return items.map((i, n) => ({
    action: i.action,
    event_date: i.event_date,
    objects: [
      ...objects[n].users.map((u) => userMap.get(u.id)!),
      ...objects[n].posts.map((p) => postMap.get(p.id)!),
      ...objects[n].channels.map((c) => channelMap.get(c.id)!),
    ],
    users: i.users.map((u) => userMap.get(u.id)!),
  }))
}

/** A page of interactions, with the list's stream marker in `meta.marker` when it came along (not in stream events but its moves). */
export const presentInteractionPage = (ctx: PresentContext, page: Page<Interaction> | InteractionPage): Promise<Envelope> =>
  presentPage(page, (items) => presentInteractions(ctx, items), 'marker' in page ? { marker: presentMarker(page.marker.name, page.marker.row) } : {})
