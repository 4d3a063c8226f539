/**
 * Files in a real browser: a page or an SVG alice uploads is never a page
 * of svc's origin, so its script cannot read what the web client keeps
 * there (bob's token); an image svc decoded still shows inline.
 */
import t from 'tap'
import { contextFor, listen, noBrowser, openBrowser } from '../fixtures/browser.js'
import { makeInstance } from '../fixtures/instance.js'
import { flatImage } from '../fixtures/images.js'
import { localPath, upload } from '../fixtures/files.js'

const STEAL = 'console.log("uploaded script ran"); localStorage.setItem("stolen", String(localStorage.getItem("svc.token")))'

t.test('an uploaded page or SVG cannot run its script on svc’s origin, whichever address bob opens', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const files = []
  for (const [data, filename, type] of [
    [`<!doctype html><title>hi</title><script>${STEAL}</script>`, 'page.html', 'text/html'],
    [`<svg xmlns="http://www.w3.org/2000/svg"><script>${STEAL}</script></svg>`, 'logo.svg', 'image/svg+xml'],
  ]) {
    const made = await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.page' },
      { name: 'public', data: '1' },
      { name: 'content', data, filename, type },
    ])
    t.equal(made.status, 200)
    files.push(made.body.data)
  }
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, bob)).newPage()
  const ran: string[] = []
  page.on('console', (message) => void (message.text().includes('uploaded script ran') && ran.push(page.url())))
  await page.goto(`${base}/`)
  t.type(await page.evaluate(() => localStorage.getItem('svc.token')), 'string', 'bob is signed in: his token is on svc’s origin')
  for (const file of files) {
    for (const url of [file.url, file.url_permanent, file.url_short]) {
      const download = page.waitForEvent('download', { timeout: 5000 }).then(
        () => true,
        () => false,
      )
      // A download aborts the navigation; what matters is what ran.
      await page.goto(base + localPath(url)).catch(() => undefined)
      t.ok(await download, `${file.name} at ${url} is a download`)
    }
  }
  await page.goto(`${base}/`)
  t.equal(await page.evaluate(() => localStorage.getItem('stolen')), null, 'no uploaded script read bob’s token')
  t.same(ran, [], 'no uploaded script ran at all')
})

t.test('an image svc decoded shows inline, sandboxed and all', { skip: noBrowser }, async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: await flatImage(300, 200), filename: 'photo.png', type: 'image/png' },
  ])
  const base = await listen(svc)
  const browser = await openBrowser(t)
  const page = await (await contextFor(browser, svc, null)).newPage()
  const res = await page.goto(base + localPath(made.body.data.url))
  t.equal(res?.status(), 200)
  t.match(res?.headers()['content-security-policy'], /sandbox/)
  const shown = await page.evaluate(() => {
    const img = document.querySelector('img')
    return img ? { width: img.naturalWidth, height: img.naturalHeight } : null
  })
  t.same(shown, { width: 300, height: 200 }, 'the browser decoded and shows it')
})
