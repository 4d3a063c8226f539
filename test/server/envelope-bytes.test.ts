/**
 * The envelope written as bytes: the same text `serialize` writes, whether
 * the data is one kept JSON text, several, or plain values.
 */
import t from 'tap'
import { serialize, serializeToBytes, type Envelope } from '../../server/envelope.js'
import { RawJson } from '../../server/json-text.js'
import { makeInstance } from '../fixtures/instance.js'

const bodies: [string, Envelope][] = [
  ['one raw text', { data: new RawJson('{"text":"café ☕ 🚂","n":1}'), meta: { code: 200, marker: { name: 'a\u0000b ☕' } } }],
  ['meta first', { meta: { code: 200, more: true }, data: new RawJson('[]') }],
  ['raw items', { data: [new RawJson('{"id":"1"}'), new RawJson('{"id":"2","t":"ü"}')], meta: { code: 200 } }],
  ['plain values', { data: { text: 'naïve \u0000' }, meta: { code: 200 } }],
  ['no data', { meta: { code: 404, error_message: 'Not found' } }],
]

t.test('each body as bytes is its serialized text in UTF-8', async (t) => {
  for (const [label, body] of bodies) {
    const bytes = serializeToBytes(body)
    t.ok(Buffer.isBuffer(bytes), label)
    t.equal(bytes.toString('utf8'), serialize(body), label)
    t.same(JSON.parse(bytes.toString('utf8')), JSON.parse(serialize(body)), label)
  }
})

t.test('one raw text in the same envelope again is the same bytes; in another, its own', async (t) => {
  const data = new RawJson('{"text":"☕"}')
  const first = serializeToBytes({ data, meta: { code: 200, min_id: '1' } })
  t.equal(serializeToBytes({ data, meta: { code: 200, min_id: '1' } }), first, 'the same buffer, not a copy')
  const other = serializeToBytes({ data, meta: { code: 200, subscription_id: 'abc' } as Envelope['meta'] })
  t.equal(other.toString(), '{"data":{"text":"☕"},"meta":{"code":200,"subscription_id":"abc"}}')
  t.equal(first.toString(), '{"data":{"text":"☕"},"meta":{"code":200,"min_id":"1"}}', 'a buffer handed out earlier is left as it was')
  t.equal(serializeToBytes({ data, meta: { code: 200, min_id: '1' } }).toString(), first.toString(), 'the first envelope again')
})

t.test('a kept answer is served again byte for byte, with its length', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  await svc.call('POST', '/posts', { token: alice.token, payload: { text: 'déjà vu ☕' } })
  const answers = []
  for (let i = 0; i < 2; i++) {
    const res = await svc.server.inject({ method: 'GET', url: '/stream/0/posts/stream/unified', headers: { authorization: `Bearer ${alice.token}` } })
    t.equal(res.statusCode, 200)
    t.equal(Number(res.headers['content-length']), res.rawPayload.length)
    t.match(res.headers['content-type'], 'application/json; charset=utf-8')
    answers.push(res.rawPayload)
  }
  t.ok(answers[0].equals(answers[1]), 'the second answer is the first')
  t.equal(JSON.parse(answers[1].toString()).data[0].text, 'déjà vu ☕')
})
