/**
 * What svc answers with a file's bytes: user content never runs as a page
 * of svc's origin. Only images svc decoded are shown inline (as the image
 * type it found); everything else is a download of an inert type. Every
 * answer says `nosniff` and sandboxes itself.
 */
import t, { type Test } from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { flatImage } from '../../fixtures/images.js'
import { localPath, upload } from '../../fixtures/files.js'

const PAGE = '<!doctype html><script>localStorage.setItem("stolen", localStorage.getItem("svc.token"))</script>'
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>'

/** Follows an address svc gave (through one redirect) and answers the final response's headers and bytes. */
async function reach(svc: Instance, url: string) {
  let res = await svc.server.inject({ method: 'GET', url: localPath(url) })
  if (res.statusCode === 302) res = await svc.server.inject({ method: 'GET', url: localPath(String(res.headers.location)) })
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload }
}

async function publicFile(svc: Instance, who: Person, content: Buffer | string, filename: string, type: string) {
  const made = await upload(svc, who.token, [
    { name: 'type', data: 'com.example.page' },
    { name: 'public', data: '1' },
    { name: 'content', data: content, filename, type },
  ])
  t.equal(made.status, 200, JSON.stringify(made.body.meta))
  return made.body.data
}

const sandboxed = (t: Test, headers: Record<string, unknown>, where: string) => {
  t.equal(headers['x-content-type-options'], 'nosniff', `${where}: nosniff`)
  const csp = String(headers['content-security-policy'] ?? '')
  t.match(csp, /(^|;)\s*sandbox\s*(;|$)/, `${where}: sandboxed`)
  t.match(csp, /default-src 'none'/, `${where}: nothing may load`)
}

t.test('alice’s HTML page is a download of an inert type from every address, never a page of svc', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await publicFile(svc, alice, PAGE, 'page.html', 'text/html')
  t.equal(file.mime_type, 'text/html', 'the API still reports the type alice gave')
  for (const url of [file.url, file.url_permanent, file.url_short]) {
    const got = await reach(svc, url)
    t.equal(got.status, 200, url)
    t.equal(got.bytes.toString(), PAGE, 'the bytes are alice’s')
    t.equal(got.headers['content-type'], 'application/octet-stream', `${url}: not a type a browser renders`)
    t.equal(got.headers['content-disposition'], 'attachment; filename="page.html"', `${url}: a download, under its name`)
    sandboxed(t, got.headers, url)
  }
})

t.test('an SVG, an XML and a script are downloads too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  for (const [content, name, type] of [
    [SVG, 'logo.svg', 'image/svg+xml'],
    ['<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>', 'feed.xml', 'application/xml'],
    ['alert(1)', 'app.js', 'text/javascript'],
    ['%PDF-1.4', 'doc.pdf', 'application/pdf'],
  ]) {
    const file = await publicFile(svc, alice, content, name, type)
    t.equal(file.mime_type, type)
    const got = await reach(svc, file.url)
    t.equal(got.headers['content-type'], 'application/octet-stream', name)
    t.match(got.headers['content-disposition'], /^attachment; filename="/, name)
    sandboxed(t, got.headers, name)
  }
})

t.test('plain text and JSON keep their types, as downloads', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await publicFile(svc, alice, 'minutes', 'minutes.txt', 'text/plain')
  const got = await reach(svc, file.url)
  t.match(got.headers['content-type'], /^text\/plain/)
  t.equal(got.headers['content-disposition'], 'attachment; filename="minutes.txt"')
  sandboxed(t, got.headers, 'text')
  const data = await publicFile(svc, alice, '{"a": 1}', 'data.json', 'application/json')
  const json = await reach(svc, data.url)
  t.match(json.headers['content-type'], /^application\/json/, 'no browser runs JSON, and nosniff keeps it from being taken as a script')
  t.equal(json.headers['content-disposition'], 'attachment; filename="data.json"')
  sandboxed(t, json.headers, 'json')
})

