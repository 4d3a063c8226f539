import type { AppRow } from './model/app.js'
import type { TokenRow } from './model/token.js'
import type { UserRow } from './model/user.js'

/**
 * Who is asking: the authenticated token (if any), its app, and its user for
 * user tokens. Every service call that depends on permissions takes one.
 */
export interface Viewer {
  token?: TokenRow
  app?: AppRow
  user?: UserRow
}

export const anonymous: Viewer = Object.freeze({})

/** Does the viewer hold `scope`? `basic` is always held by user tokens; `post` is an alias of `write_post`. */
export const hasScope = (viewer: Viewer, scope: string): boolean => {
  const scopes = viewer.token?.scopes ?? []
  if (scope === 'basic') return viewer.token?.kind === 'user'
  if (scope === 'public_messages' && scopes.includes('messages')) return true
  return scopes.includes(scope) || (scope === 'write_post' && scopes.includes('post'))
}
