/** The owner's own e-mail address and what the mail it caused became. */
import type { EmailFacts, MailOutcome } from '../../../data/index.js'
import type { AccountEmail } from '../../api/index.js'

/** The plain words an owner reads about a confirmation mail; why it failed is the log's, not theirs. */
export const mailNotice = (outcome: MailOutcome, to: string): string =>
  outcome.sent ? `A mail with a link to confirm it is on its way to ${to}.` : 'The mail to confirm it could not be sent. Try again later, or ask the operator.'

export function presentAccountEmail(facts: EmailFacts, mail?: MailOutcome | null): AccountEmail {
  const { email } = facts
  const out: AccountEmail = {
    address: email?.address ?? null,
    confirmed: email?.confirmed_at !== undefined,
    mail_available: facts.mail_available,
    required: facts.required,
  }
  if (email?.confirmed_at) out.confirmed_at = email.confirmed_at
  if (mail && email) out.notice = mailNotice(mail, email.address)
  return out
}
