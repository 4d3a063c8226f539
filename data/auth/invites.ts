/**
 * Invitations: on an instance whose registration is closed, the operator
 * makes a link (`svc invite create`) that admits a number of people to
 * `/signup`. The code is shown once and kept only as a hash, as tokens are.
 */
import { randomBytes } from 'node:crypto'
import { forbidden, invalid } from '../errors.js'
import type { InviteRow } from '../model/invite.js'
import type { UserRow } from '../model/user.js'
import { hashSecret } from '../security/secrets.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'

/** The most people one link may admit. */
export const INVITE_USES_MAX = 1000

const expired = () => forbidden('This invitation is used up or unknown. Ask the operator for another.')

export class InviteService {
  constructor(private readonly store: Store) {}

  /** A new link's code, admitting `uses` people. Errors: `invalid`. Emits `invite.created`. */
  async create(uses = 1): Promise<{ code: string; invite: InviteRow }> {
    if (!Number.isInteger(uses) || uses < 1 || uses > INVITE_USES_MAX) throw invalid(`uses must be a whole number from 1 to ${INVITE_USES_MAX}`)
    const code = randomBytes(18).toString('base64url')
    const invite = await this.store.transact((tx) => {
      const row = tx.invites.insert({ code_hash: hashSecret(code), uses_left: uses, uses, created_at: isoNow() })
      tx.emit('invite.created', { invite: row })
      return row
    })
    return { code, invite }
  }

  /** Every invitation, newest first. */
  async list(): Promise<InviteRow[]> {
    return this.store.read.invites.getMany(await this.store.read.invites.scan({ limit: Number.MAX_SAFE_INTEGER }))
  }

  /** Does `code` admit someone now? */
  async admits(code: string): Promise<boolean> {
    const invite = await this.store.read.invites.one('code', hashSecret(code))
    return invite !== null && invite.uses_left > 0
  }

  /**
   * Makes an account with `code`: a use is taken before `make` runs and
   * given back when it fails, so a link never admits more people than it
   * says, however many use it at once.
   * Errors: `forbidden` (used up or unknown), and `make`'s own. Emits
   * `invite.used`.
   */
  async admit(code: string, make: () => Promise<UserRow>): Promise<UserRow> {
    const taken = await this.store.transact(async (tx) => {
      const invite = await tx.invites.one('code', hashSecret(code))
      if (!invite || invite.uses_left < 1) throw expired()
      return tx.invites.put({ ...invite, uses_left: invite.uses_left - 1 })
    })
    let user: UserRow
    try {
      user = await make()
    } catch (err) {
      // The account was not made (a username taken, a password too short): the use goes back.
      await this.store.transact(async (tx) => {
        const invite = await tx.invites.get(taken.id)
        if (invite) tx.invites.put({ ...invite, uses_left: invite.uses_left + 1 })
      })
      throw err
    }
    await this.store.transact((tx) => tx.emit('invite.used', { invite: taken, user }))
    return user
  }
}
