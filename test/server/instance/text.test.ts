import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('alice processes text and gets what a post would get, with nothing stored', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const res = await svc.call('POST', '/stream/0/text/process', { token: alice.token, payload: { text: '#awesome @Bob' } })
  t.equal(res.status, 200)
  t.same(res.body.data, {
    text: '#awesome @Bob',
    html: `<span itemscope="https://app.net/schemas/Post"><span data-hashtag-name="awesome" itemprop="hashtag">#awesome</span> <span data-mention-id="${bob.user.id}" data-mention-name="bob" itemprop="mention">@Bob</span></span>`,
    entities: { mentions: [{ pos: 9, len: 4, name: 'bob', id: String(bob.user.id) }], hashtags: [{ pos: 0, len: 8, name: 'awesome' }], links: [] },
  })
  t.equal(await svc.store.read.posts.size(), 0, 'no post was stored')
})

t.test('an app token may process text too, but no token is a 401', async (t) => {
  const svc = await makeInstance(t)
  t.equal((await svc.call('POST', '/text/process', { token: svc.appToken, payload: { text: 'hi app.net' } })).status, 200)
  t.equal((await svc.call('POST', '/text/process', { payload: { text: 'hi' } })).status, 401)
})

t.test('a form body with a text field works', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/text/process', {
    token: alice.token,
    payload: 'text=see%20app.net',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  t.equal(res.status, 200)
  t.same(res.body.data.entities.links, [{ pos: 4, len: 7, text: 'app.net', url: 'http://app.net' }])
})

t.test('user-given links are amended against phishing', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/text/process', {
    token: alice.token,
    payload: { text: 'I love this website!', entities: { links: [{ pos: 7, len: 12, url: 'https://alpha.app.net' }] } },
  })
  t.equal(res.body.data.text, 'I love this website [alpha.app.net]!')
  t.equal(res.body.data.entities.links[0].amended_len, 28)
  t.equal(res.body.data.html, '<span itemscope="https://app.net/schemas/Post">I love <a href="https://alpha.app.net">this website</a> [alpha.app.net]!</span>')
})

t.test('markdown links are converted when asked', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('POST', '/text/process', {
    token: alice.token,
    payload: { text: '[App.net](https://app.net)', entities: { parse_markdown_links: true } },
  })
  t.same(res.body.data.entities.links, [{ pos: 0, len: 7, text: 'App.net', url: 'https://app.net' }])
  t.equal(res.body.data.text, 'App.net')
})

t.test('over-long, empty or missing text is a 400 that says why', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const long = await svc.call('POST', '/text/process', { token: alice.token, payload: { text: 'a'.repeat(257) } })
  t.equal(long.status, 400)
  t.equal(long.body.meta.error_message, 'Bad Request: text is longer than 256 characters')
  for (const payload of [{ text: '' }, {}, { text: 42 }]) {
    const res = await svc.call('POST', '/text/process', { token: alice.token, payload })
    t.equal(res.status, 400, JSON.stringify(payload))
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
})

t.test('bad entities are a 400, never a 500', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const bad = [
    { links: [{ pos: 0, len: 50, url: 'http://example.com' }] },
    { links: [{ pos: 0, len: 2, url: 'javascript:alert(1)' }] },
    { links: 'nope' },
    { mentions: [{ name: 'alice' }] },
    { parse_links: 'maybe' },
  ]
  for (const entities of bad) {
    const res = await svc.call('POST', '/text/process', { token: alice.token, payload: { text: 'hello', entities } })
    t.equal(res.status, 400, JSON.stringify(entities))
  }
})
