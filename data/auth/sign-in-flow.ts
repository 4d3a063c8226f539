/**
 * The decisions of the browser flow at `/oauth/authenticate|authorize` and
 * `/signup`: after each thing the visitor does (opens the link, signs in or
 * out, approves, denies, creates an account), which step comes next, whether
 * consent was already given, and who is signed in from then on. The pages
 * and the session cookie are the server's; this file knows neither.
 */
import { isDomainError } from '../errors.js'
import type { UserRow } from '../model/user.js'
import { sessionEpochOf, type SessionClaim, type UserService } from '../users/users.js'
import type { Authorization, AuthorizationRequest, OAuthService } from './oauth.js'
import { ACCOUNT_WAITING, type RegistrationService, type SignUpInput } from './registration.js'
import type { PendingSignIn, SecondStep } from './two-factor/second-step.js'

export type FlowMode = 'authenticate' | 'authorize'

/** What the visitor did: opened the flow's link, or posted one of its forms. */
export type FlowAction =
  | { kind: 'view' }
  | { kind: 'sign_in'; username: string; password: string }
  | { kind: 'sign_out' }
  | { kind: 'approve' }
  | { kind: 'deny' }
  /** The code of the second step, after the right password of a two-factor account. */
  | { kind: 'second_factor'; code: string }

export interface FlowInput {
  mode: FlowMode
  request: AuthorizationRequest
  /** The user the visitor's session is signed in as, if any. */
  userId?: number
  /** The credential generation the session was signed in under (absent: 0); a stale one reads as signed out. */
  epoch?: number
  /** The visitor gave the right password of a two-factor account and owes a code (see second-step.ts). */
  pending?: PendingSignIn
  /** Where the visitor's request came from: a password tried is a guess from there. */
  address: string
  action: FlowAction
  /** App.net's `adnview`: `appstore` hides the sign-up link, as App.net did for apps sold in app stores. */
  view?: string
}

/** Why the last sign-in failed, and what was typed; `retryAfter` (seconds) when it was refused for too many failures. */
export interface SignInFailure {
  message: string
  username: string
  retryAfter?: number
}

/** What the browser flow shows or does next. */
export type FlowStep =
  | {
      kind: 'sign-in'
      authorization: Authorization
      offerSignUp: boolean
      failed?: SignInFailure
      /** Sign-ups wait for the operator's approval: the link asks for an account. */
      signUpWaits?: true
    }
  | { kind: 'consent'; authorization: Authorization; user: UserRow }
  /** The code of a two-factor account, after its password. */
  | { kind: 'second-factor'; authorization: Authorization; username: string; failed?: SignInFailure }
  | { kind: 'redirect'; location: string }

export interface FlowOutcome {
  step: FlowStep
  /**
   * The session starts over (a new CSRF token), signed in as `userId` under
   * credential generation `epoch`, or signed out without them (half signed
   * in with `pending`); absent: it stays as it is.
   */
  newSession?: { userId?: number; epoch?: number; pending?: PendingSignIn }
}

/** The account is made and signed in (`signed-up`), made but waiting for the operator (`waiting`: not signed in), or the form comes back. */
export type SignUpOutcome = { kind: 'signed-up'; user: UserRow; next?: string } | { kind: 'waiting'; user: UserRow } | { kind: 'retry'; message: string }

export class SignInFlow {
  constructor(
    private readonly oauth: OAuthService,
    private readonly users: UserService,
    private readonly registration: RegistrationService,
    private readonly secondStep: SecondStep,
  ) {}

  /** May anyone ask for an account at /signup (the sign-in page links to it)? */
  get signUpOpen(): boolean {
    return this.registration.signUpOffered
  }

