/**
 * svc's web client at `/`: a visitor sees the instance's name and
 * description, can sign up or in, and reads what anyone may read; a
 * signed-in person posts from home.
 */
import t from 'tap'
import { checkAccessibility, contextFor, listen, noBrowser, openBrowser, screenshot, watchErrors } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { post } from '../fixtures/posts.js'

t.test('a visitor sees the instance, how to join, and the global stream', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { name: 'Birdhouse', description: 'Where the <birds> talk & sing.' })
  const alice = await svc.person('alice')
  await post(svc, alice, { text: 'good morning #birds' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, null)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/`)
  t.equal(await page.title(), 'Birdhouse')
  t.equal(await page.textContent('h1'), 'Birdhouse')
  t.match(await page.textContent('.description'), 'Where the <birds> talk & sing.', 'the description as text, not markup')
  await page.waitForSelector('text=good morning')
  t.ok(await page.isVisible('button:has-text("Sign up")'))
  t.ok(await page.isVisible('button:has-text("Sign in")'))
  t.notOk(await page.isVisible('text=Reply'), 'no actions for a visitor')
  await screenshot(page, 'landing')
  await checkAccessibility(t, page, 'landing')
})

t.test('sign up is not offered when registration is by invitation; the landing page says how to get in', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { open_registration: false })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, null)).newPage()
  await page.goto(`${base}/`)
  await page.waitForSelector('button:has-text("Sign in")')
  t.notOk(await page.isVisible('button:has-text("Sign up")'))
  t.match(await page.textContent('.landing'), 'New accounts here come by invitation: ask the operator for a link.')
})

t.test('where the operator approves each account, the landing page offers to request one', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { registration: 'approval', rules: 'Be kind.\n- No spam\n- No ads' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, null)).newPage()
  await page.goto(`${base}/`)
  await page.waitForSelector('button:has-text("Sign in")')
  t.notOk(await page.isVisible('button:has-text("Sign up")'))
  await page.click('.landing button:has-text("Request an account")')
  await page.waitForURL(/\/signup\?next=/)
  t.equal(await page.textContent('h1'), 'Request an account')
  t.equal(await page.locator('.rules li').count(), 2, 'the rules show above the form')
  t.ok(await page.isVisible('label:has-text("Why do you want to join?")'))
  await checkAccessibility(t, page, 'signup with rules, asking for approval')
})

t.test('signed in, home opens with the compose box; a post shows at once with its entities as links', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.person('bob')
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, page)
  await page.goto(`${base}/`)
  await page.waitForURL(`${base}/home`)
  await page.fill('textarea', 'hello @bob #first https://example.com/x')
  t.match(await page.textContent('.counter'), '217 characters left')
  t.equal(await page.locator('.preview mark').count(), 3, 'mention, hashtag and link are marked while writing')
  await page.click('button[type=submit]')
  const item = page.locator('article.post').first()
  await item.waitFor()
  t.match(await item.textContent(), 'hello @bob #first')
  t.equal(await item.locator('a.mention').getAttribute('href'), '/people/bob')
  t.equal(await item.locator('a.hashtag').getAttribute('href'), '/explore/tag/first')
  t.equal(await page.inputValue('textarea'), '', 'the box is empty again')
  await screenshot(page, 'home')
  await checkAccessibility(t, page, 'home')
})

t.test('every other screen passes the accessibility check, signed in and out', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await post(svc, bob, { text: '@alice look: #birds at dawn' })
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const visitor = await (await contextFor(browser, svc, null)).newPage()
  const signedIn = await (await contextFor(browser, svc, alice)).newPage()
  watchErrors(t, visitor)
  watchErrors(t, signedIn)
  const screens: [typeof visitor, string, string, string][] = [
    [visitor, '/global', 'Global', 'global'],
    [visitor, '/explore', 'Explore', 'explore'],
    [visitor, '/explore/photos', 'Explore: photos', 'explore-stream'],
    [visitor, '/explore/tag/birds', '#birds', 'hashtag'],
    [visitor, '/global/nothing/here', 'Not found', 'not-found'],
    [signedIn, '/mentions', 'Mentions', 'mentions'],
    [signedIn, '/global', 'Global', 'global-signed-in'],
  ]
  for (const [page, path, heading, name] of screens) {
    await page.goto(`${base}${path}`)
    await page.locator('h1', { hasText: heading }).waitFor()
    await page.waitForSelector('.loading', { state: 'detached' })
    await screenshot(page, name)
    await checkAccessibility(t, page, name)
  }
  t.match(await signedIn.textContent('main'), '#birds at dawn', "alice's mentions show bob's post")
})
