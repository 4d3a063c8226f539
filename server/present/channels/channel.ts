/** The API shape of a Channel: ACLs with `you`, counts, unread and subscription state. */
import { channelMarkerName, type Acl, type ChannelRow, type ChannelView, type UserRow } from '../../../data/index.js'
import type { Channel, ChannelAcl, Message, User } from '../../api/index.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'
import { presentMarker } from './marker.js'
import { presentMessages } from './message.js'
import { presentUsers } from '../users/user.js'

const acl = (a: Acl, you: boolean): ChannelAcl => ({
  any_user: a.any_user,
  immutable: a.immutable,
  public: a.public,
  user_ids: a.user_ids.map(String),
  you,
})

function shape(ctx: PresentContext, view: ChannelView, owner: User | undefined, recent: Message | undefined): Channel {
  const { channel } = view
  const out: Channel = {
    id: String(channel.id),
    type: channel.type,
    counts: view.counts,
    has_unread: view.has_unread,
    is_inactive: channel.is_inactive,
    readers: acl(channel.readers, view.you.readers),
    writers: acl(channel.writers, view.you.writers),
    editors: acl(channel.editors, view.you.editors),
    you_can_edit: view.you_can_edit,
    you_subscribed: view.you_subscribed,
    you_muted: view.you_muted,
  }
  if (owner) out.owner = owner
  if (view.recent_message_id !== undefined) out.recent_message_id = String(view.recent_message_id)
  if (recent) out.recent_message = recent
  if (view.annotations) out.annotations = renderAnnotations(ctx, view.annotations, { kind: 'c', id: channel.id }, channel.is_inactive)
  if (view.marker !== undefined) out.marker = presentMarker(channelMarkerName(channel.id), view.marker)
  return out
}

/** Presents channel rows for the request's viewer and channel general parameters. */
export async function presentChannels(ctx: PresentContext, rows: readonly ChannelRow[]): Promise<Channel[]> {
  const o = ctx.options
  const marker = o.include_marker === true && ctx.viewer.token?.kind === 'user'
  const annotations = o.include_annotations || o.include_channel_annotations ? { baseUrl: ctx.baseUrl } : undefined
  const views = await ctx.views.channelViews.views(rows, ctx.viewer, { recentMessage: o.include_recent_message === true, marker, annotations })
  const owners = [...new Map(views.flatMap((v): [number, UserRow][] => (v.owner ? [[v.owner.id, v.owner]] : []))).values()]
  const shapedOwners = await presentUsers(ctx, owners)
  const ownerById = new Map(owners.map((u, i) => [u.id, shapedOwners[i]]))
  const recents = views.flatMap((v) => (v.recent_message ? [v.recent_message] : []))
  const shapedRecents = await presentMessages(ctx, recents)
  const recentById = new Map(recents.map((m, i) => [m.id, shapedRecents[i]]))
  return views.map((v) => shape(ctx, v, ownerById.get(v.channel.owner_id), v.recent_message ? recentById.get(v.recent_message.id) : undefined))
}

export async function presentChannel(ctx: PresentContext, row: ChannelRow): Promise<Channel> {
  return (await presentChannels(ctx, [row]))[0]
}
