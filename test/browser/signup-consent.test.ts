/**
 * A real browser walks the web flow: carol starts at robo's authorization
 * link, creates her account, consents (robo is another app: unlike svc's
 * own web client, it must be allowed), and lands back at robo with a code
 * that robo then exchanges for her token over HTTP.
 */
import t from 'tap'
import { noBrowser, openBrowser } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { makeClient } from '../fixtures/oauth.js'

const REDIRECT = 'http://robo.example/callback'

t.test('carol signs up from robo’s link, consents, and robo exchanges the code', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc, 'Robo', [REDIRECT])
  await svc.server.start()
  const base = svc.server.info.uri

  const browser = await openBrowser(t)
  const page = await browser.newPage()
  // robo.example does not exist: the browser's arrival there is answered here.
  await page.route('http://robo.example/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'robo got it' }))

  const start = `${base}/oauth/authenticate?${new URLSearchParams({ client_id: robo.client_id, response_type: 'code', redirect_uri: REDIRECT, scope: 'stream write_post', state: 's1' })}`
  await page.goto(start)
  t.equal(await page.title(), 'Sign in')
  t.match(await page.textContent('h1'), /Sign in to continue to Robo/)

  await page.click('text=Create one')
  await page.waitForURL(/\/signup\?next=/)
  await page.fill('#username', 'carol')
  await page.fill('#name', 'Carol Jones')
  await page.fill('#password', 'a long passphrase')
  await page.fill('#password_again', 'a long passphrase')
  await page.click('button[type=submit]')

  await page.waitForURL(/\/oauth\/authenticate\?/)
  t.match(await page.textContent('h1'), /Robo would like to/)
  const body = (await page.textContent('body')) ?? ''
  t.match(body, /Signed in as @carol/)
  t.match(body, /write_post/)

  await page.click('button[value=approve]')
  await page.waitForURL(/^http:\/\/robo\.example\/callback\?/)
  const landed = new URL(page.url())
  t.equal(landed.searchParams.get('state'), 's1')
  const code = landed.searchParams.get('code') ?? ''
  t.ok(code.length > 20, 'a code came back')

  const res = await fetch(`${base}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: robo.client_id,
      client_secret: robo.client_secret,
      redirect_uri: REDIRECT,
      code,
    }),
  })
  t.equal(res.status, 200)
  const answer = (await res.json()) as { access_token: string; username: string; token: { scopes: string[]; user: { name: string } } }
  t.equal(answer.username, 'carol')
  t.same(answer.token.scopes, ['basic', 'stream', 'write_post'])
  t.equal(answer.token.user.name, 'Carol Jones')

  // Signed in and already granted: the same link (with the browser's cookie) goes straight back to robo.
  const again = await page.request.get(start, { maxRedirects: 0 })
  t.equal(again.status(), 302)
  t.match(again.headers().location, /^http:\/\/robo\.example\/callback\?code=/)
})
