/**
 * A newcomer's first steps and the timeline as people expect it to behave.
 * Carol opens the sign-up page directly: it names the instance, a mistyped
 * password confirmation makes nothing, then "Continue" takes her into the
 * web client signed in, with no consent page; the times under posts move
 * on as time passes. Alice's home pages back as she scrolls, a reply bob
 * writes shows in her open thread with the count moving on, bob's
 * "Message" on her profile starts and then reopens their conversation, and
 * a 3 MB phone photo becomes her avatar, scaled down in the browser.
 */
import t from 'tap'
import sharp from 'sharp'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance, type Instance, type Person } from '../fixtures/instance.js'

const post = async (svc: Instance, who: Person, text: string, extra: Record<string, unknown> = {}): Promise<string> =>
  (await svc.call('POST', '/stream/0/posts', { token: who.token, payload: { text, ...extra } })).body.data.id as string

/** A 4000 × 3000 JPEG of about 3 MB: a phone photo, as far as sizes go (noise keeps it from compressing away). */
async function phonePhoto(): Promise<Buffer> {
  const [width, height] = [4000, 3000]
  const raw = Buffer.alloc(width * height * 3)
  let seed = 7
  for (let i = 0; i < raw.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    // The high bits: the low ones of this generator repeat within a few dozen steps.
    const noise = (seed >> 16) % 32
    const x = (i / 3) % width
    const y = Math.floor(i / 3 / width)
    raw[i] = (x / 16 + noise) & 255
    raw[i + 1] = (y / 12 + noise) & 255
    raw[i + 2] = ((x + y) / 28 + noise) & 255
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer()
}

t.test('sign-up opened directly, a password mistyped once, on into the client signed in; times move on', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { name: 'Village', description: 'Where the green is.' })
  const alice = await svc.person('alice')
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const context = await contextFor(browser, svc, null)
  await context.clock.install()
  const page = await context.newPage()
  watchErrors(t, page)

  await page.goto(`${base}/signup`)
  t.equal(await page.textContent('h1'), 'Create an account')
  t.match(await page.textContent('main'), /Village\s*Where the green is\./, 'the page names the instance and says what it is')
  await checkAccessibility(t, page, 'sign-up page')
  await page.fill('#username', 'carol')
  await page.fill('#password', 'a long passphrase')
  await page.fill('#password_again', 'a long passphrasf')
  await page.click('button[type=submit]')
  t.match(await page.getByRole('alert').textContent(), /The two passwords differ/)
  t.equal(await svc.domain.users.accounts.byUsername('carol'), null, 'no account was made')
  t.equal(await page.inputValue('#username'), 'carol', 'her username stays typed')

  await page.fill('#password', 'a long passphrase')
  await page.fill('#password_again', 'a long passphrase')
  await page.click('button[type=submit]')
  t.equal(await page.textContent('h1'), 'Welcome, @carol')
  await screenshot(page, 'first-steps-welcome')
  await checkAccessibility(t, page, 'welcome page')
  await page.getByRole('link', { name: 'Continue to Village' }).click()
  // No consent page for svc's own client: from the link straight home, signed in.
  await page.waitForURL(`${base}/home`)
  await page.getByRole('heading', { name: 'Home' }).waitFor()
  t.ok(await page.evaluate(() => localStorage.getItem('svc.token')), 'signed in, with a token')

  await post(svc, alice, 'fresh bread on the green')
  await page.goto(`${base}/global`)
  const time = page.locator('article.post', { hasText: 'fresh bread' }).locator('time')
  await time.waitFor()
  t.equal(await time.textContent(), 'now')
  await page.clock.fastForward('03:00')
  await page.waitForFunction((el) => el?.textContent === '3m', await time.elementHandle())
  await page.clock.fastForward('01:00')
  await page.waitForFunction((el) => el?.textContent === '4m', await time.elementHandle())
  t.pass('“3m” became “4m” without a reload')
  await checkAccessibility(t, page, 'global, signed in')
})

