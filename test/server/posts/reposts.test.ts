import t from 'tap'
import type { User } from '../../../server/api/index.js'
import { makeInstance } from '../../fixtures/instance.js'
import { post } from '../../fixtures/posts.js'
import { keys, POST_KEYS } from '../../fixtures/shapes.js'

t.test('bob reposts alice: the repost quotes her and points at the original', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  await svc.person('carol')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hi @carol #news' } })).body.data
  const res = await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })
  t.equal(res.status, 200)
  const repost = res.body.data
  t.equal(repost.text, '>> @alice: hi @carol #news')
  t.same(
    repost.entities.mentions.map((m: { pos: number; name: string }) => [m.pos, m.name]),
    [
      [3, 'alice'],
      [14, 'carol'],
    ],
  )
  t.equal(repost.entities.hashtags[0].pos, 21)
  t.match(
    repost.html,
    /^<span itemscope="https:\/\/app.net\/schemas\/Post">&gt;&gt; <span data-mention-id="1" data-mention-name="alice" itemprop="mention">@alice<\/span>: hi /,
  )
  t.equal(repost.thread_id, repost.id, 'a repost starts its own thread')
  t.match(repost.repost_of, { id: post.id, you_reposted: true, num_reposts: 1, user: { username: 'alice' } })
  const again = await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })
  t.equal(again.body.data.id, repost.id, 'reposting twice answers the same repost')
  t.equal((await svc.call('POST', `/posts/${repost.id}/repost`, { token: alice.token })).status, 400, 'a repost cannot be reposted')
  t.equal((await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'hey', reply_to: repost.id } })).status, 400, 'nor replied to')
})

t.test('bob unreposts by the original id or by the repost id', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'original' } })).body.data
  const first = (await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })).body.data
  const undone = await svc.call('DELETE', `/posts/${post.id}/repost`, { token: bob.token })
  t.match(undone.body.data, { id: post.id, you_reposted: false, num_reposts: 0 })
  t.equal((await svc.call('GET', `/posts/${first.id}`)).body.data.is_deleted, true, 'the repost post is deleted')
  const second = (await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })).body.data
  t.not(second.id, first.id)
  const byRepost = await svc.call('DELETE', `/posts/${second.id}/repost`, { token: bob.token })
  t.equal(byRepost.body.data.id, post.id, 'the original comes back')
  t.equal(byRepost.body.data.num_reposts, 0)
  const third = (await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })).body.data
  await svc.call('DELETE', `/posts/${third.id}`, { token: bob.token })
  t.equal((await svc.call('GET', `/posts/${post.id}`, { token: bob.token })).body.data.you_reposted, false, 'deleting the repost post unreposts')
})

t.test('reposters are listed newest first; a deleted post cannot be reposted', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const carol = await svc.person('carol')
  const post = (await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'original' } })).body.data
  await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })
  await svc.call('POST', `/posts/${post.id}/repost`, { token: carol.token })
  const list = await svc.call('GET', `/posts/${post.id}/reposters`, { token: svc.appToken })
  t.same(
    list.body.data.map((u: { username: string }) => u.username),
    ['carol', 'bob'],
  )
  const sample = await svc.call('GET', `/posts/${post.id}?include_reposters=1`)
  t.equal(sample.body.data.reposters.length, 2)
  await svc.call('DELETE', `/posts/${post.id}`, { token: alice.token })
  t.same((await svc.call('GET', `/posts/${post.id}/reposters`, { token: svc.appToken })).body.data, [], 'reposts go with their original')
  t.equal((await svc.call('POST', `/posts/${post.id}/repost`, { token: bob.token })).status, 400)
})

t.test('a repost reads ">> @user: text", may pass 256 characters, inherits entities and html, and embeds the original', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const long = `#tag ${'x'.repeat(251)}`
  const original = await post(svc, alice, { text: long })
  const res = await svc.call('POST', `/posts/${original.id}/repost`, { token: bob.token })
  t.equal(res.status, 200)
  const repost = res.body.data
  t.equal(repost.text, `>> @alice: ${long}`)
  t.equal([...repost.text].length, 267)
  t.same(repost.entities, { mentions: [{ pos: 3, len: 6, name: 'alice', id: String(alice.user.id) }], hashtags: [{ pos: 11, len: 4, name: 'tag' }], links: [] })
  t.equal(
    repost.html,
    `<span itemscope="https://app.net/schemas/Post">&gt;&gt; <span data-mention-id="${alice.user.id}" data-mention-name="alice" itemprop="mention">@alice</span>: ` +
      `<span data-hashtag-name="tag" itemprop="hashtag">#tag</span> ${'x'.repeat(251)}</span>`,
  )
  t.same([repost.user.username, repost.you_reposted, repost.num_reposts, repost.machine_only], ['bob', false, 0, false])
  t.same(keys(repost), [...POST_KEYS, 'repost_of', 'you_reposted', 'you_starred'].sort())
  t.same([repost.repost_of.id, repost.repost_of.text, repost.repost_of.you_reposted, repost.repost_of.num_reposts], [original.id, long, true, 1])
  const sample = await svc.call('GET', `/posts/${repost.id}?include_reposters=1`)
  t.same(
    sample.body.data.repost_of.reposters.map((u: User) => u.username),
    ['bob'],
    'repost_of.reposters with include_reposters=1',
  )
})

t.test('reposting sets you_reposted; unreposting by either id or deleting the repost clears it', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await post(svc, alice, { text: 'original' })
  const flag = async () => (await svc.call('GET', `/posts/${made.id}`, { token: bob.token })).body.data.you_reposted
  const first = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  t.equal(await flag(), true)
  const undone = await svc.call('DELETE', `/posts/${first.id}/repost`, { token: bob.token })
  t.same([undone.body.data.id, undone.body.data.you_reposted, await flag()], [made.id, false, false], 'by the repost id, the original comes back')
  const second = (await svc.call('POST', `/posts/${made.id}/repost`, { token: bob.token })).body.data
  t.equal(await flag(), true)
  await svc.call('DELETE', `/posts/${second.id}`, { token: bob.token })
  t.equal(await flag(), false, 'deleting the repost post')
  t.equal((await svc.call('GET', `/posts/${made.id}/reposters`, { token: svc.appToken })).body.data.length, 0)
})
