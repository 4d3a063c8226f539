/**
 * Links to svc's public pages pasted elsewhere: what the page shows (photos,
 * linked entities, counts in words), what a preview reads (OpenGraph,
 * Twitter card, oEmbed), and the author's Atom feed; never a deleted,
 * machine-only or suspended author's post, nor a third party's image.
 */
import { parseDocument, DomUtils } from 'htmlparser2'
import t from 'tap'
import { upload } from '../../fixtures/files.js'
import { flatImage } from '../../fixtures/images.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const BASE = 'https://svc.example'
const post = async (svc: Instance, who: Person, payload: Record<string, unknown>) => (await svc.call('POST', '/posts', { token: who.token, payload })).body.data
const get = (svc: Instance, path: string) => svc.server.inject(path)

/** The content of `<meta property|name=...>` in `html`, or undefined. */
function meta(html: string, key: string): string | undefined {
  const doc = parseDocument(html)
  const tag = DomUtils.findOne((e) => e.name === 'meta' && (e.attribs.property === key || e.attribs.name === key), doc.children)
  return tag?.attribs.content
}

function link(html: string, type: string): string | undefined {
  const doc = parseDocument(html)
  return DomUtils.findOne((e) => e.name === 'link' && e.attribs.rel === 'alternate' && e.attribs.type === type, doc.children)?.attribs.href
}

