/**
 * Posts in svc's web client: photos attached and shown inline, a thread
 * page, the reading position on home, and star, repost, delete and the
 * keyboard, each against the real API.
 */
import sharp from 'sharp'
import t from 'tap'
import type { Page } from 'playwright-core'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance, type Instance, type Person } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

const follow = async (svc: Instance, who: Person, whom: Person) => {
  const res = await svc.call('POST', `/stream/0/users/${whom.user.id}/follow`, { token: who.token })
  if (res.status !== 200) throw new Error(`follow failed: ${JSON.stringify(res.body)}`)
}

const postTexts = (page: Page) => page.locator('article.post .text').allTextContents()

t.test('alice attaches a photo with its description; bob sees it inline and can open it full size', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await follow(svc, bob, alice)
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const photo = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#c02020' } })
    .png()
    .toBuffer()

  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/home`)
  await page.setInputFiles('input[type=file]', { name: 'red.png', mimeType: 'image/png', buffer: photo })
  await page.getByLabel('Description of photo 1 (alt text)').fill('A red square')
  t.equal(await page.getAttribute('.chosen-photos img', 'alt'), 'A red square', 'the preview carries the description')
  await page.fill('textarea', 'my new painting')
  await page.click('button[type=submit]')
  await page.locator('article.post img[alt="A red square"]').waitFor()
  t.equal(await page.locator('.chosen-photos').count(), 0, 'the chosen photos are cleared once posted')

  const files = await svc.call('GET', '/stream/0/users/me/files', { token: alice.token })
  t.equal(files.body.data.length, 1, 'one file uploaded')
  t.equal(files.body.data[0].type, 'svc.web.photo')

  const bobs = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, bobs)
  await bobs.goto(`${base}/home`)
  const img = bobs.locator('article.post img[alt="A red square"]')
  await img.waitFor()
  await bobs.waitForFunction(() => (document.querySelector('article.post .photo img') as HTMLImageElement | null)?.naturalWidth)
  t.equal(await bobs.locator('article.post a[href*="/files/"], article.post a.photo').count(), 0, 'the photo opens no raw file in a new tab')
  await bobs.getByRole('button', { name: /^Open the photo: A red square$/ }).click()
  const lightbox = bobs.getByRole('dialog', { name: 'Photo' })
  await bobs.waitForFunction(() => (document.querySelector('.lightbox img') as HTMLImageElement | null)?.naturalWidth)
  t.equal(await lightbox.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), 600, 'the lightbox shows it at its full size')
  await bobs.keyboard.press('Escape')
  await lightbox.waitFor({ state: 'detached' })
  // The answers of star and repost replace the post shown: the photo stays, its annotations asked for.
  const photoPost = bobs.locator('article.post', { has: bobs.locator('img[alt="A red square"]') }).first()
  await photoPost.locator('button[data-action="star"]').click()
  await bobs.locator('article.post button[data-action="star"][aria-pressed="true"]').first().waitFor()
  t.equal(await bobs.locator('article.post img[alt="A red square"]').count(), 1, 'starred: the photo is still shown')
  await photoPost.locator('button[data-action="repost"]').click()
  await bobs.locator('article.post button[data-action="repost"][aria-pressed="true"]').first().waitFor()
  t.ok((await bobs.locator('article.post img[alt="A red square"]').count()) >= 1, 'reposted: the photo is still shown')
  await screenshot(bobs, 'home-photo')
  await checkAccessibility(t, bobs, 'home with a photo')

  await bobs.setViewportSize({ width: 390, height: 800 })
  const width = await bobs.evaluate(() => document.documentElement.scrollWidth)
  t.ok(width <= 390, `nothing wider than a phone (${width}px)`)
})

t.test(
  'a thread shows the conversation in order, indented, the chosen post marked; replies are written in place and arrive live',
  { skip: noBrowser },
  async (t) => {
    const svc = await makeInstance(t)
    const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
    const root = await post(svc, alice, { text: 'what should I paint next?' })
    const bobReply = await post(svc, bob, { text: '@alice a lighthouse', reply_to: root.id })
    await post(svc, carol, { text: '@bob yes, at night', reply_to: bobReply.id })
    const gone = await post(svc, carol, { text: 'never mind', reply_to: root.id })
    await svc.call('DELETE', `/stream/0/posts/${gone.id}`, { token: carol.token })
    await post(svc, alice, { text: '@bob good idea', reply_to: root.id })
    const base = await listen(svc)
    const browser = await openBrowser(t)
    const page = await (await contextFor(browser, svc, alice)).newPage()
    watchErrors(t, page)

    await page.goto(`${base}/global`)
    await page.locator(`article[data-post-id="${bobReply.id}"] a.when`).click()
    await page.waitForURL(`${base}/thread/${bobReply.id}`)
    await page.locator('article.post').nth(3).waitFor()
    t.same(
      await postTexts(page),
      ['what should I paint next?', '@alice a lighthouse', '@bob yes, at night', '@bob good idea'],
      'each reply under what it answers, oldest first',
    )
    t.equal(await page.textContent('.deleted-post'), 'This post was deleted.', 'a deleted reply keeps its place')
    t.equal(await page.getAttribute('article[aria-current="true"]', 'data-post-id'), bobReply.id, 'the chosen post is marked')
    const indents = await page.locator('.thread-posts > li').evaluateAll((items) => items.map((li) => parseFloat(getComputedStyle(li).marginLeft)))
    t.ok(indents[0] === 0 && indents[1] > 0 && indents[2] > indents[1], 'replies to replies are indented deeper')

    await page.locator(`article[data-post-id="${root.id}"] button[data-action="reply"]`).click()
    await page.keyboard.type('a lighthouse it is')
    await page.click('button:has-text("Reply")[type=submit]')
    await page.locator('article.post .text', { hasText: 'a lighthouse it is' }).waitFor()
    const thread = await svc.call('GET', `/stream/0/posts/${root.id}/replies`, { token: alice.token })
    t.ok(
      thread.body.data.some((p: { text: string; reply_to: string }) => p.text === '@alice a lighthouse it is' && p.reply_to === root.id),
      'the reply answers the post it was written under',
    )

    await post(svc, bob, { text: 'with a storm!', reply_to: bobReply.id })
    await page.locator('article.post .text', { hasText: 'with a storm!' }).waitFor()
    t.pass('a reply written elsewhere arrives live')
    await screenshot(page, 'thread')
    await checkAccessibility(t, page, 'thread')
  },
)

t.test('home remembers where alice stopped reading and reopens there, counting the newer posts', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = []
  for (let i = 1; i <= 18; i++) made.push(await post(svc, alice, { text: `note ${i}` }))
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/home`)
  await page.locator('article.post').nth(17).waitFor()

  // "note 12" is the seventh newest: alice scrolls until it is the topmost post she sees.
  const target = made[11].id as string
  const saved = page.waitForResponse((r) => r.url().includes('/posts/marker') && r.request().method() === 'POST')
  await page.evaluate((id) => {
    const node = document.querySelector(`article[data-post-id="${id}"]`) as HTMLElement
    const header = (document.querySelector('header.top') as HTMLElement).getBoundingClientRect().bottom
    window.scrollTo({ top: window.scrollY + node.getBoundingClientRect().top - header - 2 })
  }, target)
  const marker = (await (await saved).json()).data
  t.equal(marker.name, 'unified')
  t.equal(marker.id, target, 'the topmost fully visible post is saved once scrolling stops')

  await page.reload()
  await page.getByText('You were here: 6 newer posts above.').waitFor()
  const top = await page.evaluate(() => {
    const header = (document.querySelector('header.top') as HTMLElement).getBoundingClientRect().bottom
    const first = [...document.querySelectorAll<HTMLElement>('article[data-post-id]')].find((n) => n.getBoundingClientRect().top >= header - 1)
    return first?.dataset.postId
  })
  t.equal(top, target, 'the page opens at the marked post')
  await page.click('button:has-text("Go to the newest")')
  await page.waitForFunction(() => window.scrollY === 0)
})

