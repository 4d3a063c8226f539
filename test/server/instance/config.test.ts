import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

const expected = {
  text: { uri_template_length: { post_id: 9, message_id: 12 } },
  user: { annotation_max_bytes: 8192, text_max_length: 256 },
  file: { annotation_max_bytes: 8192 },
  post: { annotation_max_bytes: 8192, text_max_length: 256 },
  message: { annotation_max_bytes: 8192, text_max_length: 2048 },
  channel: { annotation_max_bytes: 8192 },
}

t.test('anyone gets the configuration document without a token, at both mounts', async (t) => {
  const svc = await makeInstance(t)
  for (const url of ['/stream/0/config', '/config']) {
    const res = await svc.call('GET', url)
    t.equal(res.status, 200, url)
    t.same(res.body.data, expected)
    t.equal(res.body.meta.code, 200)
  }
})

t.test('the advertised limits are the ones enforced', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { body } = await svc.call('GET', '/config', { token: alice.token })
  const atLimit = await svc.call('POST', '/text/process', { token: alice.token, payload: { text: 'x'.repeat(body.data.post.text_max_length) } })
  const over = await svc.call('POST', '/text/process', { token: alice.token, payload: { text: 'x'.repeat(body.data.post.text_max_length + 1) } })
  t.equal(atLimit.status, 200)
  t.equal(over.status, 400)
})

t.test('unknown query parameters are ignored', async (t) => {
  const svc = await makeInstance(t)
  const plain = await svc.call('GET', '/config')
  const extra = await svc.call('GET', '/config?bogus=1')
  t.equal(extra.status, 200)
  t.same(extra.body, plain.body)
})