async function photoPost(svc: Instance, who: Person, text: string, alt: string) {
  const made = await upload(svc, who.token, [
    { name: 'type', data: 'com.example.photo' },
    { name: 'content', data: await flatImage(1200, 800), filename: 'sea.png', type: 'image/png' },
  ])
  const file = made.body.data
  const annotations = [
    { type: 'svc.core.oembed', value: { title: alt, '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } } },
    { type: 'svc.core.oembed', value: { type: 'photo', version: '1.0', width: 10, height: 10, url: 'https://tracker.example/pixel.png' } },
  ]
  return post(svc, who, { text, annotations })
}

t.test("a photo post's page shows its photo from svc, links its entities, and tells a preview what it is", async (t) => {
  const svc = await makeInstance(t, { public_url: BASE, name: 'Seaside Social' })
  const alice = await svc.person('alice')
  await svc.person('bob')
  const sea = await photoPost(svc, alice, 'the #sea with @bob, see https://sea.example/x', 'Waves at dawn')
  const res = await get(svc, `/@alice/post/${sea.id}`)
  t.equal(res.statusCode, 200)
  t.equal(
    res.headers['content-security-policy'],
    `default-src 'none'; img-src ${BASE}; style-src 'unsafe-inline'; frame-ancestors 'none'`,
    'the CSP stays strict',
  )
  const html = res.payload
  const images = DomUtils.findAll((e) => e.name === 'img', parseDocument(html).children).map((e) => e.attribs)
  const photo = images.find((i) => i.alt === 'Waves at dawn')
  t.ok(photo, 'the photo, with its alt text')
  t.match(photo?.src, new RegExp(`^${BASE}/files-content/`), 'through svc’s own address')
  t.notOk(
    images.some((i) => i.src.includes('tracker.example')),
    'no third party’s image',
  )
  t.notMatch(html, /tracker\.example/)
  t.ok(html.includes(`<a href="${BASE}/explore/tag/sea">#sea</a>`), 'the hashtag linked')
  t.ok(html.includes(`<a href="${BASE}/@bob">@bob</a>`), 'the mention linked')
  t.ok(html.includes('<a href="https://sea.example/x" rel="nofollow noopener">https://sea.example/x</a>'), 'the link linked')

  const url = `${BASE}/@alice/post/${sea.id}`
  t.equal(meta(html, 'og:site_name'), 'Seaside Social')
  t.equal(meta(html, 'og:title'), 'Alice (@alice)')
  t.equal(meta(html, 'og:description'), 'the #sea with @bob, see https://sea.example/x')
  t.equal(meta(html, 'og:url'), url)
  t.equal(meta(html, 'og:type'), 'article')
  t.match(meta(html, 'og:image'), new RegExp(`^${BASE}/files-content/`), 'the photo is the image')
  t.equal(meta(html, 'og:image:alt'), 'Waves at dawn')
  t.equal(meta(html, 'twitter:card'), 'summary_large_image')
  t.equal(meta(html, 'twitter:title'), 'Alice (@alice)')
  t.equal(link(html, 'application/json+oembed'), `${BASE}/oembed?url=${encodeURIComponent(url)}&format=json`)
  t.equal(link(html, 'application/atom+xml'), `${BASE}/@alice.atom`)
  t.equal((await svc.server.inject(new URL(photo!.src).pathname + new URL(photo!.src).search)).statusCode, 200, 'the photo loads')

  const plain = await post(svc, alice, { text: 'no photo here' })
  const plainPage = (await get(svc, `/@alice/post/${plain.id}`)).payload
  t.match(meta(plainPage, 'og:image'), new RegExp(`^${BASE}/images/default-avatar\\.png`), 'no photo: the avatar')
  t.equal(meta(plainPage, 'twitter:card'), 'summary')
})

t.test("a user's page counts in words, carries preview tags and its feed, and lists only what anyone may see", async (t) => {
  const svc = await makeInstance(t, { public_url: BASE, name: 'Seaside Social' })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { description: { text: 'Sailor. #sea' } } })
  await svc.call('POST', `/users/${alice.user.id}/follow`, { token: bob.token })
  const kept = await post(svc, alice, { text: 'kept' })
  const gone = await post(svc, alice, { text: 'soon deleted' })
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  await post(svc, alice, { machine_only: true, annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  const bobs = await post(svc, bob, { text: 'bob says' })
  await svc.call('POST', `/posts/${bobs.id}/repost`, { token: alice.token })

  const one = (await get(svc, '/@alice')).payload
  t.match(one, /3 posts · 0 following · 1 follower</, 'one follower; the counts are the API’s (a repost and a machine-only post count)')
  t.notMatch(one, /1 followers/)
  t.equal(meta(one, 'og:type'), 'profile')
  t.equal(meta(one, 'og:title'), 'Alice (@alice)')
  t.equal(meta(one, 'og:description'), 'Sailor. #sea')
  t.equal(meta(one, 'og:url'), `${BASE}/@alice`)
  t.equal(meta(one, 'og:site_name'), 'Seaside Social')
  t.match(meta(one, 'og:image'), new RegExp(`^${BASE}/images/default-avatar\\.png`))
  t.equal(link(one, 'application/atom+xml'), `${BASE}/@alice.atom`)
  t.equal(link(one, 'application/json+oembed'), `${BASE}/oembed?url=${encodeURIComponent(`${BASE}/@alice`)}&format=json`)
  t.ok(one.includes(`href="${BASE}/@alice/post/${kept.id}"`))
  t.notMatch(one, /soon deleted/, 'no deleted post')
  t.notMatch(one, /bob says/, 'no repost of someone else’s post')
  t.notMatch(one, new RegExp(`/post/${gone.id}"`))

  await svc.call('POST', `/users/${alice.user.id}/follow`, { token: carol.token })
  t.match((await get(svc, '/@alice')).payload, /3 posts · 0 following · 2 followers</, 'two followers')
  t.match((await get(svc, '/@bob')).payload, /1 post · 1 following · 0 followers</, 'one post')

  await svc.domain.users.moderation.suspend(alice.user.id)
  for (const path of ['/@alice', '/@alice.atom', `/@alice/post/${kept.id}`]) t.equal((await get(svc, path)).statusCode, 404, `suspended: ${path}`)
})

t.test('the Atom feed holds the latest live posts, escaped, and parses', async (t) => {
  const svc = await makeInstance(t, { public_url: BASE, name: 'Seaside Social' })
  const alice = await svc.person('alice')
  const first = await post(svc, alice, { text: 'first #sea' })
  const tricky = await post(svc, alice, { text: 'x ]]> y ]]> <script>alert(1)</script> & done' })
  const gone = await post(svc, alice, { text: 'soon deleted' })
  await svc.call('DELETE', `/posts/${gone.id}`, { token: alice.token })
  const sea = await photoPost(svc, alice, 'the sea', 'Waves')
  const res = await get(svc, '/@alice.atom')
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/atom\+xml/)
  const doc = parseDocument(res.payload, { xmlMode: true })
  const feed = DomUtils.findOne((e) => e.name === 'feed', doc.children)
  t.equal(feed?.attribs.xmlns, 'http://www.w3.org/2005/Atom')
  const child = (e: ReturnType<typeof DomUtils.findOne>, name: string) => (e ? DomUtils.findOne((c) => c.name === name, e.children, false) : null)
  t.equal(DomUtils.textContent(child(feed, 'title')!), 'Alice (@alice) on Seaside Social')
  t.equal(DomUtils.textContent(child(feed, 'id')!), `${BASE}/@alice`)
  const entries = DomUtils.findAll((e) => e.name === 'entry', doc.children)
  t.same(
    entries.map((e) => DomUtils.textContent(child(e, 'id')!)),
    [sea, tricky, first].map((p) => `${BASE}/@alice/post/${p.id}`),
    'newest first, no deleted post',
  )
  const content = (i: number) => DomUtils.textContent(child(entries[i], 'content')!)
  t.equal(content(1), '<p>x ]]&gt; y ]]&gt; &lt;script&gt;alert(1)&lt;/script&gt; &amp; done</p>', 'the tricky text, escaped html inside the feed')
  t.match(content(2), `<a href="${BASE}/explore/tag/sea">#sea</a>`)
  t.match(content(0), new RegExp(`<img src="${BASE}/files-content/[^"]+" alt="Waves"`))
  t.notMatch(res.payload, /tracker\.example/)
  t.equal((await get(svc, '/@nobody.atom')).statusCode, 404)
})

t.test('oEmbed answers a post as rich html that is safe, a user as a link, and nothing else', async (t) => {
  const svc = await makeInstance(t, { public_url: BASE, name: 'Seaside Social' })
  const alice = await svc.person('alice')
  await svc.call('PATCH', '/users/me', { token: alice.token, payload: { name: 'Alice <b>' } })
  const hello = await post(svc, alice, { text: 'hello <img src=x onerror=alert(1)> #sea' })
  const url = `${BASE}/@alice/post/${hello.id}`
  const res = await get(svc, `/oembed?url=${encodeURIComponent(url)}&format=json`)
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  const embed = JSON.parse(res.payload)
  t.match(embed, {
    version: '1.0',
    type: 'rich',
    provider_name: 'Seaside Social',
    provider_url: `${BASE}/`,
    author_name: 'Alice <b>',
    author_url: `${BASE}/@alice`,
    width: 550,
    height: null,
  })
  t.type(embed.html, 'string')
  const html = parseDocument(embed.html)
  t.same(
    DomUtils.findAll((e) => !['blockquote', 'p', 'footer', 'a'].includes(e.name), html.children).map((e) => e.name),
    [],
    'only a quote, paragraphs and links',
  )
  t.notMatch(embed.html, /<img|<script|<b>|onerror=alert\(1\)>/)
  t.ok(embed.html.includes(`<a href="${url}">`), 'links back to the post')
  t.equal(JSON.parse((await get(svc, `/oembed?url=${encodeURIComponent(url)}&maxwidth=300`)).payload).width, 300, 'maxwidth')

  const user = JSON.parse((await get(svc, `/oembed?url=${encodeURIComponent(`${BASE}/@alice`)}`)).payload)
  t.match(user, { version: '1.0', type: 'link', author_url: `${BASE}/@alice`, provider_name: 'Seaside Social' })
  t.equal(user.html, undefined)

  const xml = await get(svc, `/oembed?url=${encodeURIComponent(url)}&format=xml`)
  t.equal(xml.statusCode, 200)
  t.match(xml.headers['content-type'], /^text\/xml/)
  t.match(xml.payload, /^<\?xml version="1\.0" encoding="utf-8" standalone="yes"\?><oembed>.*<\/oembed>$/s, 'one oembed element')
  t.ok(xml.payload.includes('<type>rich</type>') && xml.payload.includes('<version>1.0</version>'), 'the same answer as XML')
  t.ok(xml.payload.includes(`<author_url>${BASE}/@alice</author_url>`))
  t.ok(xml.payload.includes('<html>&lt;blockquote'), 'the html escaped inside its element')
  t.equal((await get(svc, `/oembed?url=${encodeURIComponent(url)}&format=yaml`)).statusCode, 400, 'a format oEmbed does not have is bad input')
  const deleted = await post(svc, alice, { text: 'soon deleted' })
  await svc.call('DELETE', `/posts/${deleted.id}`, { token: alice.token })
  for (const other of [
    `${BASE}/@alice/post/${deleted.id}`,
    `https://elsewhere.example/@alice/post/${hello.id}`,
    `${BASE}/settings`,
    'not a url',
    `${BASE}/@nobody`,
  ]) {
    const answer = await get(svc, `/oembed?url=${encodeURIComponent(other)}`)
    t.equal(answer.statusCode, 404, other)
    t.equal(JSON.parse(answer.payload).meta.code, 404)
  }
  t.equal((await get(svc, '/oembed')).statusCode, 400, 'url is required')
})
