import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { post } from '../../fixtures/posts.js'

const photo = { type: 'svc.core.oembed', value: { type: 'photo', version: '1.0', width: 640, height: 480, url: 'https://img.example/cat.jpg' } }

t.test('anyone lists the explore streams, unpaginated, each with its URL', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  for (const path of ['/stream/0/posts/stream/explore', '/posts/stream/explore']) {
    const res = await svc.call('GET', path)
    t.equal(res.status, 200)
    t.same(res.body.meta, { code: 200 }, 'no pagination meta')
    t.same(
      res.body.data.map((s: { slug: string }) => s.slug),
      ['posts', 'conversations', 'photos', 'trending', 'checkins'],
    )
    t.same(res.body.data[2], {
      slug: 'photos',
      title: 'Photos',
      description: 'Photos uploaded by people here',
      url: 'https://svc.example/stream/0/posts/stream/explore/photos',
    })
  }
})

t.test('a stream answers its posts with the stream and its marker in meta', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const snap = await post(svc, alice, { text: 'my cat', annotations: [photo] })
  await post(svc, bob, { text: 'no photo' })
  const res = await svc.call('GET', '/stream/0/posts/stream/explore/photos?include_post_annotations=1')
  t.equal(res.status, 200)
  t.same(
    res.body.data.map((p: { id: string }) => p.id),
    [snap.id],
  )
  t.equal(res.body.data[0].pagination_id, snap.id)
  t.same(res.body.data[0].annotations, [photo])
  t.equal(res.body.data[0].user.username, 'alice')
  t.same(res.body.meta.marker, { name: 'explore:photos' })
  t.equal(res.body.meta.explore_stream!.slug, 'photos')
  t.match(res.body.meta.explore_stream!.url, /\/stream\/0\/posts\/stream\/explore\/photos$/)
  t.equal(res.body.meta.more, false)
  t.equal(res.body.meta.min_id, snap.id)
})

t.test('the posts stream marker is explore:posts, full once alice sets it', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const first = await post(svc, alice, { text: 'hello world' })
  const set = await svc.call('POST', '/stream/0/posts/marker', { token: alice.token, payload: { name: 'explore:posts', id: first.id } })
  t.equal(set.status, 200)
  const res = await svc.call('GET', '/posts/stream/explore/posts', { token: alice.token })
  t.equal(res.body.meta.marker!.name, 'explore:posts')
  t.equal(res.body.meta.marker!.id, first.id)
  t.equal(res.body.meta.marker!.last_read_id, first.id)
  const anonymous = await svc.call('GET', '/posts/stream/explore/posts')
  t.same(anonymous.body.meta.marker, { name: 'explore:posts' })
})

t.test('an unknown slug is a 404 and a malformed one a 400, both in the envelope', async (t) => {
  const svc = await makeInstance(t)
  const missing = await svc.call('GET', '/stream/0/posts/stream/explore/nope')
  t.equal(missing.status, 404)
  t.equal(missing.body.meta.code, 404)
  const bad = await svc.call('GET', '/stream/0/posts/stream/explore/Not_A_Slug')
  t.equal(bad.status, 400)
  t.match(bad.body.meta.error_message, /^Bad Request: /)
  const badCount = await svc.call('GET', '/stream/0/posts/stream/explore/photos?count=1.5')
  t.equal(badCount.status, 400)
})

t.test('muted authors stay out of explore for alice but not for anonymous readers', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await post(svc, bob, { text: 'loud opinions' })
  t.equal((await svc.call('POST', `/users/${bob.user.id}/mute`, { token: alice.token })).status, 200)
  t.same((await svc.call('GET', '/posts/stream/explore/posts', { token: alice.token })).body.data, [])
  t.equal((await svc.call('GET', '/posts/stream/explore/posts')).body.data.length, 1)
  t.equal((await svc.call('GET', '/posts/stream/explore/posts?include_muted=1', { token: alice.token })).body.data.length, 1)
})

t.test('explore: the list is open to all and names each stream with its four strings', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  const alice = await svc.person('alice')
  for (const token of [undefined, alice.token, svc.appToken]) {
    const res = await svc.call('GET', '/stream/0/posts/stream/explore', { token })
    t.equal(res.status, 200)
    for (const stream of res.body.data) {
      t.same(Object.keys(stream).sort(), ['description', 'slug', 'title', 'url'])
      t.match(stream.slug, /^[a-z0-9]+$/, 'slugs are lowercase alphanumeric')
      t.equal(stream.url, `https://svc.example/stream/0/posts/stream/explore/${stream.slug}`)
    }
  }
})

t.test('explore: each shipped stream names its marker explore:<slug> and echoes itself in meta', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const list = (await svc.call('GET', '/posts/stream/explore')).body.data as { slug: string }[]
  for (const stream of list) {
    const res = await svc.call('GET', `/stream/0/posts/stream/explore/${stream.slug}`, { token: alice.token })
    t.equal(res.status, 200, stream.slug)
    t.same(res.body.meta.marker, { name: `explore:${stream.slug}` }, stream.slug)
    t.same(res.body.meta.explore_stream, stream, `${stream.slug}: the same object as in the list`)
  }
})

t.test('explore: a stream pages by post id with since_id, before_id and count', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const ids = []
  for (const text of ['one', 'two', 'three']) ids.push((await post(svc, alice, { text })).id)
  const first = await svc.call('GET', '/posts/stream/explore/posts?count=2')
  t.same(
    first.body.data.map((p: { id: string }) => p.id),
    [ids[2], ids[1]],
  )
  t.same(
    first.body.data.map((p: { pagination_id: string }) => p.pagination_id),
    [ids[2], ids[1]],
  )
  t.match(first.body.meta, { code: 200, more: true, max_id: ids[2], min_id: ids[1] })
  const older = await svc.call('GET', `/posts/stream/explore/posts?before_id=${ids[1]}`)
  t.same(
    older.body.data.map((p: { id: string }) => p.id),
    [ids[0]],
  )
  t.equal(older.body.meta.more, false)
  const newer = await svc.call('GET', `/posts/stream/explore/posts?since_id=${ids[0]}`)
  t.same(
    newer.body.data.map((p: { id: string }) => p.id),
    [ids[2], ids[1]],
  )
})
