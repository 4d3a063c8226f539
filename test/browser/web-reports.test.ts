/**
 * Reporting from the web client: a post, an account and a private message,
 * each through its Report button and a dialog asking why, reaching the
 * operator's queue, in a real browser against the real API.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

t.test('alice reports a message bob sent her, then a post of his, then his account', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await post(svc, bob, { text: 'buy followers cheap' })
  const sent = await svc.call('POST', '/stream/0/channels/pm/messages', { token: bob.token, payload: { text: 'click my link', destinations: ['@alice'] } })
  t.equal(sent.status, 200)
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/messages/${sent.body.data.channel_id}`)
  await page.getByText('click my link').waitFor()
  await page.getByRole('button', { name: 'Report message by @bob' }).click()
  const message = page.getByRole('dialog', { name: 'Report this message by @bob?' })
  t.notMatch(await message.textContent(), 'muted', 'a message’s report mutes nobody, and says nothing of it')
  await message.getByLabel('Why? (optional)').fill('phishing')
  await message.getByRole('button', { name: 'Report' }).click()
  await page.getByRole('dialog', { name: 'Thanks for telling us' }).waitFor()
  await page.getByRole('button', { name: 'Close' }).click()

  await page.goto(`${base}/people/bob`)
  await page.getByText('buy followers cheap').waitFor()
  const more = page.getByRole('button', { name: 'More for the post by @bob' })
  await more.click()
  await page.getByRole('menuitem', { name: 'Report post' }).click()
  const dialog = page.getByRole('dialog', { name: 'Report this post by @bob?' })
  await dialog.waitFor()
  t.match(await dialog.textContent(), '@bob will be muted for you', 'the dialog says what else happens')
  await checkAccessibility(t, page, 'report dialog')
  await dialog.getByLabel('Why? (optional)').fill('spam')
  await dialog.getByRole('button', { name: 'Report' }).click()
  await page.getByRole('dialog', { name: 'Thanks for telling us' }).waitFor()
  await screenshot(page, 'report-post-thanks')
  await page.getByRole('button', { name: 'Close' }).click()
  await more.click()
  t.equal(await page.getByRole('menuitem', { name: 'Reported' }).getAttribute('aria-disabled'), 'true', 'the post’s menu says it is reported')
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: 'Report account by @bob' }).click()
  const account = page.getByRole('dialog', { name: 'Report this account by @bob?' })
  await account.getByRole('button', { name: 'Report' }).click()
  await page.getByRole('dialog', { name: 'Thanks for telling us' }).waitFor()
  await page.getByRole('button', { name: 'Close' }).click()
  await page.getByRole('button', { name: 'Muted @bob' }).waitFor()

  t.match(await svc.domain.reports.list(), [
    { kind: 'message', reporter: 'alice', author: 'bob', reason: 'phishing', content: { text: 'click my link' } },
    { kind: 'post', reporter: 'alice', author: 'bob', reason: 'spam', content: { text: 'buy followers cheap' } },
    { kind: 'user', reporter: 'alice', author: 'bob', reason: null },
  ])
})
