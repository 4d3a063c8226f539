/** What the private-message screens share: the channel type, the message limit, marking a conversation read, who takes part. */
import { api } from '../api/client'
import type { Channel } from '../../../api'

export const PM_TYPE = 'svc.core.pm'
/** The API's limit on a message's text (the spec's message `text_max_length`). */
export const MESSAGE_MAX_LENGTH = 2048

/**
 * Moves the reader's `channel:<id>` marker to `messageId`. Reading a
 * channel does not move it by itself, and neither does sending: the client
 * reports what the person has seen, which is what clears the unread mark.
 */
export const markRead = (channelId: string, messageId: string) => api.post('/posts/marker', { name: `channel:${channelId}`, id: messageId })

/** The ids of everyone in a private channel except `meId`: its owner and its writers. */
export function othersIn(channel: Channel, meId: string | undefined): string[] {
  const ids = new Set([...(channel.owner ? [channel.owner.id] : []), ...channel.writers.user_ids])
  if (meId) ids.delete(meId)
  return [...ids]
}
