/**
 * "Download your data" in the web client's settings, in a real browser:
 * alice gets her ZIP; a sign-in from before the client asked for `export`
 * is told to sign in again, and that sign-in asks for it.
 */
import { readFile } from 'node:fs/promises'
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

t.test('alice downloads her data from the settings: a ZIP named for her and the day', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await post(svc, alice, { text: 'a post worth keeping' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/settings`)
  await page.getByRole('heading', { name: 'Your data', level: 2 }).waitFor()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download your data' }).click()])
  t.match(download.suggestedFilename(), /^svc-export-alice-\d{4}-\d{2}-\d{2}\.zip$/)
  const bytes = await readFile((await download.path()) ?? '')
  t.equal(bytes.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'a ZIP')
  t.ok(bytes.includes('posts.json'), 'with her posts in it')
  await page.getByText('Your download has started.').waitFor()
  await screenshot(page, 'settings-your-data')
  await checkAccessibility(t, page, 'settings')
})

t.test('a sign-in from before downloads is asked to sign in again, which asks for export', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const app = await svc.domain.auth.apps.ensureWebClient()
  const older = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files']
  const { access_token } = await svc.domain.auth.tokens.issueUserToken(app, alice.user, older)
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const context = await contextFor(browser, svc, null)
  await context.addInitScript((value) => localStorage.setItem('svc.token', value), access_token)
  const page = await context.newPage()
  watchErrors(t, page)

  await page.goto(`${base}/settings`)
  await page.getByRole('button', { name: 'Download your data' }).click()
  await page.getByText(/Sign in again to allow this device/).waitFor()
  await page.getByRole('button', { name: 'Sign in again' }).click()
  await page.waitForURL(/\/oauth\/authenticate\?/)
  t.match(new URL(page.url()).searchParams.get('scope') ?? '', /\bexport\b/, 'the sign-in asks for export')
})
