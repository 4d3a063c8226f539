/**
 * The `filters` watch topic: every filter, whose it is (a user's, or an app
 * stream's inline one) and how many app streams use it. All of it is stored
 * and changes with events (`filter.*`, `app_stream.*`).
 */
import type { Domain } from '../domain/domain.js'
import { summarizeFilter } from './filter-summary.js'
import type { FilterLine, FiltersPicture } from './protocol.js'
import { onEveryEvent, type WatchTopic } from './watch-topic.js'

async function ownerOf(domain: Domain, filter: { user_id?: number; app_id?: number }): Promise<string> {
  if (filter.user_id !== undefined) {
    const user = await domain.users.accounts.get(filter.user_id)
    return user && user.deleted_at === undefined ? `@${user.username}` : '(deleted account)'
  }
  if (filter.app_id !== undefined) {
    const app = await domain.auth.apps.get(filter.app_id)
    return app ? `app ${app.name}` : '(deleted app)'
  }
  return '-'
}

async function picture(domain: Domain): Promise<FiltersPicture> {
  const uses = new Map<number, number>()
  for (const stream of await domain.streams.apps.all()) {
    if (stream.filter_id !== undefined) uses.set(stream.filter_id, (uses.get(stream.filter_id) ?? 0) + 1)
  }
  const filters = await Promise.all(
    (await domain.filters.all()).map(async (filter): Promise<FilterLine> => ({
      ...summarizeFilter(filter),
      owner: await ownerOf(domain, filter),
      streams: uses.get(filter.id) ?? 0,
    })),
  )
  return { filters }
}

export const filtersTopic: WatchTopic<FiltersPicture> = { picture, changes: onEveryEvent }
