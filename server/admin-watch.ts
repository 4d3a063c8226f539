/**
 * The watches of one admin socket connection (the protocol is
 * data/admin/protocol.ts, the topics data/admin/watch-topics.ts): each
 * pushes its topic's picture at once, then again after each change, at most
 * once per `WATCH_INTERVAL_MS` and only when it differs from the last one
 * sent, until it is unwatched or the connection ends.
 */
import { invalid, isDomainError, isWatchTopic, notFound, watchTopics, type AdminResponse, type Domain } from '../data/index.js'

/** At most four pictures a second per watch: a busy instance must not flood the console. */
export const WATCH_INTERVAL_MS = 250

type Id = number | string

export class Watches {
  private readonly stops = new Map<Id, () => void>()

  constructor(
    private readonly domain: Domain,
    private readonly send: (response: AdminResponse) => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Starts watch `id` of `args.topic`. Errors: `invalid` (no id, an id in use, an unknown topic). */
  watch(id: Id | undefined, args: Record<string, unknown>): void {
    if (id === undefined) throw invalid('a watch needs an "id": its pictures come with it')
    if (this.stops.has(id)) throw invalid(`watch ${id} is already running`)
    const topicName = args.topic
    if (!isWatchTopic(topicName)) throw invalid(`unknown watch topic ${String(topicName)} (topics: ${Object.keys(watchTopics).join(', ')})`)
    const topic = watchTopics[topicName]

    let stopped = false
    let reading = false
    let again = false
    let last = 0
    let sent: string | null = null
    let timer: NodeJS.Timeout | null = null
    // One reading at a time; a change during one reads once more after it, no sooner than the interval allows.
    const read = async (): Promise<void> => {
      if (stopped) return
      if (reading) {
        again = true
        return
      }
      const wait = last + WATCH_INTERVAL_MS - Date.now()
      if (wait > 0) {
        timer ??= setTimeout(() => {
          timer = null
          void read()
        }, wait)
        return
      }
      reading = true
      last = Date.now()
      try {
        const picture = await topic.picture(this.domain)
        const json = JSON.stringify(picture)
        if (!stopped && json !== sent) {
          sent = json
          this.send({ id, ok: true, result: picture })
        }
      } catch (err) {
        if (!stopped) this.send({ id, ok: false, error: this.failure(topicName, err) })
      } finally {
        reading = false
        if (again) {
          again = false
          void read()
        }
      }
    }
    const unlisten = topic.changes(this.domain, () => void read())
    this.stops.set(id, () => {
      stopped = true
      unlisten()
      if (timer) clearTimeout(timer)
    })
    void read()
  }

  /** Stops watch `watch`; answers its id. Errors: `not_found`. */
  unwatch(watch: unknown): { unwatched: Id } {
    const id = typeof watch === 'number' || typeof watch === 'string' ? watch : undefined
    const stop = id === undefined ? undefined : this.stops.get(id)
    if (id === undefined || !stop) throw notFound(`no watch ${String(watch)} on this connection`)
    stop()
    this.stops.delete(id)
    return { unwatched: id }
  }

  /** The connection ended: every watch stops. */
  stopAll(): void {
    for (const stop of this.stops.values()) stop()
    this.stops.clear()
  }

  private failure(topic: string, err: unknown) {
    if (isDomainError(err)) return { code: err.code, message: err.message }
    this.log(`admin watch ${topic} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
    return { code: 'internal', message: err instanceof Error ? err.message : String(err) }
  }
}
