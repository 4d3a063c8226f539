/**
 * Alice turns two-factor sign-in on in the web client's settings (the QR
 * code, the secret as text, a code from her app, then her recovery codes
 * shown once), stays signed in there, and the next time she signs in the
 * sign-in page asks for a code after her password.
 */
import t from 'tap'
import { generate } from 'otplib'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

const codeOf = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

t.test('two-factor sign-in turned on in settings, then a sign-in with a code', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
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

  await page.goto(`${base}/settings`)
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' })
  await qr.waitFor()
  t.ok(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the QR code shows')
  const secret = (await page.locator('.totp-secret').textContent()) ?? ''
  t.match(secret, /^[A-Z2-7]{32}$/, 'and the secret as text')
  await page.getByLabel('Code from your app').fill(await codeOf(secret))
  await page.getByRole('button', { name: 'Confirm' }).click()
  const codes = page.getByRole('list', { name: 'Recovery codes' }).locator('li')
  await codes.first().waitFor()
  t.equal(await codes.count(), 10, 'ten recovery codes, shown once')
  await page.getByText(/On\. 10 recovery codes left/).waitFor()
  await screenshot(page, 'two-factor-settings')
  await checkAccessibility(t, page, 'settings with two-factor sign-in on')

  await page.reload()
  await page.getByText(/On\. 10 recovery codes left/).waitFor()
  t.equal(await page.getByRole('list', { name: 'Recovery codes' }).count(), 0, 'the codes are not shown again')

  await page.getByRole('button', { name: 'Sign out', exact: true }).click()
  await page.getByRole('button', { name: 'Sign in' }).first().click()
  await page.waitForURL(/\/oauth\/authenticate\?/)
  await page.fill('#username', 'alice')
  await page.fill('#password', 'correct horse')
  await page.click('button[type=submit]')
  // The click returns once the form is sent: on a loaded machine the next page may not have its title yet.
  await page.locator('#code').waitFor()
  t.equal(await page.title(), 'Two-factor sign-in', 'the password is followed by the code step')
  await page.fill('#code', await codeOf(secret, 1))
  await page.getByRole('button', { name: 'Verify' }).click()
  // svc's own client asks for no consent, even after signing out withdrew its token.
  await page.waitForURL(`${base}/home`)
  await page.locator('header.top a[href="/people/alice"]').waitFor()
  t.pass('signed in with her code')
})
