/**
 * The web client's designed interface, as alice uses it: the sections in a
 * rail on a desktop and in a bar at the bottom of a phone, a draft that
 * waits while she looks at her messages, photos pasted and dropped into the
 * composer with their descriptions, the photo grid of bounded height, and
 * the lightbox from the keyboard.
 */
import sharp from 'sharp'
import t from 'tap'
import type { Page } from 'playwright-core'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, PHONE, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer()

/** Hands the composer an image the way a browser does on paste (a ClipboardEvent) or on drop (a DragEvent). */
async function giveImage(page: Page, how: 'paste' | 'drop', name: string, image: Buffer): Promise<void> {
  await page.evaluate(
    ({ how, name, bytes }) => {
      const data = new DataTransfer()
      data.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }))
      const target = document.querySelector(how === 'paste' ? 'form.compose textarea' : 'form.compose') as HTMLElement
      const init = { bubbles: true, cancelable: true }
      if (how === 'paste') target.dispatchEvent(new ClipboardEvent('paste', { ...init, clipboardData: data }))
      else {
        target.dispatchEvent(new DragEvent('dragover', { ...init, dataTransfer: data }))
        target.dispatchEvent(new DragEvent('drop', { ...init, dataTransfer: data }))
      }
    },
    { how, name, bytes: [...image] },
  )
}

