/**
 * Finding things and knowing what happened, in svc's web client: bob
 * mentions, stars and follows alice while her home timeline is open; her
 * Notifications badge and tab title count up live, her browser shows a
 * desktop notification for each (she asked for them with the button),
 * opening Notifications reads them (the markers move on the server) and a
 * reload keeps them read. Then a search from the header's box finds a
 * person, a post and a hashtag, and an address nobody knows shows the
 * client's own not-found page.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

const bell = 'header.top nav a[href="/notifications"]'

/** The browser's Notification API as a page sees it, recording what it is asked to show instead of showing it. */
const fakeNotifications = () => {
  const shown: { title: string; body?: string }[] = []
  class FakeNotification {
    static permission: NotificationPermission = 'default'
    static async requestPermission(): Promise<NotificationPermission> {
      FakeNotification.permission = 'granted'
      return 'granted'
    }
    onclick: (() => void) | null = null
    constructor(title: string, options?: { body?: string }) {
      shown.push({ title, body: options?.body })
    }
    close() {}
  }
  Object.assign(window, { Notification: FakeNotification, shownNotifications: shown })
}

t.test('notifications count up live in the navigation and the title, and opening them reads them for good', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { name: 'Tea House' })
  const [alice, bob] = await svc.people('alice', 'bob')
  const tea = await post(svc, alice, { text: 'tea time at four' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const context = await contextFor(browser, svc, alice)
  await context.addInitScript(fakeNotifications)
  const page = await context.newPage()
  watchErrors(t, page)

  await page.goto(`${base}/notifications`)
  await page.locator('text=Nothing yet').waitFor()
  t.equal(await page.title(), 'Notifications · Tea House', 'the tab names the screen and the instance')
  await checkAccessibility(t, page, 'notifications empty')
  t.same(await page.evaluate(() => (window as unknown as { shownNotifications: unknown[] }).shownNotifications), [], 'nothing shown, nothing asked yet')
  await page.getByRole('button', { name: 'Notify me on this computer' }).click()
  await page.getByRole('button', { name: 'Notify me on this computer' }).waitFor({ state: 'detached' })
  t.pass('she allows desktop notifications with the button, which then goes')

  await page.click('header.top nav a[href="/home"]')
  await page.locator('h1', { hasText: 'Home' }).waitFor()
  t.equal(await page.locator(`${bell} .unread-count`).count(), 0, 'nothing new yet')

  const mention = await post(svc, bob, { text: '@alice are you coming for tea?' })
  await svc.call('POST', `/stream/0/posts/${tea.id}/star`, { token: bob.token })
  await svc.call('POST', `/stream/0/users/@alice/follow`, { token: bob.token })

  await page.locator(`${bell} .count-badge`, { hasText: /^3$/ }).waitFor()
  t.equal(await page.getByRole('link', { name: /^Notifications\W+3 new notifications$/ }).count(), 1, 'the badge is read out as new notifications')
  await page.waitForFunction(() => document.title === '(3) Home · Tea House')
  t.pass('the tab title counts them too')
  t.match(await page.getByRole('status').filter({ hasText: 'new notifications' }).textContent(), '3 new notifications', 'and the change is announced')
  const shown = await page.evaluate(() => (window as unknown as { shownNotifications: { title: string }[] }).shownNotifications.map((n) => n.title).sort())
  t.same(shown, ['@bob followed you', '@bob mentioned you', '@bob starred your post'], 'one desktop notification for each')
  await screenshot(page, 'notifications-badge')

  await page.click(bell)
  await page.waitForURL(`${base}/notifications`)
  const items = page.locator('.notice-list > li')
  await items.nth(2).waitFor()
  t.equal(await items.count(), 3)
  t.match(await page.textContent('.notice-list'), /mentioned you.*are you coming for tea\?/s, 'the mention with its words')
  t.match(await page.textContent('.notice-list'), /@bob starred your post “tea time at four”/, 'the star with the post')
  t.match(await page.textContent('.notice-list'), /@bob followed you/, 'the follow')
  t.equal(await page.locator('.notice-list .badge', { hasText: 'New' }).count(), 3, 'each marked new while the page is open')
  await page.locator(`${bell} .unread-count`).waitFor({ state: 'detached' })
  await page.waitForFunction(() => document.title === 'Notifications · Tea House')
  t.pass('opening them clears the badge and the title')
  await screenshot(page, 'notifications')
  await checkAccessibility(t, page, 'notifications')

  const interactions = await svc.call('GET', '/stream/0/users/me/interactions', { token: alice.token })
  t.equal(interactions.body.meta.marker?.last_read_id, interactions.body.data[0].pagination_id, 'the interactions marker is at the newest on the server')
  const mentions = await svc.call('GET', '/stream/0/users/me/mentions?include_marker=1', { token: alice.token })
  t.equal(mentions.body.meta.marker?.last_read_id, mention.id, 'and the mentions marker at the mention')

  await page.reload()
  await items.nth(2).waitFor()
  t.equal(await page.locator('.notice-list .badge', { hasText: 'New' }).count(), 0, 'after a reload they are read')
  await page.click('header.top nav a[href="/home"]')
  await page.locator('h1', { hasText: 'Home' }).waitFor()
  await page.waitForTimeout(300)
  t.equal(await page.locator(`${bell} .unread-count`).count(), 0, 'and the badge stays away')
  t.equal(await page.title(), 'Home · Tea House', 'the screen’s name alone again')

  await post(svc, bob, { text: '@alice yes, at four', reply_to: tea.id })
  await page.locator(`${bell} .count-badge`, { hasText: /^1$/ }).waitFor()
  await page.waitForTimeout(500)
  t.equal(await page.locator(`${bell} .count-badge`).textContent(), '1', 'a reply that mentions her counts once, as the mention')
  await page.click(bell)
  await page.locator('.notice-list > li', { hasText: 'yes, at four' }).waitFor()
  t.equal(await page.locator('.notice-list > li', { hasText: 'replied to your post' }).count(), 0, 'and shows once')
})

