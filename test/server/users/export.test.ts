/**
 * Alice downloads her data: a ZIP of API objects, each as the API shows it
 * to her, with her files' bytes, and nothing of anyone else's she cannot
 * see, nor any secret.
 */
import { createHash } from 'node:crypto'
import { unlink } from 'node:fs/promises'
import t, { type Test } from 'tap'
import yauzl from 'yauzl'
import { upload } from '../../fixtures/files.js'
import { flatImage } from '../../fixtures/images.js'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { openChannel, sendMessage } from '../../fixtures/channels.js'
import { post } from '../../fixtures/posts.js'

/** Every entry of a ZIP, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, archive) => {
      if (err) return reject(err)
      const entries = new Map<string, Buffer>()
      archive.on('error', reject)
      archive.on('end', () => resolve(entries))
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (err, stream) => {
          if (err) return reject(err)
          const chunks: Buffer[] = []
          stream.on('data', (c: Buffer) => chunks.push(c))
          stream.on('error', reject)
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks))
            archive.readEntry()
          })
        })
      })
      archive.readEntry()
    })
  })
}

const sha1 = (data: Buffer): string => createHash('sha1').update(data).digest('hex')
const json = (entries: Map<string, Buffer>, name: string): any => JSON.parse(entries.get(name)?.toString('utf8') ?? 'null')
const ids = (list: { id: string }[]): string[] => list.map((o) => o.id)

/** What the API answers `who` at `path`. */
const api = async (svc: Instance, who: Person, path: string) => {
  const res = await svc.call('GET', `/stream/0${path}`, { token: who.token })
  return res.body.data
}

async function story(t: Test) {
  const svc = await makeInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const photo = await flatImage(64, 48)
  const file = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.photo' },
      { name: 'content', data: photo, filename: 'cat.png', type: 'image/png' },
    ])
  ).body.data
  const notes = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.notes' },
      { name: 'content', data: 'my notes', filename: '../secret/notes.txt', type: 'text/plain' },
    ])
  ).body.data
  // A name is any text: the archive must keep it one name, not a path.
  await svc.call('PATCH', `/stream/0/files/${notes.id}`, { token: alice.token, payload: { name: '../secret/notes.txt' } })
  const hello = await post(svc, alice, { text: 'hello world' })
  const withPhoto = await post(svc, alice, {
    text: 'my cat',
    annotations: [{ type: 'svc.core.oembed', value: { '+svc.core.file': { file_id: file.id, file_token: file.file_token, format: 'oembed' } } }],
  })
  const bobs = await post(svc, bob, { text: 'bob here' })
  const reply = await post(svc, alice, { text: '@bob hi bob', reply_to: bobs.id })
  const repost = (await svc.call('POST', `/stream/0/posts/${bobs.id}/repost`, { token: alice.token })).body.data
  await svc.call('POST', `/stream/0/posts/${bobs.id}/star`, { token: alice.token })
  for (const [who, whom] of [
    [alice, bob],
    [bob, alice],
    [carol, alice],
  ] as const)
    await svc.call('POST', `/stream/0/users/${whom.user.id}/follow`, { token: who.token })
  const pm = (await svc.call('POST', '/stream/0/channels/pm/messages', { token: alice.token, payload: { text: 'psst bob', destinations: ['@bob'] } })).body.data
  await sendMessage(svc, bob, pm.channel_id, { text: 'psst alice' })
  const chat = await openChannel(svc, alice)
  await sendMessage(svc, alice, chat.id, { text: 'in my channel' })
  // Bob and carol talk where alice is not.
  const theirs = (
    await svc.call('POST', '/stream/0/channels/pm/messages', { token: bob.token, payload: { text: 'carol, a secret', destinations: ['@carol'] } })
  ).body.data
  return { svc, alice, bob, carol, photo, file, notes, hello, withPhoto, bobs, reply, repost, pm, chat, theirs }
}

