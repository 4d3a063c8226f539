/** The signed-in user a write acts for. */
import { DomainError } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { Viewer } from '../viewer.js'

/**
 * The viewer's user. Routes already insist on a user token; this keeps the
 * services safe when called from elsewhere. Errors: `forbidden` (no user).
 */
export const actingUser = (viewer: Viewer): UserRow => {
  if (!viewer.user) throw new DomainError('forbidden', 'This endpoint requires a user token.', { slug: 'wrong-token-kind' })
  return viewer.user
}
