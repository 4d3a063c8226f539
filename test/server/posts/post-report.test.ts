/** `POST /posts/{post_id}/report`: a user reports a post to the operator, who reads what it said even after it is deleted. */
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
