/** Reports to the operator: of a post (App.net's `POST /posts/{post_id}/report`), of an account and of a message, kept as they were when reported. */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('bob reports a post of alice: the post is answered, alice is muted for bob, and the operator has the report', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'buy my pills' } })
  const id = made.body.data.id
  const reported = await svc.call('POST', `/stream/0/posts/${id}/report`, { token: bob.token })
  t.equal(reported.status, 200)
  t.match(reported.body.data, { id, text: 'buy my pills', user: { username: 'alice', you_muted: true } }, 'the reported post, its author muted')
  const muted = await svc.call('GET', '/stream/0/users/me/muted', { token: bob.token })
  t.same(
    muted.body.data.map((u: { username: string }) => u.username),
    ['alice'],
  )
  const again = await svc.call('POST', `/stream/0/posts/${id}/report`, { token: bob.token, payload: { reason: 'spam, twice' } })
  t.equal(again.status, 200, 'reporting again is no error')
  const [report, ...more] = await svc.domain.reports.list()
  t.same(more, [], 'one report per reporter and post')
  t.match(report, { kind: 'post', post_id: Number(id), reporter: 'bob', author: 'alice', reason: null, content: { text: 'buy my pills' }, resolved_at: null })

  t.equal((await svc.call('DELETE', `/stream/0/posts/${id}`, { token: alice.token })).status, 200)
  const [kept] = await svc.domain.reports.list()
  t.equal(kept.content.text, 'buy my pills', 'what it said is kept after the post is deleted')
  const resolved = await svc.domain.reports.resolve(kept.id, 'account warned')
  t.match(resolved, { resolved_at: String, resolution: 'account warned' })
  t.same(await svc.domain.reports.list(), [], 'no open reports left')
  t.equal((await svc.domain.reports.list({ all: true })).length, 1, 'but it is kept')
})

t.test('a reason in the body reaches the operator; JSON and form bodies alike', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const id = (await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'hello' } })).body.data.id
  t.equal((await svc.call('POST', `/stream/0/posts/${id}/report`, { token: bob.token, payload: { reason: '  harassment  ' } })).status, 200)
  const form = await svc.server.inject({
    method: 'POST',
    url: `/stream/0/posts/${id}/report`,
    headers: { authorization: `Bearer ${carol.token}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'reason=off+topic',
  })
  t.equal(form.statusCode, 200)
  t.same(
    (await svc.domain.reports.list()).map((r) => [r.reporter, r.reason]),
    [
      ['bob', 'harassment'],
      ['carol', 'off topic'],
    ],
  )
})

t.test('one cannot report what one cannot see, what is gone, one’s own post, or without a user token', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const id = (await svc.call('POST', '/stream/0/posts', { token: alice.token, payload: { text: 'mine' } })).body.data.id
  const own = await svc.call('POST', `/stream/0/posts/${id}/report`, { token: alice.token })
  t.equal(own.status, 400)
  t.match(own.body.meta.error_message, /cannot report your own post/)
  t.equal((await svc.call('POST', '/stream/0/posts/999999/report', { token: bob.token })).status, 404)
  t.equal((await svc.call('POST', `/stream/0/posts/${id}/report`)).status, 401)
  t.equal((await svc.call('POST', `/stream/0/posts/${id}/report`, { token: svc.appToken })).status, 403, 'an app token is no user')
  const long = await svc.call('POST', `/stream/0/posts/${id}/report`, { token: bob.token, payload: { reason: 'x'.repeat(1001) } })
  t.equal(long.status, 400)
  await svc.call('DELETE', `/stream/0/posts/${id}`, { token: alice.token })
  t.equal((await svc.call('POST', `/stream/0/posts/${id}/report`, { token: bob.token })).status, 404, 'a deleted post')
  t.same(await svc.domain.reports.list({ all: true }), [], 'no report made by any of these')
})

t.test('bob reports alice’s account: she is muted for him, the operator reads her profile as it was, and suspending her resolves it', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  t.equal(
    (await svc.call('PATCH', '/stream/0/users/me', { token: alice.token, payload: { name: 'Alice', description: { text: 'follow me for deals' } } })).status,
    200,
  )
  const reported = await svc.call('POST', '/stream/0/users/@alice/report', { token: bob.token, payload: { reason: 'a spam account' } })
  t.equal(reported.status, 200)
  t.match(reported.body.data, { id: String(alice.user.id), username: 'alice', you_muted: true }, 'the reported account, muted')
  await svc.call('PATCH', '/stream/0/users/me', { token: alice.token, payload: { description: { text: 'nothing to see' } } })
  t.equal((await svc.call('POST', `/stream/0/users/${alice.user.id}/report`, { token: bob.token })).status, 200, 'again, by id: no error')
  const [report, ...more] = await svc.domain.reports.list()
  t.same(more, [], 'one report per reporter and account')
  t.match(report, {
    kind: 'user',
    user_id: Number(alice.user.id),
    post_id: null,
    message_id: null,
    author: 'alice',
    reporter: 'bob',
    reason: 'a spam account',
    content: { text: 'follow me for deals', name: 'Alice' },
  })
  const own = await svc.call('POST', '/stream/0/users/me/report', { token: bob.token })
  t.equal(own.status, 400)
  t.match(own.body.meta.error_message, /cannot report your own account/)
  t.equal((await svc.call('POST', '/stream/0/users/@nobody/report', { token: bob.token })).status, 404)

  await svc.domain.users.moderation.suspend(Number(alice.user.id))
  t.same(await svc.domain.reports.list(), [], 'suspending the account resolved its report')
  t.match((await svc.domain.reports.list({ all: true }))[0], { resolution: 'account suspended', resolved_at: String })
})

t.test('bob reports a private message of alice: kept with its text, only by someone who reads the channel, and removing it resolves it', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const sent = await svc.call('POST', '/stream/0/channels/pm/messages', {
    token: alice.token,
    payload: { text: 'send me your password', destinations: ['@bob'] },
  })
  t.equal(sent.status, 200)
  const { id, channel_id } = sent.body.data
  const path = `/stream/0/channels/${channel_id}/messages/${id}/report`
  const outsider = await svc.call('POST', path, { token: carol.token })
  t.equal(outsider.status, 404, 'carol cannot read the channel, so she cannot report its messages')
  t.equal((await svc.call('POST', path, { token: alice.token })).status, 400, 'nor can alice report her own')
  const reported = await svc.call('POST', path, { token: bob.token, payload: { reason: 'phishing' } })
  t.equal(reported.status, 200)
  t.match(reported.body.data, { id, channel_id, text: 'send me your password' }, 'the message is answered')
  const users = await svc.call('GET', '/stream/0/users/me/muted', { token: bob.token })
  t.same(users.body.data, [], 'a message report mutes nobody')
  const [report] = await svc.domain.reports.list()
  t.match(report, { kind: 'message', message_id: Number(id), channel_id: Number(channel_id), post_id: null, author: 'alice', reason: 'phishing' })

  await svc.domain.users.moderation.removeMessage(Number(id), 'phishing')
  t.same(await svc.domain.reports.list(), [], 'removing the message resolved the report')
  const [kept] = await svc.domain.reports.list({ all: true })
  t.match(kept, { content: { text: 'send me your password' }, resolution: 'message removed: phishing' }, 'its text is kept for the operator')
  t.equal((await svc.call('POST', path, { token: bob.token })).status, 404, 'a removed message cannot be reported')
})
