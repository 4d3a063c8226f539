import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { upload } from '../../fixtures/files.js'

t.test('a resolved file is stored with marks in place of its read token and addresses, and without its write token', async (t) => {
  const svc = await makeInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const file = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.notes' },
      { name: 'content', data: 'minutes', filename: 'minutes.txt', type: 'text/plain' },
    ])
  ).body.data
  const post = await svc.domain.posts.core.create(await svc.viewerOf(alice), {
    text: 'see',
    annotations: [{ type: 'com.example.doc', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'metadata' } } }],
  })
  const stored = JSON.stringify((await svc.store.read.posts.get(post.id))?.annotations)
  t.notOk(stored.includes(file.file_token), 'the write token is not stored')
  t.notOk(stored.includes('+svc.core'), 'no replacement key is stored')
  t.notOk(stored.includes('sig='), 'no signed address is stored')
  const value = JSON.parse(stored)[0].value
  t.match(value.url, /^svc-file:/, 'the address waits for the time it is shown')
  t.match(value.file_token_read, /^svc-file:/, 'so does the read token')
  const shown = svc.domain.views.annotationRenderer.render(value, { baseUrl: 'https://svc.example', grant: { kind: 'p', id: post.id } })
  t.match(shown.url, /^https:\/\/svc\.example\/files-content\//)
  t.match(shown.file_token_read, new RegExp(`^p${post.id}\\.`))
})
