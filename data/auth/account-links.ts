/**
 * Single-use links mailed to an account: confirm its address, set a new
 * password. The code is shown once, in the mail, and kept only as a hash,
 * as tokens are. A link holds until it is used, it expires, a newer link
 * of its purpose is made, or the account moves on: its address changed
 * (a confirmation), its password was reset or it was suspended (another
 * credential generation), or it was deleted.
 */
import { confirmAddressMail, resetPasswordMail } from '../mail/mail-texts.js'
import { trySend, type Mailer, type MailOutcome } from '../mail/mailer.js'
import type { AccountLinkRow, LinkPurpose } from '../model/account-link.js'
import type { UserRow } from '../model/user.js'
import { hashSecret, newSecret } from '../security/secrets.js'
import type { Readers, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import { emailKey } from '../users/email-rule.js'
import { isModerated } from '../users/moderated-users.js'
import { sessionEpochOf } from '../users/users.js'

const HOUR_MS = 3600 * 1000

/** How long each kind of link works. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = { confirm_email: 48 * HOUR_MS, reset_password: HOUR_MS }

/** The TTL in words, for the mail. */
export const validFor = (purpose: LinkPurpose): string => {
  const hours = LINK_TTL_MS[purpose] / HOUR_MS
  return hours === 1 ? '1 hour' : `${hours} hours`
}

const ALL = Number.MAX_SAFE_INTEGER

/** The page each link opens, under the instance's address; the code follows as `?token=`. */
export const LINK_PATHS: Record<LinkPurpose, string> = { confirm_email: '/email/confirm', reset_password: '/password/reset' }

/** An account with an address to mail. */
export type Addressed = UserRow & { email: { address: string } }

/**
 * Mails the link of `code` to `user`'s address, once the commit that made
 * it is durable. Answers whether it went; a failure rejects nothing.
 */
export function mailLink(mailer: Mailer | null, instance: string, user: Addressed, purpose: LinkPurpose, code: string, baseUrl: string): Promise<MailOutcome> {
  const mail = { instance, username: user.username, to: user.email.address, link: `${baseUrl}${LINK_PATHS[purpose]}?token=${code}`, valid: validFor(purpose) }
  return trySend(mailer, purpose === 'confirm_email' ? confirmAddressMail(mail) : resetPasswordMail(mail))
}

/** The links of `purpose` the account has. */
async function linksOf(tx: Readers | Tx, userId: number, purpose: LinkPurpose): Promise<AccountLinkRow[]> {
  return (await tx.account_links.getMany(await tx.account_links.ids('user', userId, { limit: ALL }))).filter((l) => l.purpose === purpose)
}

/** Removes every link of `purpose` the account has (used, or made stale by a newer one). */
export async function dropLinks(tx: Tx, userId: number, purpose: LinkPurpose): Promise<void> {
  for (const link of await linksOf(tx, userId, purpose)) tx.account_links.remove(link.id)
}

/** When the account's newest link of `purpose` was made (ms), or null: how the mails to one account are spaced. */
export async function newestLinkAt(tx: Readers | Tx, userId: number, purpose: LinkPurpose): Promise<number | null> {
  const times = (await linksOf(tx, userId, purpose)).map((l) => Date.parse(l.created_at))
  return times.length === 0 ? null : Math.max(...times)
}

/**
 * Makes a link of `purpose` for `user` (whose address it is mailed to), in
 * `tx`; older ones of that purpose die. Answers its code, to be mailed and
 * never kept. Emits `account_link.created`.
 */
export async function issueLink(tx: Tx, user: Addressed, purpose: LinkPurpose, now = Date.now()): Promise<string> {
  await dropLinks(tx, user.id, purpose)
  const code = newSecret()
  const link = tx.account_links.insert({
    user_id: user.id,
    purpose,
    code_hash: hashSecret(code),
    address: emailKey(user.email.address),
    epoch: sessionEpochOf(user),
    created_at: isoNow(new Date(now)),
    expires_at: isoNow(new Date(now + LINK_TTL_MS[purpose])),
  })
  tx.emit('account_link.created', { link })
  return code
}

/**
 * The link `code` of `purpose` with its account, while it holds (see the
 * file's comment); null otherwise, whatever the reason, so a page tells
 * nothing about an account from a code.
 */
export async function liveLink(
  tx: Readers | Tx,
  code: string,
  purpose: LinkPurpose,
  now = Date.now(),
): Promise<{ link: AccountLinkRow; user: UserRow } | null> {
  const link = await tx.account_links.one('code', hashSecret(code))
  if (!link || link.purpose !== purpose || Date.parse(link.expires_at) <= now) return null
  const user = await tx.users.get(link.user_id)
  if (!user || isModerated(user) || user.remote || !user.email || emailKey(user.email.address) !== link.address) return null
  if (purpose === 'reset_password' && sessionEpochOf(user) !== link.epoch) return null
  return { link, user }
}
