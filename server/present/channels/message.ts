/** The API shape of a Message, including the stripped shape of deleted messages. */
import { renderHtml, type MessageRow, type MessageView } from '../../../data/index.js'
import type { Message, User } from '../../api/index.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'
import { presentUsers } from '../users/user.js'

const EMPTY_ENTITIES = { mentions: [], hashtags: [], links: [] }

function shape(ctx: PresentContext, view: MessageView, user: User | undefined): Message {
  const { message, app } = view
  const o = ctx.options
  const out: Message = {
    id: String(message.id),
    channel_id: String(message.channel_id),
    created_at: message.created_at,
    machine_only: message.machine_only,
    num_replies: view.num_replies,
    source: app ? { client_id: app.client_id, link: app.link, name: app.name } : { client_id: '', link: '', name: 'svc' },
    thread_id: String(message.thread_id),
    ...(user ? { user } : {}),
    ...(message.is_deleted ? { is_deleted: true as const, entities: EMPTY_ENTITIES } : { text: message.text, entities: message.entities }),
  }
  if (!message.is_deleted && o.include_html !== false) out.html = renderHtml(message.text, message.entities)
  if (message.reply_to !== undefined) out.reply_to = String(message.reply_to)
  if (view.annotations) out.annotations = renderAnnotations(ctx, view.annotations, { kind: 'm', id: message.id }, message.is_deleted === true)
  return out
}

/** Presents message rows with their authors, apps and reply counts. */
export async function presentMessages(ctx: PresentContext, rows: readonly MessageRow[]): Promise<Message[]> {
  const o = ctx.options
  const views = await ctx.views.messageViews.views(rows, {
    annotations: o.include_annotations || o.include_message_annotations ? { baseUrl: ctx.baseUrl } : undefined,
  })
  const authors = [...new Map(views.filter((v) => v.user).map((v) => [v.user!.id, v.user!])).values()]
  const shaped = await presentUsers(ctx, authors)
  const users = new Map(authors.map((u, i) => [u.id, shaped[i]]))
  return views.map((v) => shape(ctx, v, v.user ? users.get(v.user.id) : undefined))
}

export async function presentMessage(ctx: PresentContext, row: MessageRow): Promise<Message> {
  return (await presentMessages(ctx, [row]))[0]
}
