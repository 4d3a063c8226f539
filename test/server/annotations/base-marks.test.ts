import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { upload } from '../../fixtures/files.js'
import { openChannel, sendMessage } from '../../fixtures/channels.js'

/** What carol writes, hoping svc completes it into a link to evil.example that looks like svc's own. */
const EVIL = [{ type: 'com.example.link', value: { url: 'svc-base:@evil.example/login', near: 'svc-base:/login', note: 'kept' } }]

const valueOf = (annotations: { type: string; value: Record<string, unknown> }[]) => annotations.find((a) => a.type === 'com.example.link')?.value

t.test('svc-base marks a client writes are never completed, on any object that shows annotations', async (t) => {
  const svc = await makeInstance(t)
  const [carol] = await svc.people('carol')
  const shown: Record<string, Record<string, unknown> | undefined> = {}

  const post = await svc.call('POST', '/stream/0/posts?include_post_annotations=1', { token: carol.token, payload: { text: 'log in here', annotations: EVIL } })
  t.equal(post.status, 200, JSON.stringify(post.body.meta))
  shown.post = valueOf((await svc.call('GET', `/stream/0/posts/${post.body.data.id}?include_post_annotations=1`, { token: carol.token })).body.data.annotations)

  const channel = await openChannel(svc, carol, { annotations: EVIL })
  shown.channel = valueOf(
    (await svc.call('GET', `/stream/0/channels/${channel.id}?include_channel_annotations=1`, { token: carol.token })).body.data.annotations,
  )

  const message = await sendMessage(svc, carol, channel.id, { text: 'log in here', annotations: EVIL })
  const read = await svc.call('GET', `/stream/0/channels/${channel.id}/messages/${message.id}?include_message_annotations=1`, { token: carol.token })
  shown.message = valueOf(read.body.data.annotations)

  const profile = await svc.call('PATCH', '/stream/0/users/me?include_user_annotations=1', { token: carol.token, payload: { annotations: EVIL } })
  t.equal(profile.status, 200, JSON.stringify(profile.body.meta))
  shown.user = valueOf((await svc.call('GET', '/stream/0/users/me?include_user_annotations=1', { token: carol.token })).body.data.annotations)

  const file = (
    await upload(svc, carol.token, [
      { name: 'type', data: 'com.example.notes' },
      { name: 'content', data: 'x', filename: 'x.txt', type: 'text/plain' },
    ])
  ).body.data
  const changed = await svc.call('PUT', `/stream/0/files/${file.id}`, { token: carol.token, payload: { annotations: EVIL } })
  t.equal(changed.status, 200, JSON.stringify(changed.body.meta))
  shown.file = valueOf((await svc.call('GET', `/stream/0/files/${file.id}?include_file_annotations=1`, { token: carol.token })).body.data.annotations)

  for (const [kind, value] of Object.entries(shown)) {
    t.same(value, { note: 'kept' }, `${kind}: the marks carol wrote are dropped, the rest kept`)
  }
  t.notOk(JSON.stringify(shown).includes('evil.example'), 'no link to evil.example anywhere')
})

t.test('the addresses svc writes itself (+svc.core.user) are still completed with its own base URL', async (t) => {
  const svc = await makeInstance(t)
  const [alice] = await svc.people('alice', 'bob')
  const res = await svc.call('POST', '/stream/0/posts?include_post_annotations=1', {
    token: alice.token,
    payload: { text: 'hi', annotations: [{ type: 'com.example.who', value: { '+svc.core.user': { user_id: '@bob', format: 'full' } } }] },
  })
  const value = res.body.data.annotations[0].value
  const base = new URL(value.canonical_url)
  t.equal(base.pathname, '/@bob')
  t.equal(new URL(value.avatar_image.url).origin, base.origin, 'the avatar is on the same origin')
  t.match(value.avatar_image.url, /\/images\//)
})
