/** The `events` watch topic: the newest events of the log, newest first, each in a line of words. */
import type { Domain } from '../domain/domain.js'
import { summarize } from './event-summary.js'
import type { EventTail } from './protocol.js'
import { onEveryEvent, type WatchTopic } from './watch-topic.js'

/** How many of the newest events the tail holds. */
export const EVENT_TAIL_LENGTH = 200

async function picture(domain: Domain): Promise<EventTail> {
  const head = domain.events.head()
  const events = await domain.events.after(Math.max(0, head - EVENT_TAIL_LENGTH), EVENT_TAIL_LENGTH)
  const names = new Map<number, Promise<string>>()
  const nameOf = (id: number): Promise<string> => {
    let name = names.get(id)
    if (!name) names.set(id, (name = domain.users.accounts.get(id).then((u) => (u ? `@${u.username}` : `user ${id}`))))
    return name
  }
  const lines = await Promise.all(
    events.map(async (event) => ({ seq: event.seq, name: event.name, at: new Date(event.at).toISOString(), summary: await summarize(event, nameOf) })),
  )
  return { head, events: lines.reverse() }
}

export const eventsTopic: WatchTopic<EventTail> = { picture, changes: onEveryEvent }
