import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

const rollouts = {
  name: 'Posts about rollouts',
  match_policy: 'include_any',
  clauses: [{ object_type: 'post', operator: 'matches', field: '/data/entities/hashtags/*/name', value: 'rollout' }],
}
const form = { 'content-type': 'application/x-www-form-urlencoded' }

t.test('alice creates a filter from JSON and reads it back, under /stream/0 and at the root', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/stream/0/filters', { token: alice.token, payload: rollouts })
  t.equal(made.status, 200)
  t.match(made.body.data, { id: /^\d+$/, name: 'Posts about rollouts', match_policy: 'include_any' })
  t.same(made.body.data.clauses, rollouts.clauses)
  t.equal(made.body.data.owner.id, String(alice.user.id))
  t.equal(made.body.data.owner.username, 'alice')
  const id = made.body.data.id
  for (const path of [`/stream/0/filters/${id}`, `/filters/${id}`]) {
    const read = await svc.call('GET', path, { token: alice.token })
    t.equal(read.status, 200, path)
    t.same(read.body.data, made.body.data, `${path} answers the same filter`)
  }
  const list = await svc.call('GET', '/stream/0/filters', { token: alice.token })
  t.same(list.body.data, [made.body.data])
})

t.test('only name, match_policy and clauses are read: an id or owner sent along is ignored', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = await svc.call('POST', '/filters', {
    token: alice.token,
    payload: { ...rollouts, id: '999', owner: { id: String(bob.user.id) }, clauses: [{ ...rollouts.clauses[0], extra: 1 }], name: undefined },
  })
  t.equal(made.status, 200)
  t.not(made.body.data.id, '999')
  t.equal(made.body.data.owner.username, 'alice')
  t.notOk('name' in made.body.data, 'no name, none shown')
  t.same(made.body.data.clauses, rollouts.clauses, 'a clause keeps its four fields only')
})

t.test('a form-encoded body with bracketed keys makes the same filter as JSON (AppDotNetPHP)', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const body = [
    'name=From+PHP',
    'match_policy=include_all',
    'clauses[0][object_type]=post',
    'clauses[0][field]=/data/text',
    'clauses[0][operator]=matches',
    'clauses[0][value]=hello',
    'clauses[1][object_type]=post',
    'clauses[1][field]=/data/num_stars',
    'clauses[1][operator]=gt',
    'clauses[1][value]=5',
    'clauses[2][object_type]=post',
    'clauses[2][field]=%2Fdata%2Fuser%2Fid',
    'clauses[2][operator]=one_of',
    'clauses[2][value][0]=1',
    'clauses[2][value][1]=2',
    'clauses[3][object_type]=post',
    'clauses[3][field]=/data/user/id',
    'clauses[3][operator]=one_of',
    'clauses[3][value]=%24authorized_userids',
  ].join('&')
  const made = await svc.call('POST', '/stream/0/filters', { token: alice.token, headers: form, payload: body })
  t.equal(made.status, 200, JSON.stringify(made.body.meta))
  t.equal(made.body.data.name, 'From PHP')
  t.equal(made.body.data.match_policy, 'include_all')
  t.same(made.body.data.clauses, [
    { object_type: 'post', field: '/data/text', operator: 'matches', value: 'hello' },
    { object_type: 'post', field: '/data/num_stars', operator: 'gt', value: '5' },
    { object_type: 'post', field: '/data/user/id', operator: 'one_of', value: ['1', '2'] },
    { object_type: 'post', field: '/data/user/id', operator: 'one_of', value: '$authorized_userids' },
  ])
  const token = await svc.call('POST', '/filters', {
    headers: form,
    payload: `access_token=${alice.token}&match_policy=exclude_any&clauses[][object_type]=star&clauses[0][field]=/data/user/id&clauses[0][operator]=equals&clauses[0][value]=3`,
  })
  t.equal(token.status, 200, 'the token may travel in the form body too')
  t.same(token.body.data.clauses, [{ object_type: 'star', field: '/data/user/id', operator: 'equals', value: '3' }])
  const replaced = await svc.call('PUT', `/filters/${made.body.data.id}`, {
    token: alice.token,
    headers: form,
    payload: 'match_policy=include_any&clauses[0][object_type]=message&clauses[0][field]=/meta/channel_id&clauses[0][operator]=equals&clauses[0][value]=7',
  })
  t.equal(replaced.status, 200)
  t.same(replaced.body.data.clauses, [{ object_type: 'message', field: '/meta/channel_id', operator: 'equals', value: '7' }])
})