t.test('older posts on scroll, a live reply counted in the thread, Message from a profile, a phone photo as avatar', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const ids: string[] = []
  for (let i = 1; i <= 45; i++) ids.push(await post(svc, alice, `note number ${i}`))
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const alicePage = await (await contextFor(browser, svc, alice)).newPage()
  const bobPage = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, alicePage)
  watchErrors(t, bobPage)

  await alicePage.goto(`${base}/home`)
  const posts = alicePage.locator('article.post')
  await posts.nth(19).waitFor()
  t.equal(await posts.count(), 20, 'a first page of twenty')
  const older = alicePage.getByRole('button', { name: 'Older posts' })
  await older.scrollIntoViewIfNeeded()
  await posts.nth(39).waitFor()
  t.match(await posts.nth(39).textContent(), 'note number 6', 'the next page came by scrolling alone')
  t.ok(await older.isVisible(), 'the button stays, for keyboards and as a fallback')
  await older.scrollIntoViewIfNeeded()
  await posts.nth(44).waitFor()
  t.match(await posts.nth(44).textContent(), /note number 1(?!\d)/, 'and the last page after it')
  t.equal(await older.count(), 0, 'nothing older left')
  await checkAccessibility(t, alicePage, 'home paged back')

  await alicePage.goto(`${base}/thread/${ids[44]}`)
  const parent = alicePage.locator(`#post-${ids[44]}`)
  await parent.waitFor()
  t.notMatch(await parent.locator('[data-action=reply]').textContent(), /\d/, 'no replies yet')
  await post(svc, bob, '@alice which one was it?', { reply_to: ids[44] })
  await alicePage.locator('article.post', { hasText: 'which one was it' }).waitFor()
  await parent.locator('[data-action=reply]', { hasText: '1' }).waitFor()
  t.pass('the live reply shows, and its parent counts it')
  await screenshot(alicePage, 'first-steps-thread-live-reply')
  await checkAccessibility(t, alicePage, 'thread with a live reply')

  await bobPage.goto(`${base}/people/alice`)
  await bobPage.getByRole('button', { name: 'Message @alice' }).waitFor()
  await checkAccessibility(t, bobPage, 'a profile with its Message button')
  await bobPage.setViewportSize({ width: 390, height: 844 })
  await screenshot(bobPage, 'first-steps-profile-phone')
  await checkAccessibility(t, bobPage, 'a profile with its Message button, on a phone')
  await bobPage.setViewportSize({ width: 1024, height: 800 })
  await bobPage.getByRole('button', { name: 'Message @alice' }).click()
  await bobPage.waitForURL(`${base}/messages?to=alice`)
  t.equal(await bobPage.getByLabel('To').inputValue(), '@alice', 'a new message to her, the recipient filled in')
  await checkAccessibility(t, bobPage, 'new message from a profile')
  const box = bobPage.getByLabel('Message', { exact: true })
  t.ok(await box.evaluate((el) => el === document.activeElement), 'the message box has the focus')
  await box.fill('the sourdough one?')
  await box.press('Enter')
  await bobPage.waitForURL(/\/messages\/\d+$/)
  const conversation = bobPage.url()
  await bobPage.goto(`${base}/people/alice`)
  await bobPage.getByRole('button', { name: 'Message @alice' }).click()
  await bobPage.waitForURL(conversation)
  await bobPage.locator('.messages article', { hasText: 'the sourdough one?' }).waitFor()
  t.pass('Message again opens their conversation')

  const photo = await phonePhoto()
  t.ok(photo.length > 2.5 * 1024 * 1024, `a photo of ${(photo.length / 1024 / 1024).toFixed(1)} MB, over the avatar limit`)
  await alicePage.goto(`${base}/settings`)
  await alicePage.getByLabel('Avatar').setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo })
  await alicePage.getByText('Avatar changed.').waitFor()
  const avatar = (await svc.domain.users.accounts.byUsername('alice'))?.avatar
  t.same([avatar?.width, avatar?.height], [768, 768], 'scaled to 1024 × 768 in the browser, then made square by the server')
  await checkAccessibility(t, alicePage, 'settings after a new avatar')
})
