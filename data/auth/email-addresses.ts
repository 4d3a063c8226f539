/**
 * An account's e-mail address, its owner's alone: seen and changed only by
 * the owner through svc's own web client (an app holding a token of theirs
 * could otherwise point "forgot password" at a mailbox of its own), a
 * change proved with the password. A new address is unconfirmed until the
 * link mailed to it is followed.
 */
import { DomainError, forbidden, invalid } from '../errors.js'
import type { Mailer, MailOutcome } from '../mail/mailer.js'
import type { AccountEmail } from '../model/account-email.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import { checkEmailAddress, emailKey } from '../users/email-rule.js'
import { emailTaken, type UserService } from '../users/users.js'
import type { Viewer } from '../viewer.js'
import { issueLink, liveLink, mailLink, newestLinkAt, dropLinks, type Addressed } from './account-links.js'
import type { SignInGuard } from './sign-in-guard.js'

/** The least time between two mails of one kind to one account. */
export const MAIL_SPACING_MS = 60_000

export interface EmailSettings {
  /** The instance's name, in the mails. */
  name: string
  require_email: boolean
}

/** What the owner's settings show: the address, whether mail can be sent at all, and whether an address is required. */
export interface EmailFacts {
  email: AccountEmail | null
  mail_available: boolean
  required: boolean
}

const hasAddress = (user: UserRow): user is Addressed => user.email !== undefined

export class EmailAddressService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly guard: SignInGuard,
    private readonly mailer: Mailer | null,
    private readonly settings: EmailSettings,
  ) {}

  /** Can the instance send mail (is SMTP configured)? */
  get mailAvailable(): boolean {
    return this.mailer !== null
  }

  /** The viewer's own address and what goes with it. Errors: `forbidden` (not a user token of svc's own web client). */
  facts(viewer: Viewer): EmailFacts {
    return this.factsOf(owner(viewer))
  }

  private factsOf(user: UserRow): EmailFacts {
    return { email: user.email ?? null, mail_available: this.mailAvailable, required: this.settings.require_email }
  }

  /**
   * Sets the viewer's address to `input.address` ('' removes it, unless
   * addresses are required), proved with their password (a guess from
   * `from`, counted as sign-in's are), then mails a confirmation link to a
   * new address after the commit (when the instance sends mail). The same
   * address again changes nothing. Answers the account and the mail's
   * outcome (null: none was due) with the facts after it. The same
   * address in another case changes only how it is written.
   * Errors: `forbidden` (see `facts`), `invalid` (wrong password, not an
   * address, required), `conflict` (another account's), `rate_limited`.
   * Emits `user.email_changed`, `account_link.created`.
   */
  async change(
    viewer: Viewer,
    input: { address: string; password: string },
    from: string,
    baseUrl: string,
  ): Promise<{ facts: EmailFacts; mail: MailOutcome | null }> {
    const me = owner(viewer)
    const address = input.address.trim() === '' ? null : checkEmailAddress(input.address)
    if (address === null && this.settings.require_email) throw invalid('an e-mail address is required on this instance')
    const proved = await this.guard.attempt({ address: from, account: me.username }, () => this.users.checkPassword(me.username, input.password))
    if (!proved || proved.id !== me.id) throw invalid('wrong password')
    const { user, code } = await this.store.transact(async (tx) => {
      const row = await tx.users.get(me.id)
      if (!row) throw forbidden('this account is gone')
      if ((row.email?.address ?? null) === address) return { user: row, code: null }
      // The same address in another case stays confirmed: addresses are told apart case-insensitively.
      if (row.email && address !== null && emailKey(row.email.address) === emailKey(address)) {
        const user = tx.users.put({ ...row, email: { ...row.email, address } })
        tx.emit('user.email_changed', { user })
        return { user, code: null }
      }
      if (address !== null) {
        const holder = await tx.users.one('email', emailKey(address))
        if (holder && holder.id !== row.id) throw emailTaken()
      }
      const { email: _old, ...rest } = row
      const user = tx.users.put(address === null ? rest : { ...rest, email: { address } })
      await dropLinks(tx, user.id, 'confirm_email')
      tx.emit('user.email_changed', { user })
      return { user, code: hasAddress(user) && this.mailer ? await issueLink(tx, user, 'confirm_email') : null }
    })
    const mail = code !== null && hasAddress(user) ? await mailLink(this.mailer, this.settings.name, user, 'confirm_email', code, baseUrl) : null
    return { facts: this.factsOf(user), mail }
  }

  /**
   * Mails the confirmation link of a new account's address (sign-up):
   * answers the outcome, or null when the account has no address or the
   * instance sends no mail.
   * Emits `account_link.created`.
   */
  async confirmNew(user: UserRow, baseUrl: string): Promise<MailOutcome | null> {
    if (!hasAddress(user) || user.email.confirmed_at !== undefined || !this.mailer) return null
    const code = await this.store.transact((tx) => issueLink(tx, user, 'confirm_email'))
    return mailLink(this.mailer, this.settings.name, user, 'confirm_email', code, baseUrl)
  }

  /**
   * Mails the viewer's unconfirmed address a new confirmation link (the
   * older one dies); answers the outcome with the facts. Errors: `forbidden` (see `facts`), `invalid` (no
   * mail server, no address, or confirmed already), `rate_limited` (one was mailed less
   * than a minute ago). Emits `account_link.created`.
   */
  async resend(viewer: Viewer, baseUrl: string): Promise<{ facts: EmailFacts; mail: MailOutcome }> {
    const me = owner(viewer)
    if (!this.mailer) throw invalid('this instance sends no mail: ask its operator')
    const { user, code } = await this.store.transact(async (tx) => {
      const user = await tx.users.get(me.id)
      if (!user || !hasAddress(user)) throw invalid('the account has no e-mail address to confirm')
      if (user.email.confirmed_at !== undefined) throw invalid('the e-mail address is confirmed already')
      const last = await newestLinkAt(tx, user.id, 'confirm_email')
      const wait = last === null ? 0 : last + MAIL_SPACING_MS - Date.now()
      if (wait > 0) {
        const s = Math.ceil(wait / 1000)
        throw new DomainError('rate_limited', `a mail went to this address less than a minute ago; try again in ${s} seconds`, { retryAfter: s })
      }
      return { user, code: await issueLink(tx, user, 'confirm_email') }
    })
    return { facts: this.factsOf(user), mail: await mailLink(this.mailer, this.settings.name, user, 'confirm_email', code, baseUrl) }
  }

  /**
   * Confirms the address the link of `code` was mailed to, using the link
   * up. Answers the account, or null when the link does not hold (used,
   * expired, the address changed since). Emits `user.email_confirmed`.
   */
  async confirm(code: string): Promise<UserRow | null> {
    return this.store.transact(async (tx) => {
      const live = await liveLink(tx, code, 'confirm_email')
      if (!live || !hasAddress(live.user)) return null
      await dropLinks(tx, live.user.id, 'confirm_email')
      const user = tx.users.put({ ...live.user, email: { ...live.user.email, confirmed_at: isoNow() } })
      tx.emit('user.email_confirmed', { user })
      return user
    })
  }
}

/** The viewer's account, when the viewer is its owner in svc's own web client. Errors: `forbidden`. */
function owner(viewer: Viewer): UserRow {
  if (!viewer.user || viewer.token?.kind !== 'user' || viewer.app?.first_party !== true)
    throw forbidden('only svc’s own web client, signed in as the account’s owner, sees or changes its e-mail address')
  return viewer.user
}
