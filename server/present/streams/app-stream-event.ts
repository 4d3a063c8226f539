/**
 * The `data` of an app stream event, in the API's own shapes: a Post,
 * Message, Channel or User as its REST answer shows it, or the pairs the
 * spec's app stream table names (`{post, user}`, `{follows_user, user}`,
 * ...). Annotations are always included: an app stream feeds a server.
 */
import type { AppStreamItem, FileService } from '../../../data/index.js'
import type { AppStreamEventData, TokenEventData, User } from '../../api/index.js'
import { presentChannel } from '../channels/channel.js'
import { presentMarker } from '../channels/marker.js'
import { presentMessage } from '../channels/message.js'
import type { PresentContext } from '../context.js'
import { presentFile } from '../files/file.js'
import { presentPosts } from '../posts/post.js'
import { presentUser } from '../users/user.js'

/** `{follows_user, user}`, `{muted_user, user}` or `{blocked_user, user}`. */
function relationData(key: 'follows_user' | 'muted_user' | 'blocked_user', target: User, user: User): AppStreamEventData {
  switch (key) {
    case 'follows_user':
      return { follows_user: target, user }
    case 'muted_user':
      return { muted_user: target, user }
    case 'blocked_user':
      return { blocked_user: target, user }
  }
}

export async function presentAppEventData(ctx: PresentContext, files: FileService, { data }: AppStreamItem): Promise<AppStreamEventData> {
  switch (data.shape) {
    case 'post':
      return (await presentPosts(ctx, [data.post]))[0]
    case 'star':
      return { post: (await presentPosts(ctx, [data.post]))[0], user: await presentUser(ctx, data.user) }
    case 'relation':
      return relationData(data.key, await presentUser(ctx, data.target), await presentUser(ctx, data.user))
    case 'marker':
      return { marker: presentMarker(data.marker.name, data.marker), user: await presentUser(ctx, data.user) }
    case 'message':
      return presentMessage(ctx, data.message)
    case 'channel':
      return presentChannel(ctx, data.channel)
    case 'channel_subscription':
      return { user: await presentUser(ctx, data.user), channel: await presentChannel(ctx, data.channel) }
    case 'token': {
      const { app } = data
      const out: TokenEventData = {
        scopes: data.token.scopes,
        app: { client_id: app.client_id, link: app.link, name: app.name },
        client_id: app.client_id,
      }
      if (data.user) out.user = await presentUser(ctx, data.user)
      return out
    }
    case 'user':
      return presentUser(ctx, data.user)
    case 'file':
      return presentFile(ctx, files, data.file, { annotations: true, streamed: true })
    case 'none':
      return null
  }
}
