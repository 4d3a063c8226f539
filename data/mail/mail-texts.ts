/** The words of the mails svc sends: plain text, the link on a line of its own. */
import type { MailMessage } from './mailer.js'

interface LinkMail {
  /** The instance's name. */
  instance: string
  username: string
  to: string
  link: string
  /** How long the link works, in words ("1 hour"). */
  valid: string
}

const footer = (instance: string): string => `\n\n-- \n${instance}`

/** Asks the owner of a new address to confirm it. */
export const confirmAddressMail = ({ instance, username, to, link, valid }: LinkMail): MailMessage => ({
  to,
  subject: `Confirm your e-mail address on ${instance}`,
  text:
    `Hello @${username},\n\nPlease confirm that this is your address by opening this link (it works once, for ${valid}):\n\n${link}\n\n` +
    `If you did not give this address on ${instance}, ignore this mail: the address stays unconfirmed.` +
    footer(instance),
})

/** The "forgot password" link. */
export const resetPasswordMail = ({ instance, username, to, link, valid }: LinkMail): MailMessage => ({
  to,
  subject: `Set a new password on ${instance}`,
  text:
    `Hello @${username},\n\nSomeone, hopefully you, asked to set a new password for your account. Open this link to choose one ` +
    `(it works once, for ${valid}):\n\n${link}\n\nSetting it signs your account out everywhere. ` +
    `If you did not ask, ignore this mail: your password stays as it is.` +
    footer(instance),
})
