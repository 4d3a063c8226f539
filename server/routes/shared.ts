/**
 * What route modules share besides their noun's group: the views presenters
 * read through, the kept answers, and the user streams a list's call may
 * subscribe. Made once per server, with the route list (index.ts).
 */
import type { Domain, DomainViews, StreamServices } from '../../data/index.js'
import { answerCacheOf, type AnswerCache } from '../present/answer-cache.js'

export interface Shared {
  /** What presenters read (`contextOf`). */
  readonly views: DomainViews
  /** Answers kept until what they read changes (`cachedAnswer`); null where nodes share the store. */
  readonly answers: AnswerCache | null
  /** For a list's call that subscribes a user stream (`answerSubscribing`). */
  readonly userStreams: StreamServices['user']
}

export const sharedOf = (domain: Domain): Shared => ({ views: domain.views, answers: answerCacheOf(domain), userStreams: domain.streams.user })