t.test('a name outside ASCII is kept in the download’s filename*', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.page' },
    { name: 'name', data: '日記 "menu".txt' },
    { name: 'content', data: 'bonjour', filename: 'x.txt', type: 'text/plain' },
  ])
  t.equal(made.body.data.name, '日記 "menu".txt')
  const got = await reach(svc, made.body.data.url)
  t.equal(got.headers['content-disposition'], `attachment; filename="?? \\"menu\\".txt"; filename*=UTF-8''%E6%97%A5%E8%A8%98%20%22menu%22.txt`)
})

t.test('an image svc decoded is shown inline as the type svc found, whatever alice called it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const png = await flatImage(300, 200)
  const file = await publicFile(svc, alice, png, 'photo.html', 'text/html')
  t.equal(file.mime_type, 'text/html', 'the reported type is alice’s')
  t.equal(file.kind, 'other')
  t.ok(file.image_info, 'svc decoded it')
  for (const url of [file.url, file.url_short]) {
    const got = await reach(svc, url)
    t.equal(got.headers['content-type'], 'image/png', `${url}: the type svc found`)
    t.match(got.headers['content-disposition'], /^inline/, `${url}: shown, not downloaded`)
    sandboxed(t, got.headers, url)
    t.ok(got.bytes.equals(png))
  }
  const thumb = await reach(svc, file.derived_files.image_thumb_200s.url)
  t.equal(thumb.headers['content-type'], 'image/png', 'a thumbnail is an image svc made')
  t.match(thumb.headers['content-disposition'], /^inline/)
  sandboxed(t, thumb.headers, 'thumbnail')
})

t.test('a file that only starts like an image is not one', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const fake = `GIF89a${PAGE}`
  const file = await publicFile(svc, alice, fake, 'fake.gif', 'image/gif')
  t.notOk(file.image_info, 'svc could not decode it')
  const got = await reach(svc, file.url)
  t.equal(got.headers['content-type'], 'application/octet-stream')
  t.match(got.headers['content-disposition'], /^attachment/)
})

t.test('a custom derived file follows the same rules as the root', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await upload(svc, alice.token, [
    { name: 'type', data: 'com.example.page' },
    { name: 'content', data: 'root', filename: 'root.txt', type: 'text/plain' },
    { name: 'preview', data: PAGE, filename: 'preview.html', type: 'text/html' },
    { name: 'poster', data: await flatImage(20, 20, 'jpeg'), filename: 'poster.jpg', type: 'image/svg+xml' },
  ])
  t.equal(made.status, 200)
  const preview = await reach(svc, made.body.data.derived_files.preview.url)
  t.equal(preview.headers['content-type'], 'application/octet-stream')
  t.equal(preview.headers['content-disposition'], 'attachment; filename="preview.html"')
  sandboxed(t, preview.headers, 'derived HTML')
  const poster = await reach(svc, made.body.data.derived_files.poster.url)
  t.equal(poster.headers['content-type'], 'image/jpeg')
  t.match(poster.headers['content-disposition'], /^inline/)
  sandboxed(t, poster.headers, 'derived image')
})

t.test('the redirects to content say nosniff too', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = await publicFile(svc, alice, PAGE, 'page.html', 'text/html')
  for (const url of [file.url_permanent, file.url_short]) {
    const res = await svc.server.inject({ method: 'GET', url: localPath(url) })
    t.equal(res.statusCode, 302)
    t.equal(res.headers['x-content-type-options'], 'nosniff', url)
  }
})

t.test('avatars and covers are images svc re-encoded: inline, nosniff and sandboxed', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('GET', '/users/me', { token: alice.token })
  for (const url of [res.body.data.avatar_image.url, `${res.body.data.cover_image.url}?w=720`]) {
    const got = await reach(svc, url)
    t.equal(got.status, 200)
    t.equal(got.headers['content-type'], 'image/png')
    sandboxed(t, got.headers, url)
  }
})
