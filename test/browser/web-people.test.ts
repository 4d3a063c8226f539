/**
 * The web client's people screens: profiles with their relation buttons,
 * follower lists, interactions and the settings where a person edits their
 * profile and images, in a real browser against the real API.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { flatImage } from '../fixtures/images.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

t.test('alice opens bob’s profile, follows, mutes and unmutes him, and finds herself among his followers', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('PATCH', '/stream/0/users/me', { token: bob.token, payload: { description: { text: 'I post about #birds with @alice' } } })
  await post(svc, bob, { text: 'first words from bob' })
  await post(svc, bob, { text: 'second words from bob' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/people/bob`)
  await page.getByRole('heading', { name: 'Bob', level: 1, exact: true }).waitFor()
  await page.getByText('second words from bob').waitFor()
  t.equal(await page.locator('article.post').count(), 2, 'his posts are listed')
  t.equal(await page.locator('.profile-header .description a.hashtag').getAttribute('href'), '/explore/tag/birds', 'the description carries its entities')
  t.match(await page.textContent('.counts'), '2 posts', 'his post count')
  t.match(await page.textContent('.counts'), '0 followers', 'nobody follows him yet')

  const follow = page.getByRole('button', { name: 'Follow @bob' })
  t.equal(await follow.getAttribute('aria-pressed'), 'false', 'not followed yet')
  await follow.click()
  await page.getByRole('button', { name: 'Following @bob' }).waitFor()
  t.equal(await page.getByRole('button', { name: 'Following @bob' }).getAttribute('aria-pressed'), 'true', 'the button shows the follow')
  t.match(await page.textContent('.counts'), '1 follower', 'the count follows the answer')
  const stored = await svc.call('GET', '/stream/0/users/@bob', { token: alice.token })
  t.equal(stored.body.data.you_follow, true, 'the follow reached the server')

  await page.getByRole('button', { name: 'Mute @bob' }).click()
  await page.getByRole('button', { name: 'Muted @bob' }).waitFor()
  t.equal((await svc.call('GET', '/stream/0/users/@bob', { token: alice.token })).body.data.you_muted, true, 'muted on the server')
  await page.getByRole('button', { name: 'Muted @bob' }).click()
  await page.getByRole('button', { name: 'Mute @bob' }).waitFor()
  t.equal((await svc.call('GET', '/stream/0/users/@bob', { token: alice.token })).body.data.you_muted, false, 'unmuted again')
  await screenshot(page, 'people-profile')
  await checkAccessibility(t, page, 'profile')

  await page.getByRole('link', { name: '1 follower' }).click()
  await page.waitForURL(`${base}/people/bob/followers`)
  const row = page.locator('.user-row').first()
  await row.waitFor()
  t.match(await row.textContent(), '@alice', 'alice is among his followers')
  t.equal(await row.locator('button').count(), 0, 'no follow button for oneself')
  await screenshot(page, 'people-followers')
  await checkAccessibility(t, page, 'followers')
})

t.test('bob sees alice’s follow and star among his interactions, with links to her and to the post', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const starred = await post(svc, bob, { text: 'a post worth a star' })
  await svc.call('POST', `/stream/0/users/${bob.user.id}/follow`, { token: alice.token })
  await svc.call('POST', `/stream/0/posts/${starred.id}/star`, { token: alice.token })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, bob)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/interactions`)
  await page.locator('.interaction').nth(1).waitFor()
  const texts = await page.locator('.interaction').allTextContents()
  t.ok(
    texts.some((x) => x.includes('@alice followed you')),
    'the follow is there',
  )
  t.ok(
    texts.some((x) => x.includes('@alice starred your post') && x.includes('a post worth a star')),
    'the star is there, with the post',
  )
  t.equal(await page.getByRole('link', { name: '“a post worth a star”' }).getAttribute('href'), `/thread/${starred.id}`, 'the post links to its thread')
  t.equal(await page.locator('.interaction a[href="/people/alice"]').count(), 2, 'alice links to her profile each time')
  await screenshot(page, 'people-interactions')
  await checkAccessibility(t, page, 'interactions')

  await page.goto(`${base}/people/alice`)
  await page.getByText('Follows you').waitFor()
  t.pass('alice’s profile tells bob she follows him')
})

t.test(
  'alice edits her name and description and uploads an avatar; a file that is no image is refused with the server’s reason',
  { skip: noBrowser },
  async (t) => {
    const svc = await makeInstance(t)
    const [alice] = await svc.people('alice')
    const base = await listen(svc)
    const browser = await openBrowser(t)
    const page = await (await contextFor(browser, svc, alice)).newPage()
    watchErrors(t, page)

    await page.goto(`${base}/settings`)
    await page.getByLabel('Name', { exact: true }).fill('Alice Liddell')
    await page.getByLabel('Description').fill('Down the #rabbithole')
    t.match(await page.textContent('.settings .counter'), '236 characters left', 'the description is counted against 256')
    await page.getByRole('button', { name: 'Save profile' }).click()
    await page.getByText('Your profile is saved.').waitFor()
    const me = (await svc.call('GET', '/stream/0/users/me', { token: alice.token })).body.data
    t.equal(me.name, 'Alice Liddell', 'the name is saved')
    t.equal(me.description.text, 'Down the #rabbithole', 'the description is saved')

    const headerAvatar = page.locator('header.top nav img.avatar')
    const before = await headerAvatar.getAttribute('src')
    await page.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await flatImage(200, 200) })
    await page.getByText('Avatar changed.').waitFor()
    await page.waitForFunction((old) => document.querySelector('header.top nav img.avatar')?.getAttribute('src') !== old, before)
    const after = await headerAvatar.getAttribute('src')
    t.not(after, before, 'the header shows the new avatar')
    t.equal(await page.getByAltText('Your current avatar').getAttribute('src'), after?.replace('w=48', 'w=192'), 'so does the settings screen')

    await page.getByLabel('Cover image').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') })
    const refusal = page.locator('.image-upload.cover .error')
    await refusal.waitFor()
    t.match(await refusal.textContent(), /cover/i, 'the server’s reason is shown')
    await screenshot(page, 'people-settings')
    await checkAccessibility(t, page, 'settings')

    await page.getByRole('link', { name: 'See your profile' }).click()
    await page.getByRole('heading', { name: 'Alice Liddell', level: 1 }).waitFor()
    t.match(await page.textContent('.profile-header .description'), 'Down the #rabbithole', 'her profile shows the new description')
    t.equal(await page.locator('.profile-header .avatar').getAttribute('src'), after?.replace('w=48', 'w=192'), 'the profile shows the new avatar')
    t.ok(await page.getByRole('link', { name: 'Edit your profile' }).isVisible(), 'her own profile links to settings')
    t.equal(await page.getByRole('button', { name: /Follow/ }).count(), 0, 'and offers no relation buttons')
  },
)

t.test('an unknown name says there is no such person; on a phone a profile fits the screen', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  await svc.call('PATCH', '/stream/0/users/me', {
    token: bob.token,
    payload: {
      name: 'Bob With A Rather Long Display Name Indeed',
      description: { text: 'https://example.com/a/very/long/address/that/should/wrap/instead/of/scrolling' },
    },
  })
  await post(svc, bob, { text: 'hello from a small screen' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)

  await page.goto(`${base}/people/nobody_here`)
  await page.getByRole('heading', { name: 'No such person' }).waitFor()
  t.match(await page.textContent('main'), '@nobody_here', 'the name asked for is repeated')

  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto(`${base}/people/bob`)
  await page.getByText('hello from a small screen').waitFor()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  t.equal(overflow, 0, 'no horizontal scroll at 390 px')
  t.ok(await page.getByRole('button', { name: 'Follow @bob' }).isVisible(), 'the follow button is on screen')
  await screenshot(page, 'people-profile-phone')
})

t.test('a long list of followers pages back with “Older”, and a follow from the list changes only that row', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const fans = await svc.people(...Array.from({ length: 21 }, (_, i) => `fan${String(i).padStart(2, '0')}`))
  for (const fan of fans) await svc.call('POST', `/stream/0/users/${bob.user.id}/follow`, { token: fan.token })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const context = await contextFor(browser, svc, alice)
  // Without IntersectionObserver the list does not page back on scrolling: the button is the way, as for a keyboard.
  await context.addInitScript(() => Reflect.deleteProperty(window, 'IntersectionObserver'))
  const page = await context.newPage()
  watchErrors(t, page)

  await page.goto(`${base}/people/bob/followers`)
  await page.locator('.user-row').nth(19).waitFor()
  t.equal(await page.locator('.user-row').count(), 20, 'a first page of twenty')
  t.match(await page.locator('.user-row').first().textContent(), '@fan20', 'most recent follower first')
  await page.getByRole('button', { name: 'Older' }).click()
  await page.locator('.user-row').nth(20).waitFor()
  t.match(await page.locator('.user-row').nth(20).textContent(), '@fan00', 'the oldest follower on the next page')
  t.equal(await page.getByRole('button', { name: 'Older' }).count(), 0, 'nothing older left')

  await page.getByRole('button', { name: 'Follow @fan00' }).click()
  await page.getByRole('button', { name: 'Following @fan00' }).waitFor()
  t.equal(await page.getByRole('button', { name: /^Following @/ }).count(), 1, 'only that row changed')
  t.equal((await svc.call('GET', '/stream/0/users/@fan00', { token: alice.token })).body.data.you_follow, true, 'the follow reached the server')
})
