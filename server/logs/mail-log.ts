/** The log's line for a mail that did not go: what it was for and why, never to whom or with which link. */
import type { Request } from '@hapi/hapi'
import type { MailOutcome } from '../../data/index.js'

/** Logs `outcome` when it is a failure; the server's log, so a mail settling after its request answered is logged too. */
export function logUnsentMail(request: Request, what: string, outcome: MailOutcome | null): void {
  if (outcome && !outcome.sent) request.server.log(['mail', 'warn'], { msg: `${what} mail not sent`, reason: outcome.reason, request_id: request.info.id })
}
