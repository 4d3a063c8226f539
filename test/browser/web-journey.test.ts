/**
 * A person's first hour on svc, in two browsers: carol signs up through the
 * web client's own sign-in, bob follows her, her first post reaches him
 * live, he replies and stars it, she sees both, and his private message
 * shows as unread in her navigation without a reload.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

t.test('sign up, post, seen live elsewhere, reply, star, private message, unread count', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { name: 'Village' })
  const bob = await svc.person('bob')
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const carolPage = await (await contextFor(browser, svc, null)).newPage()
  const bobPage = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, carolPage)
  watchErrors(t, bobPage)

  await carolPage.goto(`${base}/`)
  await carolPage.getByRole('button', { name: 'Sign up' }).first().click()
  await carolPage.waitForURL(/\/signup\?next=/)
  await carolPage.fill('#username', 'carol')
  await carolPage.fill('#name', 'Carol Jones')
  await carolPage.fill('#password', 'a long passphrase')
  await carolPage.fill('#password_again', 'a long passphrase')
  await carolPage.click('button[type=submit]')
  // svc's own client asks for no consent: from the sign-up form straight home.
  await carolPage.waitForURL(`${base}/home`)
  await carolPage.locator('header.top a[href="/people/carol"]').waitFor()
  t.pass('carol is back home, signed in')

  await bobPage.goto(`${base}/people/carol`)
  await bobPage.getByRole('button', { name: 'Follow @carol' }).click()
  await bobPage.getByRole('button', { name: 'Following @carol' }).waitFor()
  await bobPage.goto(`${base}/home`)
  await bobPage.waitForSelector('h1:has-text("Home")')

  await carolPage.getByLabel('What is happening?').fill('my first post on the village green')
  await carolPage.getByRole('button', { name: 'Post', exact: true }).click()
  await carolPage.locator('article.post', { hasText: 'my first post' }).waitFor()
  await screenshot(carolPage, 'journey-carol-home')

  const bar = bobPage.locator('button.new-posts')
  await bar.waitFor()
  t.match(await bar.textContent(), '1 new post', 'bob is told of it without reloading')
  await bar.click()
  const first = bobPage.locator('article.post', { hasText: 'my first post' })
  await first.waitFor()
  await screenshot(bobPage, 'journey-bob-home')
  await checkAccessibility(t, bobPage, 'home with a new post shown')

  await first.locator('[data-action=reply]').click()
  const reply = bobPage.getByLabel('Reply to @carol')
  t.equal(await reply.inputValue(), '@carol ', 'the reply starts with her name')
  await reply.fill('@carol welcome to the village!')
  await bobPage.locator('form.compose', { has: reply }).getByRole('button', { name: 'Reply' }).click()
  await first.locator('[data-action=star]').click()
  await first.locator('[data-action=star][aria-pressed=true]').waitFor()
  t.match(await first.locator('[data-action=star]').textContent(), 'Starred 1', 'the star is counted')

  await carolPage.locator('button.new-posts').waitFor()
  await carolPage.locator('button.new-posts').click()
  await carolPage.locator('article.post', { hasText: 'welcome to the village' }).waitFor()
  t.pass("bob's reply reaches carol's home live")
  await carolPage.goto(`${base}/interactions`)
  await carolPage.locator('text=starred').first().waitFor()
  t.match(await carolPage.textContent('main'), /bob/, 'her interactions show bob')
  await screenshot(carolPage, 'journey-carol-interactions')
  await checkAccessibility(t, carolPage, 'interactions')

  await bobPage.goto(`${base}/messages`)
  await bobPage.click('button:has-text("New message")')
  await bobPage.getByLabel('To').fill('carol')
  await bobPage.getByLabel('Message', { exact: true }).fill('coffee tomorrow?')
  await bobPage.getByLabel('Message', { exact: true }).press('Enter')
  await bobPage.waitForURL(/\/messages\/\d+$/)

  const unread = carolPage.getByRole('link', { name: /^Messages\W+1 unread conversation$/ })
  await unread.waitFor()
  t.pass('the unread count appears in her navigation without a reload')
  await unread.click()
  await carolPage.locator('.conversations li', { hasText: 'coffee tomorrow?' }).click()
  await carolPage.locator('.messages article', { hasText: 'coffee tomorrow?' }).waitFor()
  await carolPage.getByRole('link', { name: 'Messages', exact: true }).waitFor()
  t.pass('reading it clears the count')
  await screenshot(carolPage, 'journey-carol-conversation')
  await checkAccessibility(t, carolPage, 'conversation')
})
