/**
 * Uploads under way, so that a body is paid for before it is read: at most
 * `UPLOADS_PER_USER` of one user and `UPLOADS_AT_ONCE` in all at once, and
 * the bytes a user's uploads in flight have written count against the
 * storage they had left, as they arrive. Counted per node, in memory: what
 * is bounded is this process's disk and sockets.
 */
import { DomainError } from '../errors.js'
import { UPLOADS_AT_ONCE, UPLOADS_PER_USER } from '../limits.js'

/** One admitted upload: it may write while `take` allows, and gives its place back with `release`. */
export interface UploadTicket {
  /** Counts `bytes` more of this upload. Errors: `quota` once the user's uploads in flight pass the storage they had left. */
  take(bytes: number): void
  /** Gives the place back; the bytes taken no longer count. Calling it again does nothing. */
  release(): void
}

interface InFlight {
  uploads: number
  bytes: number
}

export class UploadGate {
  private readonly users = new Map<number, InFlight>()
  private uploads = 0

  constructor(private readonly bounds = { perUser: UPLOADS_PER_USER, total: UPLOADS_AT_ONCE }) {}

  /** Bytes `userId`'s uploads under way have written so far. */
  inFlight(userId: number): number {
    return this.users.get(userId)?.bytes ?? 0
  }

  /**
   * A place for one more upload of `userId`, whose storage had `left` bytes
   * when it was admitted. Errors: `rate_limited` (over either bound).
   */
  enter(userId: number, left: number, overStorage: (left: number) => DomainError): UploadTicket {
    const entry = this.users.get(userId) ?? { uploads: 0, bytes: 0 }
    if (entry.uploads >= this.bounds.perUser)
      throw new DomainError('rate_limited', `at most ${this.bounds.perUser} uploads at once per user: try again once one has finished`)
    if (this.uploads >= this.bounds.total) throw new DomainError('rate_limited', 'the server takes no more uploads at once: try again in a moment')
    entry.uploads++
    this.uploads++
    this.users.set(userId, entry)
    let taken = 0
    let released = false
    return {
      take: (bytes) => {
        taken += bytes
        entry.bytes += bytes
        if (entry.bytes > left) throw overStorage(Math.max(0, left - (entry.bytes - bytes)))
      },
      release: () => {
        if (released) return
        released = true
        entry.bytes -= taken
        entry.uploads--
        this.uploads--
        if (entry.uploads === 0) this.users.delete(userId)
      },
    }
  }
}
