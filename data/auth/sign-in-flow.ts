/**
 * The decisions of the browser flow at `/oauth/authenticate|authorize` and
 * `/signup`: after each thing the visitor does (opens the link, signs in or
 * out, approves, denies, creates an account), which step comes next, whether
 * consent was already given, and who is signed in from then on. The pages
 * and the session cookie are the server's; this file knows neither.
 */
import { isDomainError } from '../errors.js'
import type { UserRow } from '../model/user.js'
import type { UserService } from '../users/users.js'
import { isModerated } from '../users/moderated-users.js'
import type { Authorization, AuthorizationRequest, OAuthService } from './oauth.js'

export type FlowMode = 'authenticate' | 'authorize'

/** What the visitor did: opened the flow's link, or posted one of its forms. */
export type FlowAction =
  { kind: 'view' } | { kind: 'sign_in'; username: string; password: string } | { kind: 'sign_out' } | { kind: 'approve' } | { kind: 'deny' }

export interface FlowInput {
  mode: FlowMode
  request: AuthorizationRequest
  /** The user the visitor's session is signed in as, if any. */
  userId?: number
  action: FlowAction
  /** App.net's `adnview`: `appstore` hides the sign-up link, as App.net did for apps sold in app stores. */
  view?: string
}

/** What the browser flow shows or does next. */
export type FlowStep =
  | { kind: 'sign-in'; authorization: Authorization; offerSignUp: boolean; failed?: { message: string; username: string } }
  | { kind: 'consent'; authorization: Authorization; user: UserRow }
  | { kind: 'redirect'; location: string }

export interface FlowOutcome {
  step: FlowStep
  /** The session starts over (a new CSRF token), signed in as `userId` or signed out without one; absent: it stays as it is. */
  newSession?: { userId?: number }
}

export type SignUpOutcome = { kind: 'signed-up'; user: UserRow; next?: string } | { kind: 'retry'; message: string }

export class SignInFlow {
  constructor(
    private readonly oauth: OAuthService,
    private readonly users: UserService,
  ) {}

  /** Is anyone allowed to create an account at /signup? */
  get signUpOpen(): boolean {
    return this.oauth.openRegistration
  }

  /**
   * The step after `input.action`. Signing in with a wrong password shows
   * the sign-in step again with `failed`; approving or denying while signed
   * out leads to the sign-in step. At `authenticate`, a signed-in user who
   * already granted every asked scope goes straight back to the client (as
   * `OAuthService.approve`). Errors: as `OAuthService.prepare` (the request
   * itself is wrong: no redirect may happen); `unauthenticated` when the
   * session's account is gone at approval. Emits the token events of an
   * implicit-flow approval. A suspended account's right password shows the
   * sign-in step again, saying it is suspended.
   */
  async next(input: FlowInput): Promise<FlowOutcome> {
    const { action } = input
    switch (action.kind) {
      case 'view':
        return { step: await this.step(input, input.userId) }
      case 'sign_out':
        return { step: await this.step(input, undefined), newSession: {} }
      case 'approve':
      case 'deny': {
        if (input.userId === undefined) return { step: await this.step(input, undefined) }
        return { step: { kind: 'redirect', location: await this.oauth.decide(input.request, input.userId, action.kind === 'approve') } }
      }
      case 'sign_in': {
        let failure = 'Wrong username or password.'
        const user = await this.oauth.signIn(action.username, action.password).catch((err: unknown) => {
          if (!isDomainError(err) || (err.slug !== 'invalid-grant' && err.slug !== 'account-suspended')) return Promise.reject(err)
          if (err.slug === 'account-suspended') failure = err.message
          return null
        })
        if (!user) {
          const step = await this.step(input, undefined)
          return { step: step.kind === 'sign-in' ? { ...step, failed: { message: failure, username: action.username } } : step }
        }
        return { step: await this.step(input, user.id), newSession: { userId: user.id } }
      }
    }
  }

  /**
   * Creates an account from the sign-up page and signs it in; `next` is
   * where the browser goes on (already checked to lead back into the flow).
   * A broken rule (`invalid`, `conflict`) answers `retry` with the message
   * for the form. Errors: `forbidden` when open registration is off.
   * Emits `user.created`.
   */
  async signUp(input: { username: string; password: string; name?: string; next?: string }): Promise<SignUpOutcome> {
    try {
      const user = await this.oauth.signUp(input)
      return input.next === undefined ? { kind: 'signed-up', user } : { kind: 'signed-up', user, next: input.next }
    } catch (err) {
      if (isDomainError(err) && (err.code === 'invalid' || err.code === 'conflict')) return { kind: 'retry', message: err.message }
      throw err
    }
  }

  private async step(input: FlowInput, userId: number | undefined): Promise<FlowStep> {
    const authorization = await this.oauth.prepare(input.request)
    const found = userId === undefined ? null : await this.users.get(userId)
    // A session of an account suspended since is signed out.
    const user = found && !isModerated(found) ? found : null
    if (!user) return { kind: 'sign-in', authorization, offerSignUp: this.signUpOpen && input.view !== 'appstore' }
    if (input.mode === 'authenticate' && (await this.oauth.alreadyGranted(user, authorization))) {
      return { kind: 'redirect', location: await this.oauth.approve(user, authorization) }
    }
    return { kind: 'consent', authorization, user }
  }
}
