/**
 * A user stream event as JSON text: the envelope the subscribed list's REST
 * call answers, rendered by that list's own presenter, with the stream's
 * meta added (`connection_id`, `subscription_ids`, `type`, deletion and
 * marker fields).
 */
import type { StreamDelivery } from '../../../data/index.js'
import type { UserStreamConnection, UserStreamMeta } from '../../api/index.js'
import { ok, serialize, type Envelope } from '../../envelope.js'
import { presentToken } from '../auth/token.js'
import { presentChannels } from '../channels/channel.js'
import { presentMarker } from '../channels/marker.js'
import { presentMessages } from '../channels/message.js'
import type { PresentContext } from '../context.js'
import { presentFiles } from '../files/file.js'
import { presentPage } from '../page.js'
import { presentInteractionPage } from '../posts/interaction.js'
import { presentPostsJson } from '../posts/post.js'
import { presentUser, presentUsers } from '../users/user.js'

async function presentData(ctx: PresentContext, d: StreamDelivery): Promise<Envelope> {
  switch (d.shape) {
    case 'posts':
      return presentPage(d.page, (rows) => presentPostsJson(ctx, rows))
    case 'interactions':
      return presentInteractionPage(ctx, d.page)
    case 'users':
      return presentPage(d.page, (rows) => presentUsers(ctx, rows))
    case 'channels':
      return presentPage(d.page, (rows) => presentChannels(ctx, rows))
    case 'messages':
      return presentPage(d.page, (rows) => presentMessages(ctx, rows))
    case 'token':
      return ok(await presentToken(ctx, d.token))
    case 'user':
      return ok(await presentUser(ctx, d.user))
    case 'files':
      return presentPage(d.page, (rows) => presentFiles(ctx, ctx.views.files, rows, { streamed: true }))
  }
}

/** The event's envelope as one line of JSON text (no line break). */
export async function presentStreamEvent(ctx: PresentContext, d: StreamDelivery): Promise<string> {
  const envelope = await presentData(ctx, d)
  const meta: UserStreamMeta = { ...envelope.meta, connection_id: d.connectionId, subscription_ids: d.subscriptionIds, type: d.type }
  if (d.deletedId !== undefined) {
    meta.is_deleted = true
    meta.deleted_id = String(d.deletedId)
  }
  if (d.marker) meta.marker = presentMarker(d.marker.name, d.marker.row)
  return serialize({ meta, data: envelope.data })
}

/** The first frame of a WebSocket stream: its connection id, alone in `meta`. */
export const presentConnectionFrame = (connectionId: string): string => {
  const frame: UserStreamConnection = { meta: { connection_id: connectionId } }
  return JSON.stringify(frame)
}