t.test('star, repost and delete change counts in place; j/k/r/s/p and ? work from the keyboard', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  await follow(svc, bob, alice)
  const carols = await post(svc, carol, { text: 'worth sharing' })
  const repost = (await svc.call('POST', `/stream/0/posts/${carols.id}/repost`, { token: bob.token })).body.data
  await post(svc, alice, { text: 'an older one' })
  const original = await post(svc, alice, { text: 'star me' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/home`)
  const item = page.locator(`article[data-post-id="${original.id}"]`)
  await item.waitFor()

  await page.keyboard.press('j')
  await page.keyboard.press('j')
  await page.keyboard.press('k')
  t.ok(await item.evaluate((n) => n.classList.contains('selected') && document.activeElement === n), 'j and k move the selection, and focus with it')
  await page.keyboard.press('s')
  await item.locator('button[data-action="star"]', { hasText: 'Starred 1' }).waitFor()
  await page.keyboard.press('p')
  await item.locator('button[data-action="repost"]', { hasText: 'Reposted 1' }).waitFor()
  const seen = (await svc.call('GET', `/stream/0/posts/${original.id}`, { token: bob.token })).body.data
  t.match(seen, { num_stars: 1, num_reposts: 1, you_starred: true, you_reposted: true }, 'the server has the star and the repost')

  await page.keyboard.press('r')
  t.equal(await page.inputValue('textarea[placeholder="Write your reply"]'), '@alice ', 'r opens a reply to the selected post')
  await page.keyboard.press('Escape')
  await page.keyboard.press('?')
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await help.waitFor()
  t.match(await help.textContent(), 'Reply to the selected post')
  await page.keyboard.press('Escape')
  await help.waitFor({ state: 'hidden' })

  await item.locator('button[data-action="star"]').click()
  await item.locator('button[data-action="star"]', { hasText: /^Star$/ }).waitFor()
  await item.locator('button[data-action="repost"]').click()
  await item.locator('button[data-action="repost"]', { hasText: /^Repost$/ }).waitFor()
  const after = (await svc.call('GET', `/stream/0/posts/${original.id}`, { token: bob.token })).body.data
  t.match(after, { num_stars: 0, num_reposts: 0, you_starred: false, you_reposted: false }, 'unstarred and unreposted')

  // Bob's repost of carol's post is his own row; deleting it asks first.
  const repostRow = page.locator(`article[data-post-id="${repost.id}"]`)
  t.match(await repostRow.textContent(), 'Reposted by @bob')
  const more = repostRow.getByRole('button', { name: 'More for the post by @carol' })
  await more.click()
  await page.getByRole('menuitem', { name: 'Delete repost' }).click()
  const ask = page.getByRole('dialog', { name: 'Delete your repost?' })
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await ask.waitFor({ state: 'hidden' })
  t.equal(await repostRow.count(), 1, 'cancel keeps it')
  await more.click()
  await page.getByRole('menuitem', { name: 'Delete repost' }).click()
  await ask.getByRole('button', { name: 'Delete' }).click()
  await repostRow.waitFor({ state: 'detached' })
  const shared = (await svc.call('GET', `/stream/0/posts/${carols.id}`, { token: bob.token })).body.data
  t.match(shared, { num_reposts: 0, you_reposted: false }, 'the repost is gone')
})

t.test('a refused action shows the server’s reason', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const mine = await post(svc, alice, { text: 'soon gone' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, bob)).newPage()
  await page.goto(`${base}/global`)
  const item = page.locator(`article[data-post-id="${mine.id}"]`)
  await item.waitFor()
  await svc.call('DELETE', `/stream/0/posts/${mine.id}`, { token: alice.token })
  await item.locator('button[data-action="star"]').click()
  const alert = item.getByRole('alert')
  await alert.waitFor()
  t.ok((await alert.textContent())?.length, `the reason is shown: ${await alert.textContent()}`)
})
