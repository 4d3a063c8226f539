/**
 * Alice forgot her password, in Chromium: from the web client's sign-in
 * page to "Forgot password?", the mail (a real SMTP server's), the page its
 * link opens, and back in with the new password, while the token her other
 * browser held is refused. Then her settings show her address, confirmed,
 * and take a new one.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors, webToken } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { makeMailbox } from '../fixtures/mailbox.js'

const ALICE = 'alice@mail.example'

t.test('alice sets a new password through the mailed link and signs in with it', { skip: noBrowser }, async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const alice = await svc.person('alice')
  await svc.call('PUT', '/users/me/email', { token: await webToken(svc, alice), payload: { address: ALICE, password: 'correct horse' } })
  await svc.server.inject(box.linkIn(await box.mailTo(ALICE), '/email/confirm'))
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const elsewhere = await (await contextFor(browser, svc, alice)).newPage()
  await elsewhere.goto(`${base}/home`)
  const oldToken = await elsewhere.evaluate(() => localStorage.getItem('svc.token'))

  const page = await (await contextFor(browser, svc, null)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/`)
  await page.getByRole('button', { name: 'Sign in' }).first().click()
  await page.waitForURL(/\/oauth\/authenticate\?/)
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await page.waitForURL(/\/password\/forgot\?next=/)
  await checkAccessibility(t, page, 'forgot password')
  await page.fill('#who', ALICE)
  await page.click('button[type=submit]')
  t.equal(await page.textContent('h1'), 'Check your mail')
  await screenshot(page, 'forgot-password-sent')

  const link = box.linkIn(await box.mailTo(ALICE, 2), '/password/reset')
  await page.goto(`${base}${link}`)
  await checkAccessibility(t, page, 'set a new password')
  await page.fill('#password', 'battery staple')
  await page.fill('#password_again', 'battery staple')
  await page.click('button[type=submit]')
  t.equal(await page.textContent('h1'), 'Password changed')
  const refused = await fetch(`${base}/stream/0/users/me`, { headers: { authorization: `Bearer ${oldToken}` } })
  t.equal(refused.status, 401, 'the token her other browser held is refused')

  await page.getByRole('link', { name: 'Sign in' }).click()
  await page.getByRole('button', { name: 'Sign in' }).first().click()
  await page.waitForURL(/\/oauth\/authenticate\?/)
  await page.fill('#username', 'alice')
  await page.fill('#password', 'battery staple')
  await page.click('button[type=submit]')
  await page.waitForURL(`${base}/home`)
  await page.locator('header.top a[href="/people/alice"]').waitFor()
  t.pass('she is in with the new password')

  await page.goto(`${base}${link}`)
  t.equal(await page.textContent('h1'), 'This link no longer works', 'the link worked once')
})

t.test('alice’s settings show her address, confirmed, and take a new one', { skip: noBrowser }, async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const alice = await svc.person('alice')
  await svc.call('PUT', '/users/me/email', { token: await webToken(svc, alice), payload: { address: ALICE, password: 'correct horse' } })
  await svc.server.inject(box.linkIn(await box.mailTo(ALICE), '/email/confirm'))
  const base = await listen(svc)
  const page = await (await contextFor(await openBrowser(t), svc, alice)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/settings`)
  const address = page.getByLabel('E-mail address')
  await address.waitFor()
  t.equal(await address.inputValue(), ALICE)
  t.equal(await page.getByTestId('email-state').textContent(), 'Confirmed.')
  await checkAccessibility(t, page, 'settings with e-mail')

  await address.fill('alice@new.example')
  await page.getByLabel('Your password, to change it').fill('correct horse')
  await page.getByRole('button', { name: 'Save address' }).click()
  await page.getByText('A mail with a link to confirm it is on its way to alice@new.example.').waitFor()
  t.equal(await page.getByTestId('email-state').textContent(), 'Not confirmed yet.')
  await page.getByRole('button', { name: 'Send the mail again' }).waitFor()
  await screenshot(page, 'settings-email')
  t.match((await box.mailTo('alice@new.example')).subject, /Confirm your e-mail address/)
})
