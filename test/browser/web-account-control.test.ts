/**
 * Alice in control of her account from the web client's settings: she ends
 * a session of another app, changes her password (which signs her out
 * everywhere else while this browser stays), and finally deletes her
 * account, after which the browser is signed out and the landing page says so.
 */
import t, { type Test } from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

/** Alice signed in to the web client in a real browser, at her settings. */
async function aliceAtSettings(t: Test) {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/settings`)
  return { svc, alice, base, page }
}

t.test('alice ends another session and changes her password in settings', { skip: noBrowser }, async (t) => {
  const { svc, alice, base, page } = await aliceAtSettings(t)
  await page.getByRole('heading', { name: 'Where you’re signed in' }).waitFor()
  const rows = page.getByTestId('session')
  await rows.nth(1).waitFor()
  t.equal(await rows.count(), 2, 'this browser and the other app')
  t.match(await page.locator('.sessions').textContent(), /this browser/)
  await screenshot(page, 'account-control-sessions')
  await checkAccessibility(t, page, 'settings with account control')

  await page.getByRole('button', { name: 'End the session in Test Client' }).click()
  await page.getByText('Signed out of Test Client.').waitFor()
  t.equal(await rows.count(), 1, 'one place left: here')
  t.equal((await svc.call('GET', '/stream/0/users/me', { token: alice.token })).status, 401, 'the ended session’s token is refused')

  await page.getByLabel('Current password').fill('correct horse')
  await page.getByLabel('New password', { exact: true }).fill('battery staple')
  await page.getByLabel('New password again').fill('battery stapler')
  await page.getByRole('button', { name: 'Change password' }).click()
  await page.getByText('The new password and its repetition differ.').waitFor()
  await page.getByLabel('New password again').fill('battery staple')
  await page.getByRole('button', { name: 'Change password' }).click()
  await page.getByText('Your password is changed.').waitFor()
  t.ok(await svc.domain.users.accounts.checkPassword('alice', 'battery staple'), 'the new password is hers')
  t.notOk(await svc.domain.users.accounts.checkPassword('alice', 'correct horse'), 'the old one is not')
  await page.reload()
  await page.getByRole('heading', { name: 'Password' }).waitFor()
  t.equal(page.url(), `${base}/settings`, 'this browser stays signed in')
})

t.test('alice deletes her account: the dialog asks her password and her username, then the landing page says it is done', { skip: noBrowser }, async (t) => {
  const { svc, page } = await aliceAtSettings(t)
  await page.getByRole('button', { name: 'Delete your account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' })
  await dialog.waitFor()
  const confirm = dialog.getByRole('button', { name: 'Delete my account' })
  await dialog.getByLabel('Your password').fill('wrong horse')
  t.ok(await confirm.isDisabled(), 'not before the username is typed')
  await dialog.getByLabel(/Type your username/).fill('alice')
  await confirm.click()
  await dialog.getByText('That password is not right.').waitFor()
  await screenshot(page, 'account-control-delete')
  t.ok(await svc.domain.users.accounts.byUsername('alice'), 'still there after a wrong password')

  await dialog.getByLabel('Your password').fill('correct horse')
  await confirm.click()
  await page.getByText('Your account @alice is deleted.').waitFor()
  t.equal(new URL(page.url()).pathname, '/', 'the landing page')
  await page.getByRole('button', { name: 'Sign in' }).first().waitFor()
  t.equal(await page.evaluate(() => localStorage.getItem('svc.token')), null, 'signed out')
  t.equal(await svc.domain.users.accounts.byUsername('alice'), null, 'the account is gone')
})
