/** What a presenter needs beside a message row: its author, its app and its live reply count. */
import type { AppRow } from '../model/app.js'
import type { MessageRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'

export interface MessageView {
  message: MessageRow
  /** Absent when the account is gone. */
  user?: UserRow
  app?: AppRow
  num_replies: number
}

export class MessageViewService {
  constructor(private readonly store: Store) {}

  async views(messages: readonly MessageRow[]): Promise<MessageView[]> {
    const r = this.store.read
    const users = new Map((await r.users.getMany([...new Set(messages.map((m) => m.user_id))])).map((u) => [u.id, u]))
    const apps = new Map((await r.apps.getMany([...new Set(messages.map((m) => m.app_id))])).map((a) => [a.id, a]))
    return Promise.all(
      messages.map(async (message) => {
        const replies = await r.messages.getMany(await r.messages.ids('reply_to', message.id, { limit: Number.MAX_SAFE_INTEGER }))
        return { message, user: users.get(message.user_id), app: apps.get(message.app_id), num_replies: replies.filter((x) => !x.is_deleted).length }
      }),
    )
  }
}
