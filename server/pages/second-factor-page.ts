/** The sign-in page's second step for an account with two-factor sign-in: the code of its app, or a recovery code. */
import { esc, hidden, layout } from './layout.js'
import { errorLine, requestFields, type FlowPage } from './oauth-pages.js'

export function secondFactorPage(page: FlowPage, username: string): string {
  const fields = { ...requestFields(page.request), csrf: page.csrf }
  return layout(
    'Two-factor sign-in',
    `<h1>Two-factor sign-in</h1><p>Signing in as @${esc(username)} to ${esc(page.authorization.app.name)}.</p>${errorLine(page.error)}` +
      `<form method="post" action="${esc(page.action)}">${hidden({ ...fields, action: 'second_factor' })}` +
      `<label for="code">Code from your authenticator app</label>` +
      `<input type="text" id="code" name="code" autocomplete="one-time-code" required maxlength="20" autofocus>` +
      `<p class="muted">Lost your phone? Enter one of your recovery codes instead (each works once).</p>` +
      `<button type="submit">Verify</button></form>` +
      `<form method="post" action="${esc(page.action)}">${hidden({ ...fields, action: 'sign_out' })}<button type="submit" class="secondary">Cancel</button></form>`,
  )
}
