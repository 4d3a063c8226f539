/** A broadcast channel's fallback_url and its messages', opened in a browser. */
import t from 'tap'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'

const broadcast = async (svc: Instance, owner: Person, body: Record<string, unknown> = {}) =>
  (
    await svc.call('POST', '/channels?include_channel_annotations=1', {
      token: owner.token,
      payload: { type: 'svc.core.broadcast', readers: { public: true }, ...body },
    })
  ).body.data

const send = async (svc: Instance, who: Person, channel: string, payload: Record<string, unknown>) =>
  (await svc.call('POST', `/channels/${channel}/messages?include_annotations=1`, { token: who.token, payload })).body.data

const fallbackUrl = (o: { annotations: { type: string; value: { url: string } }[] }): string =>
  o.annotations.find((a) => a.type === 'svc.core.fallback_url')!.value.url

const page = (svc: Instance, url: string) => svc.server.inject(new URL(url).pathname + new URL(url).search)

const metadata = (title: string, description?: string) => [
  { type: 'svc.core.broadcast.metadata', value: { title, ...(description === undefined ? {} : { description }) } },
]
const subject = (text: string) => [{ type: 'svc.core.broadcast.message.metadata', value: { subject: text } }]

t.test('the fallback URLs the API hands out answer the channel page and the message page', async (t) => {
  const svc = await makeInstance(t, { public_url: 'https://svc.example' })
  const alice = await svc.person('alice')
  const news = await broadcast(svc, alice, { annotations: metadata('Tea news', 'Weekly, about tea') })
  const code = Number(news.id).toString(36)
  t.equal(fallbackUrl(news), `https://svc.example/c/${code}`)
  const first = await send(svc, alice, news.id, { text: 'Issue one is about #green tea', annotations: subject('First issue') })
  const second = await send(svc, alice, news.id, { text: 'no subject here' })
  const firstUrl = `https://svc.example/c/${code}/m/${Number(first.id).toString(36)}`
  const secondUrl = `https://svc.example/c/${code}/m/${Number(second.id).toString(36)}`
  t.equal(fallbackUrl(first), firstUrl)

  const res = await page(svc, fallbackUrl(news))
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(res.headers['content-security-policy'], "default-src 'none'; img-src https://svc.example; style-src 'unsafe-inline'; frame-ancestors 'none'")
  t.match(res.payload, /<title>Tea news<\/title>/)
  t.match(res.payload, new RegExp(`<h1><a href="https://svc\\.example/c/${code}">Tea news</a></h1><p>Weekly, about tea</p>`))
  const secondAt = res.payload.indexOf(`<a href="${secondUrl}"><strong>Message</strong></a>`)
  const firstAt = res.payload.indexOf(`<a href="${firstUrl}"><strong>First issue</strong></a>`)
  t.ok(secondAt > 0 && firstAt > secondAt, 'each message links to its page, newest first')
  t.ok(res.payload.includes(`<p>${first.html}</p>`), 'the message html as the API gives it')
  t.notMatch(res.payload, /Older messages/, 'two messages fit one page')

  const one = await page(svc, fallbackUrl(first))
  t.equal(one.statusCode, 200)
  t.equal(one.headers['content-type'], 'text/html; charset=utf-8')
  t.match(one.payload, /<title>First issue · Tea news<\/title>/)
  t.match(one.payload, new RegExp(`<p class="muted"><a href="https://svc\\.example/c/${code}">Tea news</a></p><h1>First issue</h1>`))
  t.match(one.payload, /<a href="https:\/\/svc\.example\/@alice"><strong>Alice<\/strong><\/a>/)
  t.ok(one.payload.includes(`<time datetime="${first.created_at}">`))
  t.ok(one.payload.includes(`<p>${first.html}</p>`))
  const plain = await page(svc, secondUrl)
  t.match(plain.payload, /<title>Tea news<\/title>/, 'no subject: the channel title')
  t.notMatch(plain.payload, /<h1>/)
})

