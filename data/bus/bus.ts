/**
 * The bus: what the nodes of one instance tell each other at once, over
 * Redis (`--bus redis://...`). Nodes sharing a PostgreSQL store hear of each
 * other's commits through it (instead of PostgreSQL's LISTEN/NOTIFY) and
 * share their rate-limit counters in it. A message is only a wake-up call:
 * what happened is read from the store, so a lost one loses nothing.
 */
import { createHash } from 'node:crypto'
import { Redis } from 'ioredis'
import { DomainError } from '../errors.js'
import { redactUrl } from '../redact-url.js'

export interface Bell {
  /** Tells every node (this one included) that something new is in the store. */
  ring(message: string): void
  /** Calls `heard` on every ring of any node; answers how to stop. */
  listen(heard: (message: string) => void): Promise<() => Promise<void>>
}

export class Bus {
  private constructor(
    /** For commands (publishing, rate-limit counters). */
    readonly client: Redis,
    private readonly url: string,
    /** Keys and channels of this instance start with it: several instances may share one Redis. */
    readonly prefix: string,
  ) {}

  /**
   * Connects to the Redis at `url` for the instance whose nodes share
   * `secret` (its session secret: every node reads the same config);
   * throws `unavailable` when it does not answer.
   */
  static async open(url: string, secret: string): Promise<Bus> {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })
    // Reported by the calls that fail; an unhandled 'error' event would stop the process.
    client.on('error', () => undefined)
    try {
      await client.connect()
      await client.ping()
    } catch (err) {
      client.disconnect()
      throw new DomainError('unavailable', `the bus at ${redactUrl(url)} cannot be used: ${(err as Error).message}`, { cause: err })
    }
    const instance = createHash('sha256').update(`svc bus ${secret}`).digest('hex').slice(0, 16)
    return new Bus(client, url, `svc:${instance}`)
  }

  /** A bell on channel `name` (one per store). */
  bell(name: string): Bell {
    const channel = `${this.prefix}:${name}`
    return {
      ring: (message) => void this.client.publish(channel, message).catch(() => undefined),
      listen: async (heard) => {
        // A subscribed connection takes no other command: one of its own.
        const subscriber = new Redis(this.url, { lazyConnect: true })
        subscriber.on('error', () => undefined)
        await subscriber.connect()
        subscriber.on('message', (from: string, message: string) => {
          if (from === channel) heard(message)
        })
        await subscriber.subscribe(channel)
        return async () => {
          subscriber.disconnect()
        }
      },
    }
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect())
  }
}