t.test('a plain form body still reads as before: posts made from a form are unchanged', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = await svc.call('POST', '/stream/0/posts', { token: alice.token, headers: form, payload: 'text=hello+%5Bworld%5D' })
  t.equal(made.status, 200)
  t.equal(made.body.data.text, 'hello [world]', 'brackets in a value are text, not nesting')
})

t.test('PUT replaces the whole filter and keeps its id', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = (await svc.call('POST', '/filters', { token: alice.token, payload: rollouts })).body.data
  const next = { match_policy: 'exclude_all', clauses: [{ object_type: 'star', operator: 'one_of', field: '/data/user/id', value: [1, '2'] }] }
  const put = await svc.call('PUT', `/stream/0/filters/${made.id}`, { token: alice.token, payload: next })
  t.equal(put.status, 200)
  t.equal(put.body.data.id, made.id)
  t.notOk('name' in put.body.data, 'the name left out is gone')
  t.equal(put.body.data.match_policy, 'exclude_all')
  t.same(put.body.data.clauses, next.clauses, 'values as given')
  t.same((await svc.call('GET', `/filters/${made.id}`, { token: alice.token })).body.data, put.body.data)
})

t.test('DELETE answers the deleted filter, and DELETE /filters the list of them', async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const make = async (token: string, name: string) => (await svc.call('POST', '/filters', { token, payload: { ...rollouts, name } })).body.data
  const one = await make(alice.token, 'one')
  const two = await make(alice.token, 'two')
  const three = await make(alice.token, 'three')
  const bobs = await make(bob.token, 'bobs')
  const gone = await svc.call('DELETE', `/stream/0/filters/${one.id}`, { token: alice.token })
  t.equal(gone.status, 200)
  t.same(gone.body.data, one)
  t.equal((await svc.call('GET', `/filters/${one.id}`, { token: alice.token })).status, 404)
  t.equal((await svc.call('DELETE', `/filters/${one.id}`, { token: alice.token })).status, 404, 'deleting twice finds nothing')
  const all = await svc.call('DELETE', '/stream/0/filters', { token: alice.token })
  t.equal(all.status, 200)
  t.same(all.body.data, [two, three])
  t.same((await svc.call('GET', '/filters', { token: alice.token })).body.data, [])
  t.same((await svc.call('DELETE', '/filters', { token: alice.token })).body.data, [], 'nothing left to delete')
  t.same((await svc.call('GET', '/filters', { token: bob.token })).body.data, [bobs], "bob's filter is untouched")
})

t.test("another user's filter is a 404 on every route that names it", async (t) => {
  const svc = await makeInstance(t)
  const [alice, bob] = await svc.people('alice', 'bob')
  const made = (await svc.call('POST', '/filters', { token: alice.token, payload: rollouts })).body.data
  for (const [method, payload] of [['GET'], ['PUT', rollouts], ['DELETE']] as const) {
    const res = await svc.call(method, `/filters/${made.id}`, { token: bob.token, payload })
    t.equal(res.status, 404, method)
    t.equal(res.body.meta.code, 404)
    t.match(res.body.meta.error_message, `filter ${made.id} not found`)
  }
  t.same((await svc.call('GET', `/filters/${made.id}`, { token: alice.token })).body.data, made, 'still alice’s, unchanged')
  t.equal((await svc.call('GET', '/filters/424242', { token: alice.token })).status, 404)
})

t.test('an app token and no token are refused the way other user-only routes refuse them', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const made = (await svc.call('POST', '/filters', { token: alice.token, payload: rollouts })).body.data
  const reference = await svc.call('GET', '/users/me/interactions', { token: svc.appToken })
  for (const [method, path, payload] of [
    ['POST', '/filters', rollouts],
    ['GET', '/filters'],
    ['DELETE', '/filters'],
    ['GET', `/filters/${made.id}`],
    ['PUT', `/filters/${made.id}`, rollouts],
    ['DELETE', `/filters/${made.id}`],
  ] as const) {
    const app = await svc.call(method, path, { token: svc.appToken, payload })
    t.equal(app.status, reference.status, `${method} ${path} with an app token`)
    t.equal(app.body.meta.error_slug, reference.body.meta.error_slug)
    t.equal(app.body.meta.error_message, reference.body.meta.error_message)
    t.equal((await svc.call(method, path, { payload })).status, 401, `${method} ${path} without a token`)
  }
  t.equal(reference.status, 403)
  t.same((await svc.call('GET', '/filters', { token: alice.token })).body.data, [made], 'nothing was deleted')
})

