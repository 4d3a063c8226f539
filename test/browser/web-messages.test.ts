/**
 * Private messages in svc's web client: alice writes to bob from the
 * client; bob, signed in elsewhere, sees the unread count appear without a
 * reload, reads the conversation (the count clears), and replies; alice
 * sees the reply arrive as she watches.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

const messagesLink = 'header.top nav a[href="/messages"]'

t.test('a private conversation: the unread count follows it live, and replies arrive as they are sent', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const unreadFor = async (token: string): Promise<number> => (await svc.call('GET', '/stream/0/users/me/channels/pm/num_unread', { token })).body.data
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const alicePage = await (await contextFor(browser, svc, alice)).newPage()
  const bobPage = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, alicePage)
  watchErrors(t, bobPage)

  await bobPage.goto(`${base}/home`)
  await bobPage.waitForSelector('h1:has-text("Home")')
  t.equal(await bobPage.locator(`${messagesLink} .unread-count`).count(), 0, 'bob has nothing unread yet')

  await alicePage.goto(`${base}/messages`)
  await alicePage.waitForSelector('text=No conversations yet')
  await alicePage.click('button:has-text("New message")')
  await alicePage.fill('input#' + (await alicePage.locator('label:has-text("To")').getAttribute('for')), '@nobody')
  await alicePage.getByLabel('Message', { exact: true }).fill('hello bob, lunch?')
  t.match(await alicePage.textContent('.new-message .counter'), '2031 characters left', 'the counter runs against the message limit')
  await alicePage.getByLabel('Message', { exact: true }).press('Enter')
  const refusal = await alicePage.locator('.new-message [role=alert]').textContent()
  t.match(refusal, /nobody/i, "the server's reason is shown when a recipient does not exist")
  t.equal(await alicePage.getByLabel('Message', { exact: true }).inputValue(), 'hello bob, lunch?', 'the text is kept to send again')

  await alicePage.getByLabel('To').fill('bob')
  await alicePage.getByLabel('Message', { exact: true }).press('Enter')
  await alicePage.waitForURL(/\/messages\/\d+$/)
  const channelId = alicePage.url().split('/').pop() as string
  await alicePage.locator('.messages article', { hasText: 'hello bob, lunch?' }).waitFor()
  await alicePage.locator('h1', { hasText: 'Conversation with' }).waitFor()
  t.equal(await alicePage.textContent('h1'), 'Conversation with Bob', 'the conversation is named for the people in it')

  const badge = bobPage.locator(`${messagesLink} .unread-count`)
  await badge.waitFor()
  t.equal(await bobPage.locator(`${messagesLink} .count-badge`).textContent(), '1', 'the count appears for bob without a reload')
  t.equal(await bobPage.getByRole('link', { name: /^Messages\W+1 unread conversation$/ }).count(), 1, 'and is read out as unread conversations')
  t.equal(await unreadFor(alice.token), 0, 'what alice sent is not unread for her')

  await bobPage.click(messagesLink)
  const row = bobPage.locator('.conversations li').first()
  await row.waitFor()
  t.match(await row.textContent(), /Alice.*unread.*hello bob, lunch\?/s, 'the conversation names alice, is marked unread and shows the last message')
  t.match(await row.getAttribute('class'), /unread/, 'and drawn in bold')
  await screenshot(bobPage, 'messages-inbox')
  await checkAccessibility(t, bobPage, 'messages inbox')

  await bobPage.setViewportSize({ width: 390, height: 760 })
  await row.locator('a').click()
  await bobPage.waitForURL(`${base}/messages/${channelId}`)
  await bobPage.locator('.messages article', { hasText: 'hello bob, lunch?' }).waitFor()
  await badge.waitFor({ state: 'detached' })
  t.pass('opening the conversation clears the count')
  t.equal(await unreadFor(bob.token), 0, 'bob has read it on the server too')

  const box = bobPage.getByLabel('Message to Alice')
  await box.fill('yes!')
  await box.press('Shift+Enter')
  await box.type('at noon')
  await box.press('Enter')
  await bobPage.locator('.messages article', { hasText: 'at noon' }).waitFor()
  t.equal(await box.inputValue(), '', 'the box is empty again')
  const reply = alicePage.locator('.messages article').last()
  await alicePage.locator('.messages article', { hasText: 'at noon' }).waitFor()
  t.equal(await reply.locator('.text').textContent(), 'yes!\nat noon', 'alice sees the reply arrive, newest at the bottom, Shift+Enter kept as a new line')
  // The reply is stored, so it stays unread for alice until her client moves her marker.
  let aliceUnread = await unreadFor(alice.token)
  for (let tries = 0; aliceUnread !== 0 && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    aliceUnread = await unreadFor(alice.token)
  }
  t.equal(aliceUnread, 0, 'a reply read as it arrives leaves nothing unread')
  t.equal(await bobPage.evaluate(() => document.documentElement.scrollWidth), 390, 'the conversation fits a phone')
  await screenshot(bobPage, 'messages-conversation')
  await checkAccessibility(t, bobPage, 'conversation')
})
