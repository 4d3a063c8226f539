/**
 * The mail port: what the domain needs of a mail server, one message at a
 * time. `smtp-mailer.ts` is the one implementation; an instance without
 * SMTP has none (null), and its pages say whom to ask instead.
 */

/** A plain-text message to one address. */
export interface MailMessage {
  to: string
  subject: string
  text: string
}

export interface Mailer {
  /** Hands `message` to the mail server. Rejects when it is not taken (unreachable, refused). */
  send(message: MailMessage): Promise<void>
}

/** Whether a mail went out; when it did not, why, in words safe for a log (no address, link or credential). */
export type MailOutcome = { sent: true } | { sent: false; reason: string }

/** Sends `message` through `mailer`, answering the outcome instead of rejecting: a mail that fails never fails what caused it. */
export async function trySend(mailer: Mailer | null, message: MailMessage): Promise<MailOutcome> {
  if (!mailer) return { sent: false, reason: 'no mail server is configured' }
  try {
    await mailer.send(message)
    return { sent: true }
  } catch (err) {
    return { sent: false, reason: reasonOf(err) }
  }
}

/** The error's code and its first line, cut short; an address the server's answer quotes (a refused recipient) is left out. */
const reasonOf = (err: unknown): string => {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown }
  const line =
    typeof message === 'string'
      ? message
          .split('\n')[0]
          .slice(0, 200)
          .replace(/<?[^\s<>]+@[^\s<>]+>?/g, '<address>')
      : 'unknown error'
  return typeof code === 'string' ? `${code}: ${line}` : line
}