t.test('bad input is a 400 that names the problem', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const clause = rollouts.clauses[0]
  const cases: [string, unknown, RegExp][] = [
    ['no body', undefined, /^Bad Request: /],
    ['no clauses', { match_policy: 'include_any' }, /clauses is required/],
    ['clauses not a list', { match_policy: 'include_any', clauses: 'post' }, /clauses must be an array/],
    ['an empty list of clauses', { match_policy: 'include_any', clauses: [] }, /clauses must be a non-empty list/],
    ['no policy', { clauses: [clause] }, /match_policy is required/],
    ['an unknown policy', { ...rollouts, match_policy: 'any' }, /match_policy must be one of include_any, include_all, exclude_any, exclude_all/],
    ['an unknown operator', { ...rollouts, clauses: [clause, { ...clause, operator: 'contains' }] }, /clauses\[1\]\.operator must be one of equals, matches/],
    ['an unknown object type', { ...rollouts, clauses: [{ ...clause, object_type: 'posts' }] }, /clauses\[0\]\.object_type must be one of post, star/],
    ['a field that is no pointer', { ...rollouts, clauses: [{ ...clause, field: 'data.text' }] }, /clauses\[0\]\.field must be a JSON Pointer/],
    [
      'a text bound for gt',
      { ...rollouts, clauses: [{ ...clause, operator: 'gt', value: 'x' }] },
      /clauses\[0\]\.value must be an integer for the operator gt/,
    ],
    ['a scalar for one_of', { ...rollouts, clauses: [{ ...clause, operator: 'one_of', value: 'x' }] }, /clauses\[0\]\.value must be a list/],
    [
      '$authorized_userids with equals',
      { ...rollouts, clauses: [{ ...clause, operator: 'equals', value: '$authorized_userids' }] },
      /only be used with the operator one_of/,
    ],
    ['an object value', { ...rollouts, clauses: [{ ...clause, value: { a: 1 } }] }, /clauses\[0\]\.value/],
    ['a clause without a field', { ...rollouts, clauses: [{ object_type: 'post', operator: 'equals', value: 'x' }] }, /clauses\[0\]\.field is required/],
  ]
  for (const [what, payload, message] of cases) {
    const res = await svc.call('POST', '/filters', { token: alice.token, payload })
    t.equal(res.status, 400, what)
    t.equal(res.body.meta.code, 400)
    t.match(res.body.meta.error_message, /^Bad Request: /, `${what}: the envelope's message`)
    t.match(res.body.meta.error_message, message, what)
  }
  const badId = await svc.call('GET', '/filters/abc', { token: alice.token })
  t.equal(badId.status, 400)
  t.match(badId.body.meta.error_message, /filter_id must be a numeric id/)
  const badForm = await svc.call('POST', '/filters', {
    token: alice.token,
    headers: form,
    payload: 'match_policy=include_any&clauses[0][object_type]=post&clauses[0][field]=/data/text&clauses[0][operator]=lt&clauses[0][value]=soon',
  })
  t.equal(badForm.status, 400)
  t.match(badForm.body.meta.error_message, /clauses\[0\]\.value must be an integer for the operator lt/)
  const hostile = await svc.call('POST', '/filters', {
    token: alice.token,
    headers: form,
    payload: 'match_policy=include_any&clauses[999999999][object_type]=post&clauses[0][a][b][c][d][e][f][g]=x&__proto__[polluted]=1',
  })
  t.equal(hostile.status, 400, 'a hostile form body is refused, not expanded')
  t.match(hostile.body.meta.error_message, /clauses must be an array/)
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was touched')
  t.same((await svc.call('GET', '/filters', { token: alice.token })).body.data, [], 'nothing was saved')
})
