/** The pages of the mailed links: confirm an address; forgot password, then set a new one. */
import { LINK_PATHS, type UserRow } from '../../data/index.js'
import { errorPage, esc, hidden, layout } from './layout.js'

const FORGOT_PATH = '/password/forgot'

const errorLine = (error?: string): string => (error ? `<p class="error" role="alert">${esc(error)}</p>` : '')

const backTo = (next?: string): string => (next ? `<p class="muted"><a href="${esc(next)}">Back to sign in</a></p>` : '')

/** Whom to ask: the operator's contact line, or the operator in general. */
const whomToAsk = (contact: string): string =>
  contact
    ? `Ask the operator of this instance to set a new password for you: <strong>${esc(contact)}</strong>.`
    : 'Ask the operator of this instance to set a new password for you.'

export const emailConfirmedPage = (user: UserRow): string =>
  layout('Address confirmed', `<h1>Address confirmed</h1><p>@${esc(user.username)}, your e-mail address is confirmed.</p><p><a href="/">Go on</a></p>`)

export const deadConfirmLinkPage = (): string =>
  errorPage('This link no longer works', 'It was used already, it expired, or the address changed since. Ask for a new one in your settings.')

/** "Forgot password?": the form, or whom to ask where the instance sends no mail. */
export function forgotPage(input: { csrf: string; next?: string; mail: boolean; contact: string; who?: string }): string {
  if (!input.mail)
    return layout('Forgot your password?', `<h1>Forgot your password?</h1><p>This instance sends no mail. ${whomToAsk(input.contact)}</p>${backTo(input.next)}`)
  return layout(
    'Forgot your password?',
    `<h1>Forgot your password?</h1><p>Type your username or your e-mail address. If your account has a confirmed address, a link to set a new password goes there.</p>` +
      `<form method="post" action="${FORGOT_PATH}">${hidden({ csrf: input.csrf, next: input.next })}` +
      `<label for="who">Username or e-mail address</label><input type="text" id="who" name="who" autocomplete="username" required maxlength="254" value="${esc(input.who ?? '')}">` +
      `<button type="submit">Send me a link</button></form>${backTo(input.next)}`,
  )
}

/** The one answer to every request of a link, whoever it named. */
export const forgotSentPage = (next?: string): string =>
  layout(
    'Check your mail',
    `<h1>Check your mail</h1><p>If an account with a confirmed e-mail address matches what you typed, a mail with a link to set a new password is on its way. ` +
      `The link works once, within an hour.</p><p class="muted">Nothing came? Look in your spam folder, or ask again in a minute.</p>${backTo(next)}`,
  )

/** The form a reset link opens: the new password, twice. */
export const resetPage = (input: { csrf: string; token: string; error?: string }): string =>
  layout(
    'Set a new password',
    `<h1>Set a new password</h1>${errorLine(input.error)}` +
      `<form method="post" action="${LINK_PATHS.reset_password}">${hidden({ csrf: input.csrf, token: input.token })}` +
      `<label for="password">New password</label><input type="password" id="password" name="password" autocomplete="new-password" required minlength="8" maxlength="200">` +
      `<label for="password_again">The same again</label><input type="password" id="password_again" name="password_again" autocomplete="new-password" required minlength="8" maxlength="200">` +
      `<p class="muted">Setting it signs your account out everywhere.</p><button type="submit">Set password</button></form>`,
  )

export const deadResetLinkPage = (): string =>
  layout(
    'This link no longer works',
    `<h1>This link no longer works</h1><p class="error">It was used already, it expired (links work for an hour), or a newer one was sent.</p>` +
      `<p><a href="${FORGOT_PATH}">Ask for a new link</a></p>`,
  )

export const passwordSetPage = (user: UserRow): string =>
  layout(
    'Password changed',
    `<h1>Password changed</h1><p>@${esc(user.username)}, your new password is set. Your account was signed out everywhere: sign in again with the new password.</p><p><a href="/">Sign in</a></p>`,
  )

/** Where the sign-in page sends someone who forgot their password, back to `next` afterwards. */
export const forgotHref = (next: string): string => `${FORGOT_PATH}?next=${encodeURIComponent(next)}`
