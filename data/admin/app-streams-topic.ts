/**
 * The `app_streams` watch topic: every app stream with its app, object
 * types, filter in words, consumer and queue. Consumers and queues live in
 * the hub's memory (polled); streams, filters and apps change with events.
 */
import type { Domain } from '../domain/domain.js'
import { summarizeFilter } from './filter-summary.js'
import type { AppStreamLine, AppStreamsPicture } from './protocol.js'
import { eitherOf, onEveryEvent, pollEvery, type WatchTopic } from './watch-topic.js'

async function picture(domain: Domain): Promise<AppStreamsPicture> {
  const facts = domain.streams.appHub.facts().sort((a, b) => a.stream.id - b.stream.id)
  const apps = new Map<number, Promise<AppStreamLine['app']>>()
  const appOf = (id: number): Promise<AppStreamLine['app']> => {
    let app = apps.get(id)
    if (!app) {
      app = domain.auth.apps.get(id).then((a) => (a ? { id: String(a.id), name: a.name, client_id: a.client_id } : null))
      apps.set(id, app)
    }
    return app
  }
  const streams = await Promise.all(
    facts.map(async ({ stream, connected, queueDepth, queueLimit }): Promise<AppStreamLine> => {
      const filter = stream.filter_id === undefined ? null : await domain.filters.byId(stream.filter_id)
      return {
        id: String(stream.id),
        app: await appOf(stream.app_id),
        ...(stream.key === undefined ? {} : { key: stream.key }),
        object_types: stream.object_types,
        connected,
        queue_depth: queueDepth,
        queue_limit: queueLimit,
        filter: filter ? summarizeFilter(filter) : null,
      }
    }),
  )
  return { streams }
}

export const appStreamsTopic: WatchTopic<AppStreamsPicture> = {
  picture,
  // Consumers come and go and queues fill without an event: polled; streams and filters come with events.
  changes: eitherOf(onEveryEvent, pollEvery(500)),
}
