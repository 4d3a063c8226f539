import t from 'tap'
import { makeDomainInstance, makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { upload } from '../../fixtures/files.js'
import { flatImage } from '../../fixtures/images.js'

const HOUR_MS = 60 * 60_000
const BASE = 'https://svc.example'

/** A private image attached to a post as an oEmbed photo; answers the stored value and the file. */
async function attachedPhoto(svc: Instance, alice: Person) {
  const file = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.photo' },
      { name: 'content', data: await flatImage(1200, 800), filename: 'beach.png', type: 'image/png' },
    ])
  ).body.data
  const post = await svc.domain.posts.core.create(await svc.viewerOf(alice), {
    text: 'beach',
    annotations: [{ type: 'svc.core.oembed', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } } }],
  })
  const stored = (await svc.store.read.posts.get(post.id))!.annotations[0].value
  return { post, file, stored }
}

const signedOf = (url: string) => {
  const q = new URL(url).searchParams
  return { expires: Number(q.get('expires')), sig: String(q.get('sig')) }
}

t.test('annotation addresses shown after the first ones expired are signed afresh and work', async (t) => {
  const svc = await makeInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const { post, file, stored } = await attachedPhoto(svc, alice)
  const row = (await svc.store.read.files.get(Number(file.id)))!
  const render = (now: number) =>
    svc.domain.views.annotationRenderer.render(stored, { baseUrl: BASE, grant: { kind: 'p', id: post.id }, now }) as Record<string, string>
  const t0 = Date.now()
  const first = render(t0)
  const later = render(t0 + 5 * HOUR_MS)
  const links = svc.domain.files.links
  t.notOk(links.checkContent(row, undefined, signedOf(first.url), t0 + 5 * HOUR_MS), 'the first address has expired by then')
  t.ok(links.checkContent(row, undefined, signedOf(later.url), t0 + 5 * HOUR_MS), 'the one shown then is live')
  t.ok(Date.parse(later.url_expires) - (t0 + 5 * HOUR_MS) >= HOUR_MS, 'and lives at least an hour from then')
  t.ok(links.checkContent(row, 'image_thumb_200s', signedOf(later.thumbnail_url), t0 + 5 * HOUR_MS), 'thumbnails too')
  t.ok(links.checkContent(row, undefined, signedOf(later.url_immediate), t0 + 5 * HOUR_MS), 'and url_immediate')
})

t.test('a rendering for a stream, or without a granting object, drops the read token and keeps the addresses', async (t) => {
  const svc = await makeInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const { post, stored } = await attachedPhoto(svc, alice)
  const streamed = svc.domain.views.annotationRenderer.render(stored, { baseUrl: BASE, grant: { kind: 'p', id: post.id }, streamed: true })
  t.notOk('file_token_read' in streamed)
  t.match(streamed.url, /^https:\/\/svc\.example\/files-content\//)
  const ungranted = svc.domain.views.annotationRenderer.render(stored, { baseUrl: BASE, grant: null })
  t.notOk('file_token_read' in ungranted)
  t.equal(ungranted.file_id, stored.file_id)
})

t.test('svc-base marks svc wrote are completed with the base URL, other values kept', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const renderer = svc.domain.views.annotationRenderer
  const value = { url: renderer.baseMark('/@alice'), list: [renderer.baseMark('/x'), 'https://elsewhere.example/svc-base:/y', 3, null] }
  t.same(renderer.render(value, { baseUrl: BASE, grant: null }), {
    url: `${BASE}/@alice`,
    list: [`${BASE}/x`, 'https://elsewhere.example/svc-base:/y', 3, null],
  })
})

t.test('an svc-base mark a client wrote is dropped, never completed into a link elsewhere', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const renderer = svc.domain.views.annotationRenderer
  const value = {
    evil: 'svc-base:@evil.example/login',
    path: 'svc-base:/login',
    forged: 'svc-base:/login:AAAAAAAAAAAAAAAAAAAAAA',
    kept: 'plain text',
  }
  t.same(renderer.render(value, { baseUrl: 'http://127.0.0.1:8099', grant: null }), { kept: 'plain text' }, 'unsealed or wrongly sealed marks go')
  t.throws(() => renderer.baseMark('@evil.example/login'), 'svc itself only ever marks a path')
})

t.test('the unsealed marks svc stored before marks were sealed still lead to its own avatars and profiles, nothing else', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const renderer = svc.domain.views.annotationRenderer
  const value = {
    avatar: 'svc-base:/images/default-avatar.png',
    profile: 'svc-base:/@alice',
    elsewhere: 'svc-base://evil.example/images/x.png',
    userinfo: 'svc-base:/@alice@evil.example',
    other: 'svc-base:/oauth/authenticate',
  }
  t.same(renderer.render(value, { baseUrl: BASE, grant: null }), { avatar: `${BASE}/images/default-avatar.png`, profile: `${BASE}/@alice` })
})