t.test('20 messages a page, newest first, with a link to older ones by before_id', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const news = await broadcast(svc, alice)
  const code = Number(news.id).toString(36)
  const sent = []
  for (let i = 1; i <= 21; i++) sent.push(await send(svc, alice, news.id, { text: `issue ${i}` }))
  const res = await svc.server.inject(`/c/${code}`)
  t.match(res.payload, /<title>Broadcast<\/title>/, 'no metadata: a plain title')
  const texts = (html: string) => [...html.matchAll(/>(issue \d+)</g)].map((m) => m[1])
  t.same(
    texts(res.payload),
    Array.from({ length: 20 }, (_, n) => `issue ${21 - n}`),
  )
  const older = `http://127.0.0.1:0/c/${code}?before_id=${sent[1].id}`
  t.ok(res.payload.includes(`<a href="${older}" rel="next">Older messages</a>`))
  const next = await page(svc, older)
  t.equal(next.statusCode, 200)
  t.same(texts(next.payload), ['issue 1'])
  t.notMatch(next.payload, /Older messages/)
  t.equal((await svc.server.inject(`/c/${code}?before_id=soon`)).statusCode, 400)
})

t.test('a title, description, subject, text and author name holding markup are shown as text', async (t) => {
  const svc = await makeInstance(t)
  const mallory = await svc.person('mallory')
  await svc.call('PATCH', '/users/me', { token: mallory.token, payload: { name: '<script>alert(1)</script>' } })
  const news = await broadcast(svc, mallory, { annotations: metadata('<script>t</script>', '<script>d</script>') })
  const m = await send(svc, mallory, news.id, { text: '<script>x</script>', annotations: subject('<script>s</script>') })
  const code = Number(news.id).toString(36)
  for (const url of [`/c/${code}`, `/c/${code}/m/${Number(m.id).toString(36)}`]) {
    const res = await svc.server.inject(url)
    t.equal(res.statusCode, 200)
    t.notMatch(res.payload, /<script/, url)
    t.match(res.payload, /&lt;script&gt;t&lt;\/script&gt;/)
    t.match(res.payload, /&lt;script&gt;s&lt;\/script&gt;/)
    t.match(res.payload, /&lt;script&gt;x&lt;\/script&gt;/)
    t.match(res.payload, /<strong>&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/strong>/)
  }
  t.match((await svc.server.inject(`/c/${code}`)).payload, /<p>&lt;script&gt;d&lt;\/script&gt;<\/p>/)
})

t.test('channels nobody signed out may read, inactive ones, other kinds, unknown codes and deleted messages answer a 404 page', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const news = await broadcast(svc, alice)
  const gone = await send(svc, alice, news.id, { text: 'oops' })
  await svc.call('DELETE', `/channels/${news.id}/messages/${gone.id}`, { token: alice.token })
  const machine = await send(svc, alice, news.id, { machine_only: true, annotations: [{ type: 'com.example.x', value: { a: 1 } }] })
  const kept = await send(svc, alice, news.id, { text: 'kept' })
  const members = await broadcast(svc, alice, { readers: { any_user: true } })
  const chat = (await svc.call('POST', '/channels', { token: alice.token, payload: { type: 'com.example.chat', readers: { public: true } } })).body.data
  const chatMessage = await send(svc, alice, chat.id, { text: 'hi' })
  const closed = await broadcast(svc, alice)
  const closedMessage = await send(svc, alice, closed.id, { text: 'bye' })
  await svc.call('DELETE', `/channels/${closed.id}`, { token: alice.token })
  const c36 = (id: string) => Number(id).toString(36)

  const listed = await svc.server.inject(`/c/${c36(news.id)}`)
  t.notMatch(listed.payload, /oops/, 'a deleted message is not listed')
  t.equal([...listed.payload.matchAll(/<li>/g)].length, 1, 'nor a machine-only one')
  t.equal((await svc.server.inject(`/c/${c36(news.id)}/m/${c36(kept.id)}`)).statusCode, 200)
  for (const url of [
    `/c/${c36(news.id)}/m/${c36(gone.id)}`,
    `/c/${c36(news.id)}/m/${c36(machine.id)}`,
    `/c/${c36(news.id)}/m/${c36(chatMessage.id)}`,
    `/c/${c36(members.id)}`,
    `/c/${c36(chat.id)}`,
    `/c/${c36(chat.id)}/m/${c36(chatMessage.id)}`,
    `/c/${c36(closed.id)}`,
    `/c/${c36(closed.id)}/m/${c36(closedMessage.id)}`,
    '/c/zzzz',
  ]) {
    const res = await svc.server.inject(url)
    t.equal(res.statusCode, 404, url)
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    t.match(res.payload, /<h1>Not found<\/h1>/)
  }
  t.equal((await svc.server.inject('/c/no-such')).statusCode, 400)
})