t.test(
  'alice finds her way on a desktop and a phone, keeps a draft, posts photos with descriptions and looks at them full size',
  { skip: noBrowser },
  async (t) => {
    const svc = await makeInstance(t)
    const [alice, bob] = await svc.people('alice', 'bob')
    const question = await post(svc, bob, { text: 'anyone painting this weekend?' })
    await post(svc, alice, { text: '@bob always', reply_to: question.id })
    const base = await listen(svc)
    const browser = await openBrowser(t)
    const context = await contextFor(browser, svc, alice)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    const page = await context.newPage()
    watchErrors(t, page)
    await page.goto(`${base}/home`)

    const nav = page.getByRole('navigation', { name: 'Sections' })
    const names = ['Home', 'Notifications', 'Messages', 'Explore', 'Profile', 'Global', 'Settings']
    for (const name of names) t.ok(await nav.getByRole('link', { name, exact: true }).isVisible(), `the rail has ${name}`)
    const rail = await nav.boundingBox()
    const column = await page.locator('main').boundingBox()
    t.ok(rail && column && rail.x + rail.width <= column.x && rail.height > 400, 'the rail stands beside the column, the height of the screen')
    t.equal(await nav.locator('a svg, a img.avatar').count(), names.length, 'each section has its icon')
    t.ok(await nav.getByText('Notifications', { exact: true }).isVisible(), 'labels show on a desktop')

    const reply = page.locator('article.post', { hasText: '@bob always' })
    t.equal(await reply.getByRole('link', { name: 'Replying to @bob' }).getAttribute('href'), `/thread/${question.id}`, 'a reply says what it answers')

    // A draft waits while she reads her messages.
    const composer = page.getByLabel('What is happening?')
    await composer.fill('two views of the harbour')
    await nav.getByRole('link', { name: 'Messages', exact: true }).click()
    await page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor()
    await nav.getByRole('link', { name: 'Home', exact: true }).click()
    t.equal(await composer.inputValue(), 'two views of the harbour', 'the draft is still there on coming back')

    await giveImage(page, 'paste', 'tall.png', await png(300, 1200, '#1d4e89'))
    await giveImage(page, 'drop', 'wide.png', await png(600, 400, '#c02020'))
    await page.getByLabel('Description of photo 1 (alt text)').fill('A tall lighthouse')
    await page.getByLabel('Description of photo 2 (alt text)').fill('A wide harbour')
    t.equal(await page.locator('.chosen-photos img').count(), 2, 'the pasted and the dropped photo are previewed')
    await checkAccessibility(t, page, 'composer with photos')
    await page.getByRole('button', { name: 'Post', exact: true }).click()
    const mine = page.locator('article.post', { hasText: 'two views of the harbour' })
    await mine.locator('.photos img').nth(1).waitFor()
    t.equal(await composer.inputValue(), '', 'the composer is empty once posted')

    const posts = await svc.call('GET', '/stream/0/users/me/posts?include_post_annotations=1', { token: alice.token })
    const sent = posts.body.data.find((p: { text: string }) => p.text === 'two views of the harbour')
    t.same(
      sent.annotations.map((a: { value: { title?: string } }) => a.value.title),
      ['A tall lighthouse', 'A wide harbour'],
      'each description reached the API as its photo’s title',
    )

    await mine.getByRole('button', { name: 'More for the post by @alice' }).click()
    await page.getByRole('menuitem', { name: 'Copy link' }).click()
    await mine.getByText('Link copied.').waitFor()
    t.equal(await page.evaluate(() => navigator.clipboard.readText()), sent.canonical_url, 'Copy link copies the post’s public address')

    // The grid keeps a tall photo from filling the screen.
    const grid = await mine.locator('.photos').boundingBox()
    t.ok(grid && grid.height <= 352, `the photos take at most 22rem (${grid?.height}px)`)
    t.equal(
      await mine
        .locator('.photos img')
        .first()
        .evaluate((img) => getComputedStyle(img).objectFit),
      'cover',
      'a photo is cropped to its cell',
    )
    t.equal(await mine.locator('.alt-badge').count(), 2, 'each described photo has its ALT badge')
    await screenshot(page, 'design-home')
    await checkAccessibility(t, page, 'home with photos')

    // The lightbox, from the keyboard.
    const first = mine.getByRole('button', { name: 'Open the photo: A tall lighthouse' })
    await first.focus()
    await page.keyboard.press('Enter')
    const lightbox = page.getByRole('dialog', { name: 'Photo 1 of 2' })
    await lightbox.waitFor()
    t.equal(await lightbox.locator('figcaption').textContent(), 'A tall lighthouse', 'the alt text is shown')
    await page.keyboard.press('ArrowRight')
    await page.getByRole('dialog', { name: 'Photo 2 of 2' }).waitFor()
    t.equal(await page.locator('.lightbox figcaption').textContent(), 'A wide harbour', 'the right arrow goes to the next photo')
    await page.waitForFunction(() => (document.querySelector('.lightbox img') as HTMLImageElement | null)?.naturalWidth === 600)
    await checkAccessibility(t, page, 'lightbox')
    await screenshot(page, 'design-lightbox')
    await page.keyboard.press('ArrowLeft')
    await lightbox.waitFor()
    await page.keyboard.press('Escape')
    await lightbox.waitFor({ state: 'detached' })
    const refocused = await page
      .waitForFunction(() => document.activeElement?.matches('.photos .photo:first-child'), undefined, { timeout: 2000 })
      .then(
        () => true,
        () => false,
      )
    t.ok(refocused, 'Escape closes it and the photo has the focus again')

    // On a phone: a bar at the bottom, icons named by their labels, the rest under More.
    await page.setViewportSize(PHONE)
    const bar = await nav.boundingBox()
    t.ok(bar && Math.round(bar.y + bar.height) === PHONE.height && bar.height < 80 && bar.width === PHONE.width, 'the sections are a bar along the bottom')
    for (const name of ['Home', 'Notifications', 'Messages', 'Explore', 'Profile']) {
      t.ok(await nav.getByRole('link', { name, exact: true }).isVisible(), `the bar has ${name}`)
    }
    t.notOk(await nav.getByRole('link', { name: 'Settings', exact: true }).isVisible(), 'Settings waits under More')
    const label = await nav.getByText('Notifications', { exact: true }).boundingBox()
    t.ok(label && label.width <= 1, 'the labels are names only')
    t.equal(await page.evaluate(() => document.documentElement.scrollWidth), PHONE.width, 'nothing wider than the phone')
    await nav.getByRole('button', { name: 'More' }).click()
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor()
    await checkAccessibility(t, page, 'phone with the More menu')
    await page.getByRole('menuitem', { name: 'Settings' }).click()
    await page.waitForURL(`${base}/settings`)
  },
)
