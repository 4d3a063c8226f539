/**
 * Alice signs in to the web client the way it signs people in (its own
 * sign-in page, straight back home), then signs out: the token the client
 * held no longer works anywhere, and the sign-in page asks for her password
 * again rather than letting the browser straight back in.
 */
import t from 'tap'
import { contextFor, listen, noBrowser, openBrowser, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

t.test('after Sign out the old token is refused and the sign-in page asks for the password again', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const webClient = await svc.domain.auth.apps.ensureWebClient()
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, null)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/`)
  await page.getByRole('button', { name: 'Sign in' }).first().click()
  await page.waitForURL(/\/oauth\/authenticate\?/)
  await page.fill('#username', 'alice')
  await page.fill('#password', 'correct horse')
  await page.click('button[type=submit]')
  await page.waitForURL(`${base}/home`)
  await page.locator('header.top a[href="/people/alice"]').waitFor()
  const token = await page.evaluate(() => localStorage.getItem('svc.token'))
  t.ok(token, 'signed in, with a token')

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.getByRole('button', { name: 'Sign in' }).first().waitFor()
  t.equal(await page.evaluate(() => localStorage.getItem('svc.token')), null, 'the client forgot its token')
  const res = await fetch(`${base}/stream/0/token`, { headers: { authorization: `Bearer ${token}` } })
  t.equal(res.status, 401, 'and the server no longer takes it')

  const signInLink = `${base}/oauth/authenticate?${new URLSearchParams({ client_id: webClient.client_id, response_type: 'token', redirect_uri: `${base}/`, scope: 'basic stream' })}`
  await page.goto(signInLink)
  t.equal(await page.title(), 'Sign in', 'the browser is signed out of the sign-in pages too')
  t.match(await page.textContent('h1'), /^Sign in to svc$/)
})
