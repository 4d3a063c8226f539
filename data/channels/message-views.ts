/** What a presenter needs beside a message row: its author, its app, its live reply count and, when asked, its annotations. */
import type { AppRow } from '../model/app.js'
import type { MessageRow } from '../model/channel.js'
import type { Annotation } from '../model/entities.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { BROADCAST_TYPE } from './channel-acl.js'
import { FALLBACK_URL } from '../annotations/annotations.js'
import { messageFallbackUrl } from './channel-annotations.js'

export interface MessageView {
  message: MessageRow
  /** Absent when the account is gone. */
  user?: UserRow
  app?: AppRow
  num_replies: number
  /** Only when asked for: the message's annotations plus the fallback URL the server keeps on broadcast messages. */
  annotations?: Annotation[]
}

export interface MessageViewOptions {
  /** Show annotations; the server-kept fallback URLs point at `baseUrl`. */
  annotations?: { baseUrl: string }
}

export class MessageViewService {
  constructor(private readonly store: Store) {}

  async views(messages: readonly MessageRow[], options: MessageViewOptions = {}): Promise<MessageView[]> {
    const r = this.store.read
    const users = new Map((await r.users.getMany([...new Set(messages.map((m) => m.user_id))])).map((u) => [u.id, u]))
    const apps = new Map((await r.apps.getMany([...new Set(messages.map((m) => m.app_id))])).map((a) => [a.id, a]))
    const broadcasts = options.annotations
      ? new Set((await r.channels.getMany([...new Set(messages.map((m) => m.channel_id))])).filter((c) => c.type === BROADCAST_TYPE).map((c) => c.id))
      : new Set<number>()
    return Promise.all(
      messages.map(async (message) => {
        const replies = await r.messages.getMany(await r.messages.ids('reply_to', message.id, { limit: Number.MAX_SAFE_INTEGER }))
        const view: MessageView = {
          message,
          user: users.get(message.user_id),
          app: apps.get(message.app_id),
          num_replies: replies.filter((x) => !x.is_deleted).length,
        }
        if (options.annotations) {
          const kept = broadcasts.has(message.channel_id)
            ? [{ type: FALLBACK_URL, value: { url: messageFallbackUrl(options.annotations.baseUrl, message.channel_id, message.id) } }]
            : []
          view.annotations = [...message.annotations, ...kept]
        }
        return view
      }),
    )
  }
}
