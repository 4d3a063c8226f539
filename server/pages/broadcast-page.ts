/**
 * A broadcast channel's public pages: what its `svc.core.fallback_url` and its
 * messages' lead a browser to. Titles, descriptions and subjects come from the
 * broadcast metadata annotations, which the domain checked when they were set.
 */
import {
  BROADCAST_MESSAGE_METADATA,
  BROADCAST_METADATA,
  channelFallbackUrl,
  messageFallbackUrl,
  renderHtml,
  type Annotation,
  type ChannelRow,
  type MessageView,
  type PublicBroadcast,
} from '../../data/index.js'
import { byline } from './byline.js'
import { esc, layout } from './layout.js'

/** A string field of the first annotation of `type`, if there is one. */
const field = (annotations: readonly Annotation[], type: string, name: string): string | undefined => {
  const value = annotations.find((a) => a.type === type)?.value[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}

const titleOf = (channel: ChannelRow): string => field(channel.annotations, BROADCAST_METADATA, 'title') ?? 'Broadcast'

const subjectOf = (view: MessageView): string | undefined => field(view.message.annotations, BROADCAST_MESSAGE_METADATA, 'subject')

const messageText = (view: MessageView): string => `<p>${renderHtml(view.message.text, view.message.entities)}</p>`

export function broadcastPage(found: PublicBroadcast, baseUrl: string): string {
  const { channel, messages } = found
  const home = channelFallbackUrl(baseUrl, channel.id)
  const description = field(channel.annotations, BROADCAST_METADATA, 'description')
  const items = messages.items.map(({ item }) => {
    const link = esc(messageFallbackUrl(baseUrl, channel.id, item.message.id))
    return `<li><a href="${link}"><strong>${esc(subjectOf(item) ?? 'Message')}</strong></a>${byline(item.user, baseUrl, item.message.created_at)}${messageText(item)}</li>`
  })
  const last = messages.items.at(-1)
  const older = messages.more && last ? `<p><a href="${esc(`${home}?before_id=${last.pagination_id}`)}" rel="next">Older messages</a></p>` : ''
  return layout(
    titleOf(channel),
    `<h1><a href="${esc(home)}">${esc(titleOf(channel))}</a></h1>` +
      (description ? `<p>${esc(description)}</p>` : '') +
      (items.length > 0 ? `<ul class="messages">${items.join('')}</ul>` : '<p class="muted">No messages here yet.</p>') +
      older,
  )
}

export function broadcastMessagePage(channel: ChannelRow, view: MessageView, baseUrl: string): string {
  const subject = subjectOf(view)
  return layout(
    subject ? `${subject} · ${titleOf(channel)}` : titleOf(channel),
    `<p class="muted"><a href="${esc(channelFallbackUrl(baseUrl, channel.id))}">${esc(titleOf(channel))}</a></p>` +
      (subject ? `<h1>${esc(subject)}</h1>` : '') +
      byline(view.user, baseUrl, view.message.created_at) +
      messageText(view),
  )
}
