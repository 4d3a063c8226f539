/**
 * The web client's Content-Security-Policy in a real browser. The API still
 * answers JSONP (`?callback=`) for the original clients, as JavaScript from
 * svc's own origin; should markup ever slip into the client's page, a
 * `<script>` pointing at such an answer must not run there.
 */
import t from 'tap'
import { listen, noBrowser, openBrowser } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'

interface Marks {
  pwned?: boolean
  violations: string[]
}

t.test('a script slipped into the web client’s page, pointing at a JSONP answer, is refused by the page’s CSP', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t, { name: 'Birdhouse' })
  await svc.person('alice')
  const base = await listen(svc)
  const jsonp = '/stream/0/users/@alice?callback=pwned'
  const direct = await fetch(`${base}${jsonp}`)
  t.match(direct.headers.get('content-type'), /javascript/, 'the API answers it as script')
  t.match(await direct.text(), /^pwned\(/)

  const browser = await openBrowser(t)
  /** Loads the client's page with the script slipped in (the page's own CSP kept or dropped); answers what ran and what was refused. */
  const visit = async (keepPolicy: boolean): Promise<{ marks: Marks; heading: string | null }> => {
    const page = await browser.newPage()
    await page.addInitScript(() => {
      const marks: Marks = { violations: [] }
      Object.assign(window, { marks, pwned: () => (marks.pwned = true) })
      document.addEventListener('securitypolicyviolation', (e) => marks.violations.push(`${e.effectiveDirective} ${e.blockedURI}`))
    })
    await page.route(`${base}/`, async (route) => {
      const response = await route.fetch()
      const headers = response.headers()
      if (!keepPolicy) delete headers['content-security-policy']
      const body = (await response.text()).replace('</head>', `<script src="${jsonp}"></script></head>`)
      await route.fulfill({ response, headers, body })
    })
    await page.goto(`${base}/`)
    await page.waitForSelector('h1')
    const marks = await page.evaluate(() => (window as unknown as { marks: Marks }).marks)
    const heading = await page.textContent('h1')
    await page.close()
    return { marks, heading }
  }

  const guarded = await visit(true)
  t.equal(guarded.heading, 'Birdhouse', 'the client’s own scripts run under the policy')
  t.notOk(guarded.marks.pwned, 'the JSONP answer never ran')
  t.match(guarded.marks.violations, [/^script-src(-elem)? .*callback=pwned/], 'the browser refused it by the policy')

  const unguarded = await visit(false)
  t.equal(unguarded.marks.pwned, true, 'without the policy it would have run: this test can tell')
})
