/**
 * The reader's private conversation with exactly one other person, if they
 * have one: looked for among the conversations the reader is subscribed to
 * (the API finds a group's channel only when a message is sent to it).
 */
import { api } from '../api/client'
import type { Channel } from '../../../api'
import { othersIn, PM_TYPE } from './pm'

/** The API's largest page, and how many pages are read before writing a new message instead (where it reaches the same channel anyway). */
const PAGE = 200
const MAX_PAGES = 5

/** The id of the reader's (`meId`) conversation with `userId` alone, or null when they have none. */
export async function conversationWith(userId: string, meId: string): Promise<string | null> {
  let before: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await api.get<Channel[]>('/channels', { channel_types: PM_TYPE, count: PAGE, ...(before === undefined ? {} : { before_id: before }) })
    const found = answer.data.find((channel) => {
      const others = othersIn(channel, meId)
      return others.length === 1 && others[0] === userId
    })
    if (found) return found.id
    if (!answer.meta.more || !answer.meta.min_id) return null
    before = answer.meta.min_id
  }
  return null
}
