/** The pages of the browser flow: sign in, consent, and account creation. */
import type { Authorization, AuthorizationRequest, UserRow } from '../../data/index.js'
import { esc, hidden, layout } from './layout.js'
import { rulesSection, signupEnd, signupTitle, type SignupAsk } from './registration-pages.js'
import { forgotHref } from './account-mail-pages.js'

/** What each scope lets an app do, in the words the consent page uses. */
const SCOPE_TEXT: Record<string, string> = {
  basic: 'See your basic profile information',
  stream: 'Read your stream and stream markers',
  write_post: 'Create and delete posts, repost and star for you',
  follow: 'Follow, unfollow, mute and block users for you',
  update_profile: 'Update your name, description, avatar and cover',
  public_messages: 'Send and receive messages in public channels',
  messages: 'Send and receive your private and public messages',
  files: 'Manage your files',
  export: 'Export all of your data',
}

/** The authorization request's fields as the forms carry them back. */
export const requestFields = (r: AuthorizationRequest): Record<string, string | undefined> => ({
  client_id: r.client_id,
  response_type: r.response_type,
  redirect_uri: r.redirect_uri,
  scope: r.scope,
  state: r.state,
})

export interface FlowPage {
  /** Path the forms post to: `/oauth/authenticate` or `/oauth/authorize`. */
  action: string
  request: AuthorizationRequest
  authorization: Authorization
  csrf: string
  error?: string
}

/** The instance a visitor is at, as the operator named and described it. */
export interface InstanceIdentity {
  name: string
  description: string
}

/** The instance's name and description above a form, so people know where they give their password. */
export const instanceLine = (instance: InstanceIdentity): string =>
  `<p class="instance"><strong>${esc(instance.name)}</strong>${instance.description ? `<br><span class="muted">${esc(instance.description)}</span>` : ''}</p>`

/** Where a page about a new account leads on: svc's own web client, which signs in at once (`?sign-in`, see server/web/src/landing.tsx). */
export const onwardLink = (instance: InstanceIdentity): string => `<p><a class="onward" href="/?sign-in">Continue to ${esc(instance.name)}</a></p>`

export const errorLine = (error?: string): string => (error ? `<p class="error" role="alert">${esc(error)}</p>` : '')

/** The flow's own address with its request, for a page that leads back to it. */
const flowUrl = (page: FlowPage): string => {
  const fields = Object.entries(requestFields(page.request)).filter((e): e is [string, string] => e[1] !== undefined)
  return `${page.action}?${new URLSearchParams(fields)}`
}

export function signInPage(page: FlowPage, options: { instance: InstanceIdentity; signupHref?: string; username?: string; signupWaits?: boolean }): string {
  const signup = options.signupHref
    ? `<p class="muted">No account yet? <a href="${esc(options.signupHref)}">${options.signupWaits ? 'Request one' : 'Create one'}</a>.</p>`
    : ''
  return layout(
    'Sign in',
    // svc's own client is the instance to the people using it; any other app is named as the one they are about to use.
    `${instanceLine(options.instance)}<h1>Sign in ${page.authorization.app.first_party ? `to ${esc(options.instance.name)}` : `to continue to ${esc(page.authorization.app.name)}`}</h1>${errorLine(page.error)}` +
      `<form method="post" action="${esc(page.action)}">${hidden({ ...requestFields(page.request), csrf: page.csrf, action: 'sign_in' })}` +
      `<label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required maxlength="20" value="${esc(options.username ?? '')}">` +
      `<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required maxlength="200">` +
      `<button type="submit">Sign in</button></form>` +
      `<p class="muted"><a href="${esc(forgotHref(flowUrl(page)))}">Forgot password?</a></p>${signup}`,
  )
}

export function consentPage(page: FlowPage, user: UserRow): string {
  const scopes = page.authorization.scopes.map((s) => `<li>${esc(SCOPE_TEXT[s] ?? s)} <span class="muted">(${esc(s)})</span></li>`).join('')
  const fields = { ...requestFields(page.request), csrf: page.csrf }
  return layout(
    'Authorize',
    `<h1>${esc(page.authorization.app.name)} would like to</h1><ul class="scopes">${scopes}</ul>${errorLine(page.error)}` +
      `<p class="muted">Signed in as @${esc(user.username)}. You will return to ${esc(page.authorization.redirect_uri)}.</p>` +
      `<form method="post" action="${esc(page.action)}">${hidden(fields)}` +
      `<button type="submit" name="action" value="approve">Authorize</button>` +
      `<button type="submit" name="action" value="deny" class="secondary">Deny</button>` +
      `<button type="submit" name="action" value="sign_out" class="secondary">Not @${esc(user.username)}?</button></form>`,
  )
}

export function signupPage(input: {
  instance: InstanceIdentity
  csrf: string
  next?: string
  username?: string
  name?: string
  error?: string
  invite?: string
  ask?: SignupAsk
  /** The address typed, and whether the instance requires one (`require_email`). */
  email?: string
  requireEmail?: boolean
}): string {
  return layout(
    signupTitle(input.ask),
    `${instanceLine(input.instance)}<h1>${signupTitle(input.ask)}</h1>${input.invite ? '<p>You were invited: this link makes your account.</p>' : ''}${rulesSection(input.ask)}${errorLine(input.error)}` +
      `<form method="post" action="/signup">${hidden({ csrf: input.csrf, next: input.next, invite: input.invite })}` +
      `<label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required maxlength="20" pattern="[A-Za-z0-9_]{1,20}" value="${esc(input.username ?? '')}">` +
      `<p class="muted">1 to 20 letters, digits or _.</p>` +
      `<label for="name">Name</label><input type="text" id="name" name="name" maxlength="50" value="${esc(input.name ?? '')}">` +
      `<label for="email">E-mail address${input.requireEmail ? '' : ' <span class="muted">(optional)</span>'}</label>` +
      `<input type="email" id="email" name="email" autocomplete="email" maxlength="254"${input.requireEmail ? ' required' : ''} value="${esc(input.email ?? '')}">` +
      `<p class="muted">Only you see it. It lets you set a new password if you forget yours.</p>` +
      `<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="new-password" required minlength="8" maxlength="200">` +
      `<label for="password_again">Password again</label><input type="password" id="password_again" name="password_again" autocomplete="new-password" required minlength="8" maxlength="200">` +
      `${signupEnd(input.ask)}</form>`,
  )
}

/** `mailNote`: what became of the mail confirming the address given, in words. */
export const welcomePage = (user: UserRow, instance: InstanceIdentity, mailNote?: string): string =>
  layout(
    'Welcome',
    `<h1>Welcome, @${esc(user.username)}</h1><p>Your account is ready. You can now sign in from any app that uses this server.</p>${mailNote ? `<p>${esc(mailNote)}</p>` : ''}` +
      onwardLink(instance),
  )
