/**
 * Every watch topic of the admin socket by name (see protocol.ts for the
 * `watch` request and watch-topic.ts for what a topic is). Adding a topic:
 * its picture's type in protocol.ts (`AdminWatchPictures`), a file here
 * answering a `WatchTopic` of it, and a line in this table.
 */
import { appStreamsTopic } from './app-streams-topic.js'
import { eventsTopic } from './events-topic.js'
import { federationTopic } from './federation-topic.js'
import { filtersTopic } from './filters-topic.js'
import type { AdminWatchPictures } from './protocol.js'
import { userStreamsTopic } from './user-streams-topic.js'
import type { WatchTopic } from './watch-topic.js'

export type WatchTopicName = keyof AdminWatchPictures

/** One topic per picture named in the protocol, so a picture without its topic is a type error. */
export const watchTopics: { [N in WatchTopicName]: WatchTopic<AdminWatchPictures[N]> } = {
  user_streams: userStreamsTopic,
  events: eventsTopic,
  app_streams: appStreamsTopic,
  filters: filtersTopic,
  federation: federationTopic,
}

/** Is `name` a watch topic? (Names arrive as text from the socket.) */
export const isWatchTopic = (name: unknown): name is WatchTopicName => typeof name === 'string' && Object.hasOwn(watchTopics, name)
