/**
 * What a watch topic of the admin socket is (the protocol is protocol.ts):
 * a picture of something, read whenever it may have changed. The server
 * reads the picture again on each change, at most a few times a second, and
 * pushes it only when it differs from the last one sent; so a topic may say
 * "changed" too often (a poll), never too seldom.
 */
import type { Domain } from '../domain/domain.js'

export interface WatchTopic<T> {
  /** The picture now: plain JSON, the same for the same state (it is compared to the last one sent). */
  picture(domain: Domain): Promise<T>
  /** Calls `changed` whenever the picture may have changed; answers the function that stops it. */
  changes(domain: Domain, changed: () => void): () => void
}

/** A change source for pictures of the event log or of what events change: every durable event. */
export const onEveryEvent = (domain: Domain, changed: () => void): (() => void) => domain.events.onAny(() => changed())

/** A change source for in-memory state no event announces (backlogs, positions): a short poll. */
export const pollEvery =
  (ms: number) =>
  (_domain: Domain, changed: () => void): (() => void) => {
    const timer = setInterval(changed, ms)
    timer.unref()
    return () => clearInterval(timer)
  }

/** Several change sources as one. */
export const eitherOf =
  (...sources: WatchTopic<unknown>['changes'][]): WatchTopic<unknown>['changes'] =>
  (domain, changed) => {
    const stops = sources.map((source) => source(domain, changed))
    return () => stops.forEach((stop) => stop())
  }