  /**
   * The step after `input.action`. A session whose account is gone or
   * suspended, or whose password was reset or which was suspended since it
   * signed in, is over: it reads as signed out and starts over without a
   * user. Signing in with a wrong password, or too often
   * (`failed.retryAfter`), shows the sign-in step again with `failed`;
   * approving or denying while signed out leads to the sign-in step. At
   * `authenticate`, a signed-in user who already granted every asked scope
   * goes straight back to the client (as `OAuthService.approve`), and so
   * does one signing in to svc's own web client (`first_party`), which
   * never asks for consent.
   * Errors: as `OAuthService.prepare` (the request itself is wrong: no
   * redirect may happen); `unauthenticated` when the session's account
   * stopped holding during approval. Emits the token events of an
   * implicit-flow approval. A suspended account's right password shows the
   * sign-in step again, saying it is suspended. The right password of an
   * account with two-factor sign-in leads to the code step instead, half
   * signed in (`newSession.pending`); a wrong code shows it again, a right
   * one (or a recovery code) signs in, and a state that ran out (or whose
   * account moved on) leads back to the sign-in step.
   */
  async next(input: FlowInput): Promise<FlowOutcome> {
    const { action } = input
    const claim: SessionClaim | null = input.userId === undefined ? null : { userId: input.userId, epoch: input.epoch ?? 0 }
    const user = claim ? await this.users.sessionUser(claim) : null
    // A session that no longer holds ends, unless this step starts another anyway.
    const ended = claim !== null && user === null ? { newSession: {} } : {}
    switch (action.kind) {
      case 'view': {
        const owing = user ? null : await this.secondStep.holder(input.pending)
        if (owing) return { step: { kind: 'second-factor', authorization: await this.oauth.prepare(input.request), username: owing.username }, ...ended }
        return { step: await this.step(input, user), ...ended }
      }
      case 'second_factor':
        return this.secondFactor(input, action.code)
      case 'sign_out':
        return { step: await this.step(input, null), newSession: {} }
      case 'approve':
      case 'deny': {
        if (!user || !claim) return { step: await this.step(input, null), ...ended }
        return { step: { kind: 'redirect', location: await this.oauth.decide(input.request, claim, action.kind === 'approve') } }
      }
      case 'sign_in': {
        let failed: SignInFailure = { message: 'Wrong username or password.', username: action.username }
        const signedIn = await this.oauth.signIn(action.username, action.password, input.address).catch((err: unknown) => {
          if (!isDomainError(err)) return Promise.reject(err)
          if (err.code === 'rate_limited') failed = { ...failed, message: err.message, retryAfter: err.retryAfter }
          else if (err.slug === 'account-suspended' || err.slug === ACCOUNT_WAITING) failed = { ...failed, message: err.message }
          else if (err.slug !== 'invalid-grant') return Promise.reject(err)
          return null
        })
        if (!signedIn) {
          const step = await this.step(input, null)
          return { step: step.kind === 'sign-in' ? { ...step, failed } : step, ...ended }
        }
        const pending = await this.secondStep.pendingFor(signedIn)
        if (pending) {
          const authorization = await this.oauth.prepare(input.request)
          return { step: { kind: 'second-factor', authorization, username: signedIn.username }, newSession: { pending } }
        }
        return { step: await this.step(input, signedIn), newSession: { userId: signedIn.id, epoch: sessionEpochOf(signedIn) } }
      }
    }
  }

  /** The second step's code: signed in under the generation the password was given in, the step again when wrong, the sign-in step when the state ran out. */
  private async secondFactor(input: FlowInput, code: string): Promise<FlowOutcome> {
    const result = await this.secondStep.check(input.pending, code, input.address)
    if (result.kind === 'signed-in' && input.pending) {
      return { step: await this.step(input, result.user), newSession: { userId: result.user.id, epoch: input.pending.epoch } }
    }
    if (result.kind === 'wrong') {
      const failed: SignInFailure = {
        message: result.message,
        username: result.username,
        ...(result.retryAfter === undefined ? {} : { retryAfter: result.retryAfter }),
      }
      return { step: { kind: 'second-factor', authorization: await this.oauth.prepare(input.request), username: result.username, failed } }
    }
    const step = await this.step(input, null)
    const failed: SignInFailure = { message: 'The sign-in took too long: enter your password again.', username: '' }
    return { step: step.kind === 'sign-in' ? { ...step, failed } : step, newSession: {} }
  }

  /**
   * Creates an account from the sign-up page and signs it in; `next` is
   * where the browser goes on (already checked to lead back into the flow).
   * An account that waits for the operator's approval is not signed in
   * (`waiting`). A broken rule (`invalid`, `conflict`) answers `retry` with
   * the message for the form. Errors: `forbidden` when the registration mode
   * refuses. Emits as `RegistrationService.signUp`.
   */
  async signUp(input: SignUpInput & { next?: string }): Promise<SignUpOutcome> {
    try {
      const user = await this.oauth.signUp(input)
      if (user.waiting_approval !== undefined) return { kind: 'waiting', user }
      return input.next === undefined ? { kind: 'signed-up', user } : { kind: 'signed-up', user, next: input.next }
    } catch (err) {
      if (isDomainError(err) && (err.code === 'invalid' || err.code === 'conflict')) return { kind: 'retry', message: err.message }
      throw err
    }
  }

  private async step(input: FlowInput, user: UserRow | null): Promise<FlowStep> {
    const authorization = await this.oauth.prepare(input.request)
    if (!user) {
      const offerSignUp = this.signUpOpen && input.view !== 'appstore'
      return { kind: 'sign-in', authorization, offerSignUp, ...(offerSignUp && this.registration.mode === 'approval' ? { signUpWaits: true as const } : {}) }
    }
    // svc's own web client is part of svc: asking people whether it may act for them would ask about svc itself.
    if (authorization.app.first_party === true || (input.mode === 'authenticate' && (await this.oauth.alreadyGranted(user, authorization)))) {
      return { kind: 'redirect', location: await this.oauth.approve(user, authorization) }
    }
    return { kind: 'consent', authorization, user }
  }
}