t.test('the search box finds a person, a post and a hashtag; an unknown address gets the client’s not-found page', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('PATCH', '/stream/0/users/me', { token: bob.token, payload: { name: 'Bob Gardener' } })
  await post(svc, bob, { text: 'the #roses bloom early this year' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/home`)
  await page.locator('h1', { hasText: 'Home' }).waitFor()

  const box = page.getByRole('searchbox', { name: 'Search people, posts and hashtags' })
  await box.fill('gardener')
  await box.press('Enter')
  await page.waitForURL(`${base}/search?q=gardener`)
  const people = page.locator('section[aria-labelledby="people-results"]')
  await people.getByRole('link', { name: 'Bob Gardener' }).waitFor()
  t.pass('bob is found by his name')
  await page.locator('text=No posts say “gardener” yet.').waitFor()
  t.equal(await page.locator('section[aria-labelledby="tag-results"]').count(), 1, 'one word could be a hashtag: it is offered')
  await checkAccessibility(t, page, 'search people')

  await box.fill('bloom early')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await page.waitForURL(`${base}/search?q=bloom%20early`)
  await page.locator('section[aria-labelledby="post-results"] article', { hasText: 'the #roses bloom early this year' }).waitFor()
  t.pass("bob's post is found by its words")
  await page.locator('text=Nobody here goes by “bloom early”. Try part of a name or a username.').waitFor()
  t.equal(await page.locator('section[aria-labelledby="tag-results"]').count(), 0, 'two words are no hashtag')
  t.equal(await box.inputValue(), 'bloom early', 'the box keeps the query of the results shown')
  await screenshot(page, 'search')
  await checkAccessibility(t, page, 'search posts')
  await page.setViewportSize({ width: 390, height: 760 })
  await screenshot(page, 'search-phone')
  await page.setViewportSize({ width: 1024, height: 800 })

  await box.fill('#roses')
  await box.press('Enter')
  await page.locator('section[aria-labelledby="post-results"] article', { hasText: 'bloom early' }).waitFor()
  await page.locator('section[aria-labelledby="tag-results"] a', { hasText: 'roses' }).click()
  await page.waitForURL(`${base}/explore/tag/roses`)
  await page.locator('article', { hasText: 'the #roses bloom early this year' }).waitFor()
  t.pass('the hashtag leads to its stream')

  const answer = await page.goto(`${base}/gardens/of/nowhere`)
  t.equal(answer?.status(), 404, 'the server says 404')
  await page.locator('h1', { hasText: 'Not found' }).waitFor()
  t.match(await page.textContent('main'), 'There is nothing at this address', 'and the client says so in its own page, with its navigation')
  t.equal(await page.locator('header.top nav a[href="/home"]').count(), 1)
  await checkAccessibility(t, page, 'not found')
  const api = await page.goto(`${base}/stream/0/gardens`)
  t.equal(api?.status(), 404)
  t.match(await api?.text(), /"code":404/, 'an API address keeps its JSON')
})