t.test('alice downloads her data as a ZIP of the API’s own objects, her files’ bytes among them', async (t) => {
  const { svc, alice, bob, carol, photo, file, notes, hello, withPhoto, bobs, reply, repost, pm, chat, theirs } = await story(t)
  const res = await svc.server.inject({ method: 'GET', url: '/stream/0/users/me/export', headers: alice.auth })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/zip')
  t.match(String(res.headers['content-disposition']), /^attachment; filename="svc-export-alice-\d{4}-\d{2}-\d{2}\.zip"$/)
  const entries = await unzip(res.rawPayload)

  const readme = entries.get('README.txt')?.toString('utf8') ?? ''
  t.match(readme, /The data of @alice on http/)
  t.match(readme, /exported \d{4}-\d{2}-\d{2}T/)
  for (const name of ['profile.json', 'posts.json', 'stars.json', 'following.json', 'followers.json', 'channels.json', 'files.json', 'markers.json'])
    t.match(readme, name, `the README says what ${name} holds`)

  t.same(json(entries, 'profile.json'), await api(svc, alice, '/users/me?include_annotations=1'), 'her profile, as /users/me shows it')

  const posts = json(entries, 'posts.json')
  t.same(ids(posts), [hello.id, withPhoto.id, reply.id, repost.id], 'every post, replies and reposts too, oldest first')
  for (const exported of posts)
    t.same(exported, await api(svc, alice, `/posts/${exported.id}?include_annotations=1`), `post ${exported.id} as the API shows it`)
  t.equal(posts[3].repost_of.id, bobs.id)

  const stars = json(entries, 'stars.json')
  t.same(ids(stars), [bobs.id])
  t.same(stars[0], await api(svc, alice, `/posts/${bobs.id}?include_annotations=1`))

  t.same(ids(json(entries, 'following.json')), [String(bob.user.id)])
  t.same(ids(json(entries, 'followers.json')).sort(), [String(bob.user.id), String(carol.user.id)].sort(), 'bob and carol follow her')
  t.same(json(entries, 'following.json')[0], await api(svc, alice, `/users/${bob.user.id}?include_annotations=1`), 'people as the API shows them to her')
  t.same(json(entries, 'muted.json'), [])
  t.same(json(entries, 'blocked.json'), [])

  const channels = json(entries, 'channels.json')
  t.same(ids(channels), [pm.channel_id, chat.id], 'her conversation with bob and her own channel; not bob and carol’s')
  t.same(channels[0], await api(svc, alice, `/channels/${pm.channel_id}?include_annotations=1`))
  const pmMessages = json(entries, `messages/${pm.channel_id}.json`)
  t.same(
    pmMessages.map((m: { text: string }) => m.text),
    ['psst bob', 'psst alice'],
    'both sides of the conversation, oldest first',
  )
  t.same(pmMessages[1], await api(svc, alice, `/channels/${pm.channel_id}/messages/${pmMessages[1].id}?include_annotations=1`), 'as the API shows it')
  t.same(
    json(entries, `messages/${chat.id}.json`).map((m: { text: string }) => m.text),
    ['in my channel'],
  )
  t.notOk(entries.has(`messages/${theirs.channel_id}.json`), 'no channel she is not in')

  const files = json(entries, 'files.json')
  t.same(ids(files), [file.id, notes.id])
  const listed = await api(svc, alice, '/users/me/files?include_annotations=1')
  const unpaged = ({ pagination_id: _, ...file }: Record<string, unknown>) => file
  t.same(files, [...listed].reverse().map(unpaged), 'her files as /users/me/files lists them')
  t.equal(sha1(entries.get(`files/${file.id}-cat.png`) ?? Buffer.alloc(0)), sha1(photo), 'the photo’s bytes')
  t.equal(entries.get(`files/${notes.id}-.._secret_notes.txt`)?.toString('utf8'), 'my notes', 'a name that is a path stays one name')
  t.same(
    [...entries.keys()].filter((name) => name.split('/').some((segment) => segment === '..' || segment === '')),
    [],
  )

  const everything = res.rawPayload.toString('latin1') + [...entries.values()].map((b) => b.toString('latin1')).join('')
  t.notOk(everything.includes('carol, a secret'), 'nobody else’s private message')
  t.notOk(everything.includes(alice.token), 'no token')
  const row = await svc.domain.users.accounts.get(alice.user.id)
  t.ok(row?.password_hash, 'alice has a password hash')
  t.notOk(everything.includes(String(row?.password_hash)), 'no password hash')
  t.notOk(everything.includes(file.file_token), 'no file token')
})

t.test('the export needs a user token with the export scope', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice', { scopes: ['basic', 'stream', 'messages', 'files'] })
  const scoped = await svc.call('GET', '/stream/0/users/me/export', { token: alice.token })
  t.equal(scoped.status, 403)
  t.equal(scoped.body.meta.error_slug, 'insufficient-scope')
  t.match(scoped.body.meta.error_message, /export/)
  const none = await svc.call('GET', '/stream/0/users/me/export')
  t.equal(none.status, 401)
  t.match(none.body.meta.error_message, /requires authentication/)
  t.equal((await svc.call('GET', '/stream/0/users/me/export', { token: svc.appToken })).status, 403, 'an app token')
})

t.test('an export counts against the token’s write bucket too: a heavy read', async (t) => {
  const svc = await makeInstance(t, { rate_limits: { enabled: true, write: { limit: 2, window_s: 60 } } })
  const alice = await svc.person('alice')
  const statuses = []
  for (let i = 0; i < 3; i++) statuses.push((await svc.server.inject({ method: 'GET', url: '/stream/0/users/me/export', headers: alice.auth })).statusCode)
  t.same(statuses, [200, 200, 429])
  t.equal((await svc.call('GET', '/stream/0/users/me', { token: alice.token })).status, 200, 'other reads go on')
})

t.test('a file whose bytes are gone from disk breaks the download instead of ending it as if complete', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const file = (
    await upload(svc, alice.token, [
      { name: 'type', data: 'com.example.notes' },
      { name: 'content', data: 'my notes', filename: 'notes.txt', type: 'text/plain' },
    ])
  ).body.data
  const row = await svc.store.read.files.get(Number(file.id))
  await unlink(svc.domain.files.bytes.pathOf(row?.content?.stored ?? '') ?? '')
  const outcome = await svc.server.inject({ method: 'GET', url: '/stream/0/users/me/export', headers: alice.auth }).then(
    (res) => `answered ${res.statusCode} with ${res.rawPayload.length} bytes`,
    (err: Error) => `broken: ${err.message}`,
  )
  t.equal(outcome, 'broken: Response error')
  t.equal((await svc.call('GET', '/stream/0/users/me', { token: alice.token })).status, 200, 'the server goes on')
})
