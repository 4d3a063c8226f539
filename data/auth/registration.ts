/**
 * Who may make an account, and how: the registration mode (`registration`
 * in config.json, else the older `open_registration`), the rules a
 * newcomer agrees to, and the queue of accounts waiting for the operator's
 * approval, which they let in or turn away.
 */
import type { InstanceConfig } from '../config.js'
import { conflict, forbidden, invalid, notFound } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import type { UserService } from '../users/users.js'
import type { InviteService } from './invites.js'

export type RegistrationMode = NonNullable<InstanceConfig['registration']>

/** The most characters of "why do you want to join?" an approval request carries. */
export const JOIN_NOTE_MAX = 500

/** The instance settings registration reads (live, so a config change applies at once). */
export type RegistrationSettings = Pick<InstanceConfig, 'registration' | 'open_registration' | 'rules' | 'require_email'>

/** The mode in force: `registration` when given, else what `open_registration` always meant (true: open, false: invitations only). */
export const registrationModeOf = (settings: Pick<InstanceConfig, 'registration' | 'open_registration'>): RegistrationMode =>
  settings.registration ?? (settings.open_registration ? 'open' : 'invite')

/** The slug of a right password on an account that still waits: the pages and the token endpoint say so. */
export const ACCOUNT_WAITING = 'account-waiting'

export const accountWaiting = () => forbidden('Your account waits for the operator’s approval. You can sign in once they let you in.', ACCOUNT_WAITING)

/** What `/signup` shows a visitor: the form (with the rules, whether the account will wait, whether an invitation admits them), or why not. */
export type SignUpOffer = { open: true; rules: string; invited: boolean; waits: boolean } | { open: false; reason: string }

export interface SignUpInput {
  username: string
  password: string
  name?: string
  /** An invitation's code. */
  invite?: string
  /** The visitor ticked "I agree to the rules". */
  agreed?: boolean
  /** In `approval` mode: why they want to join, for the operator. */
  note?: string
  /** The owner's e-mail address (required where `require_email`), unconfirmed until its mailed link is followed. */
  email?: string
  /** The password typed a second time, where the form asks for it: a typo in a password nobody can see would lock the account out. */
  password_again?: string
}

const REFUSALS: Record<'invite' | 'closed', string> = {
  invite: 'This instance admits new accounts by invitation only. Ask its operator for an invitation link.',
  closed: 'This instance does not take new accounts.',
}

const notWaiting = (user: UserRow) => conflict(`@${user.username} is not waiting for approval`)

export class RegistrationService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly invites: InviteService,
    private readonly settings: RegistrationSettings,
  ) {}

  get mode(): RegistrationMode {
    return registrationModeOf(this.settings)
  }

  /** The rules text, trimmed; empty when the instance has none. */
  get rules(): string {
    return this.settings.rules.trim()
  }

  /** May anyone ask for an account at /signup (mode `open` or `approval`)? */
  get signUpOffered(): boolean {
    return this.mode === 'open' || this.mode === 'approval'
  }

  /**
   * What `/signup` shows someone following `invite` (a code, if any): the
   * form while anyone may sign up or the code still admits someone
   * (`closed` refuses even those), else the reason it is shut.
   */
  async offer(invite?: string): Promise<SignUpOffer> {
    const { mode, rules } = this
    if (mode === 'closed') return { open: false, reason: REFUSALS.closed }
    // In `open` mode a link changes nothing; elsewhere it admits directly, without waiting.
    const invited = mode !== 'open' && invite !== undefined && (await this.invites.admits(invite))
    if (invited || this.signUpOffered) return { open: true, rules, invited, waits: mode === 'approval' && !invited }
    return { open: false, reason: invite === undefined ? REFUSALS.invite : 'This invitation is used up or unknown. Ask the operator for another.' }
  }

  /**
   * Makes an account from the sign-up page, as the mode says: at once
   * (`open`, or with an invitation's code, which it spends), waiting for
   * the operator (`approval`, with the visitor's note), or not at all.
   * Errors: `invalid` (the password typed again differs, the rules not
   * agreed to, a note too long, the account rules of
   * `UserService.create`), `conflict` (username taken),
   * `forbidden` (`closed`; `invite` without a usable code). Emits
   * `user.created` (carrying `waiting_approval` when it waits), and
   * `invite.used` for an invitation.
   */
  async signUp(input: SignUpInput): Promise<UserRow> {
    if (input.password.length > 200) throw invalid('password must be at most 200 characters')
    if (input.password_again !== undefined && input.password_again !== input.password)
      throw invalid('The two passwords differ: type the same password in both fields.')
    if (this.rules !== '' && input.agreed !== true) throw invalid('Please read the rules and tick “I agree to the rules” to make an account.')
    const note = input.note?.trim() ?? ''
    if ([...note].length > JOIN_NOTE_MAX) throw invalid(`what you tell the operator must be at most ${JOIN_NOTE_MAX} characters`)
    // An address is optional unless the operator requires one (`require_email`).
    const email = input.email?.trim() || undefined
    if (this.settings.require_email && !email) throw invalid('an e-mail address is required on this instance')
    const { mode } = this
    const make = (waits: boolean) => () =>
      this.users.create({
        username: input.username,
        password: input.password,
        name: input.name || undefined,
        type: 'human',
        email,
        ...(waits ? { waiting: note === '' ? {} : { note } } : {}),
      })
    if (mode === 'closed') throw forbidden(REFUSALS.closed)
    if (mode === 'open') return make(false)()
    if (input.invite) return this.invites.admit(input.invite, make(false))
    if (mode === 'approval') return make(true)()
    throw forbidden(REFUSALS.invite)
  }

  /** The accounts waiting for approval, oldest first. */
  async waiting(): Promise<UserRow[]> {
    return (await this.users.list()).filter((u) => u.waiting_approval !== undefined)
  }

  /**
   * Lets in an account that waits: from the commit on it signs in and shows
   * like any other. Answers the row. Errors: `not_found` (unknown or
   * deleted), `conflict` (it does not wait). Emits `user.approved`.
   */
  async approve(userId: number): Promise<UserRow> {
    return this.store.transact(async (tx) => {
      const row = await tx.users.get(userId)
      if (!row || row.deleted_at !== undefined) throw notFound(`user ${userId} not found`)
      if (row.waiting_approval === undefined) throw notWaiting(row)
      const { waiting_approval: _, ...rest } = row
      const user = tx.users.put(rest)
      tx.emit('user.approved', { user })
      return user
    })
  }

  /**
   * Turns away an account that waits: its row goes (it never signed in, so
   * nothing else points at it) and its username is free again. Answers the
   * row as it was. Errors: `not_found`, `conflict` (it does not wait: an
   * account that was let in is deleted with `ModerationService.deleteUser`).
   * Emits `user.rejected`.
   */
  async reject(userId: number): Promise<UserRow> {
    return this.store.transact(async (tx) => {
      const row = await tx.users.get(userId)
      if (!row || row.deleted_at !== undefined) throw notFound(`user ${userId} not found`)
      if (row.waiting_approval === undefined) throw notWaiting(row)
      tx.users.remove(row.id)
      tx.emit('user.rejected', { user: row })
      return row
    })
  }
}
