/**
 * "Forgot password?": a link mailed to an account's confirmed address lets
 * whoever holds it set a new password, once, within the hour. Asking
 * answers the same whether or not such an account exists, and takes the
 * same time (the mail goes out after the answer), so the form tells
 * nothing about who has an account; asking costs what a failed sign-in
 * costs the address it comes from. Setting the password is
 * `ModerationService.resetPassword`'s, as `svc user reset-password` does
 * it: every session and token of the account ends, and so does every
 * link of it.
 */
import { DomainError } from '../errors.js'
import type { Mailer, MailOutcome } from '../mail/mailer.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { emailKey } from '../users/email-rule.js'
import { isModerated } from '../users/moderated-users.js'
import { checkPasswordRule, type UserService } from '../users/users.js'
import { dropLinks, issueLink, liveLink, mailLink, newestLinkAt, type Addressed } from './account-links.js'
import { MAIL_SPACING_MS } from './email-addresses.js'
import type { SignInGuard } from './sign-in-guard.js'

/** How a new password is stored, every session and token of the account ended: `ModerationService.resetPassword`. */
export type ResetPassword = (userId: number, password: string, through: { by: 'link'; check: (tx: Tx, user: UserRow) => Promise<void> }) => Promise<UserRow>

const deadLink = (): DomainError =>
  new DomainError('forbidden', 'This link is used up or expired. Ask for a new one on the “Forgot password?” page.', { slug: 'link-expired' })

export class PasswordResetService {
  constructor(
    private readonly store: Store,
    private readonly users: UserService,
    private readonly guard: SignInGuard,
    private readonly mailer: Mailer | null,
    private readonly instance: string,
    private readonly resetPassword: ResetPassword,
  ) {}

  /** Can a link be mailed at all (is SMTP configured)? Without, people ask the operator. */
  get available(): boolean {
    return this.mailer !== null
  }

  /**
   * Someone at `from` forgot the password of the account `who` names (its
   * username, or its address). When it has a confirmed address and no
   * link went to it in the last minute, a new link is made (older ones
   * die) and mailed, both after this answers; `mail` settles with the
   * outcome (null: nothing was due) and never rejects. Errors: `rate_limited` (too many
   * tries from `from`, as sign-in counts them). Emits `account_link.created`.
   */
  async request(who: string, from: string, baseUrl: string): Promise<{ mail: Promise<MailOutcome | null> }> {
    await this.guard.charge(from)
    if (!this.mailer) return { mail: Promise.resolve(null) }
    const text = who.trim()
    const found = text.includes('@') && !text.startsWith('@') ? await this.store.read.users.one('email', emailKey(text)) : await this.users.byUsername(text)
    const user = found && !isModerated(found) && !found.remote && found.email?.confirmed_at !== undefined ? (found as Addressed) : null
    // Making the link, a write, comes after the answer too, so no account answers later than none.
    return { mail: user ? this.mailLinkTo(user, baseUrl) : Promise.resolve(null) }
  }

  private async mailLinkTo(user: Addressed, baseUrl: string): Promise<MailOutcome | null> {
    let code: string | null
    try {
      code = await this.store.transact(async (tx) => {
        const last = await newestLinkAt(tx, user.id, 'reset_password')
        return last !== null && Date.now() - last < MAIL_SPACING_MS ? null : issueLink(tx, user, 'reset_password')
      })
    } catch (err) {
      return { sent: false, reason: `the link could not be stored: ${(err as Error).message}` }
    }
    return code === null ? null : mailLink(this.mailer, this.instance, user, 'reset_password', code, baseUrl)
  }

  /** Does the link of `code` still hold (for the page that asks for the new password)? */
  async holds(code: string): Promise<boolean> {
    return (await liveLink(this.store.read, code, 'reset_password')) !== null
  }

  /**
   * Sets `password` on the account of the link of `code`, using up every
   * link of it, and ends every session and token of it. Answers the account.
   * Errors: `invalid` (password rules, checked before the link is used),
   * `forbidden` slug `link-expired` (used, expired, or the account moved on).
   * Emits `user.password_reset` (`by: 'link'`), then `token.deauthorized` per token.
   */
  async reset(code: string, password: string): Promise<UserRow> {
    checkPasswordRule(password)
    const live = await liveLink(this.store.read, code, 'reset_password')
    if (!live) throw deadLink()
    return this.resetPassword(live.user.id, password, {
      by: 'link',
      // Checked again in the commit: two people posting the link at once set one password, not two.
      check: async (tx, user) => {
        const still = await liveLink(tx, code, 'reset_password')
        if (!still || still.user.id !== user.id) throw deadLink()
        await dropLinks(tx, user.id, 'reset_password')
      },
    })
  }
}
