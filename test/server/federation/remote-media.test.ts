/**
 * Remote media in: the photo of bob's Note reaches alice as a photo svc
 * serves itself (an oEmbed photo with thumbnails and the alt text as its
 * title, every address on svc's origin, the bytes fetched once from bob's
 * server); a file that is no image comes as a download in
 * `svc.core.attachments`. What is over the size limit, or from a server
 * whose media the operator rejects, is left out and the post kept. The
 * copies are bounded (`federation.media_cache_bytes`, oldest pruned
 * first), and go with their post when its Note is deleted.
 */
import { createHash } from 'node:crypto'
import t from 'tap'
import type { Post } from '../../../server/api/index.js'
import { federatingInstance, followRemote, PUBLIC, SITE } from '../../fixtures/federating.js'
import { localPath } from '../../fixtures/files.js'
import { flatImage, noisyPng } from '../../fixtures/images.js'
import { waitUntil } from '../../fixtures/wait.js'

type Annotation = { type: string; value: Record<string, unknown> }

async function setUp(t: Parameters<typeof federatingInstance>[0], config: Parameters<typeof federatingInstance>[1] = {}) {
  const world = await federatingInstance(t, config)
  const { svc, remote } = world
  const alice = await svc.person('alice')
  const bob = await remote.actor('bob')
  await followRemote(world, alice, bob)
  let n = 0
  /** Bob's Note with `attachment`, sent; answers its post once kept. */
  const post = async (attachment: object[], text = 'look') => {
    n++
    const object = { id: `${bob.id}/notes/${n}`, type: 'Note', attributedTo: bob.id, to: PUBLIC, content: `<p>${text} ${n}</p>`, attachment }
    const status = await world.send({ id: `${object.id}/activity`, type: 'Create', actor: bob.id, object, to: PUBLIC }, bob)
    if (status !== 202) throw new Error(`the Create was answered ${status}`)
    let found: Post | undefined
    await waitUntil(async () => {
      const stream = (await svc.call<Post[]>('GET', '/posts/stream/unified?include_annotations=1', { token: alice.token })).body.data
      found = stream.find((p) => p.text === `${text} ${n}`)
      return found !== undefined
    }, `bob's post ${n}`)
    return { post: found!, noteId: object.id }
  }
  /** The bytes svc serves at `url` (one of its own addresses; a redirect followed), with the status and type. */
  const fetchHere = async (url: string): Promise<{ status: number; type: string; bytes: Buffer }> => {
    const res = await svc.server.inject({ url: localPath(url) })
    if (res.statusCode === 302 || res.statusCode === 303) return fetchHere(String(res.headers.location))
    return { status: res.statusCode, type: String(res.headers['content-type']), bytes: res.rawPayload }
  }
  return { ...world, alice, bob, post, fetchHere }
}

const sha1 = (b: Buffer) => createHash('sha1').update(b).digest('hex')
const annotationsOf = (post: Post, type: string) => ((post.annotations ?? []) as Annotation[]).filter((a) => a.type === type)

t.test("bob's photo reaches alice as a photo svc serves, its alt text the title", async (t) => {
  const { remote, post, fetchHere } = await setUp(t)
  const png = await noisyPng(800, 600)
  remote.serveBytes('/media/cat.png', 'image/png', png)
  const { post: kept } = await post([
    { type: 'Document', mediaType: 'image/png', url: `${remote.origin}/media/cat.png`, name: 'A grey cat', width: 800, height: 600 },
  ])
  const [photo] = annotationsOf(kept, 'svc.core.oembed')
  t.match(photo?.value, { type: 'photo', version: '1.0', width: 800, height: 600, title: 'A grey cat', thumbnail_width: 200, thumbnail_height: 200 })
  for (const key of ['url', 'thumbnail_url', 'thumbnail_large_url']) t.ok(String(photo.value[key]).startsWith(`${SITE}/`), `${key} is svc's own address`)
  t.notMatch(JSON.stringify(kept.annotations), remote.origin, "nothing in the annotations leads to bob's server")
  const served = await fetchHere(String(photo.value.url))
  t.equal(served.status, 200)
  t.equal(served.type, 'image/png')
  t.equal(sha1(served.bytes), sha1(png), 'the same bytes')
  t.equal((await fetchHere(String(photo.value.thumbnail_url))).status, 200, 'the thumbnail is served')
  t.equal(remote.fetched.filter((p) => p === '/media/cat.png').length, 1, 'fetched from bob once')
})

t.test('a file that is no image comes as a download; what is too large is left out, the post kept', async (t) => {
  const { remote, svc, alice, post, fetchHere } = await setUp(t, { limits: { max_file_size: 200_000 } as never })
  remote.serveBytes('/media/notes.txt', 'text/html', Buffer.from('<script>alert(1)</script>'))
  remote.serveBytes('/media/huge.png', 'image/png', await noisyPng(1200, 1200))
  const { post: kept } = await post([
    { type: 'Document', mediaType: 'text/plain', url: `${remote.origin}/media/notes.txt` },
    { type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/huge.png` },
  ])
  t.same(annotationsOf(kept, 'svc.core.oembed'), [], 'no photo: it was over max_file_size')
  const [list] = annotationsOf(kept, 'svc.core.attachments')
  const [file] = list.value['svc.core.file_list'] as Record<string, unknown>[]
  t.match(file, { kind: 'other', name: 'notes.txt', mime_type: 'application/octet-stream' }, 'a type the server gave that could run is not kept')
  const served = await fetchHere(String(file.url))
  t.equal(served.status, 200)
  t.equal(served.type, 'application/octet-stream')
  t.equal((await svc.call('GET', `/posts/${kept.id}`, { token: alice.token })).body.data.text, 'look 1')
})

t.test('media from a server whose media the operator rejects is not fetched', async (t) => {
  const { remote, svc, post } = await setUp(t)
  remote.serveBytes('/media/a.png', 'image/png', await flatImage(50, 50))
  await svc.domain.federation.blocks.block(remote.authority, { silence: true, reject_media: true })
  const { post: kept } = await post([{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/a.png` }])
  t.same(annotationsOf(kept, 'svc.core.oembed'), [])
  t.notOk(remote.fetched.includes('/media/a.png'))
})

t.test('the copies stay within media_cache_bytes, the oldest pruned; a deleted Note takes its own', async (t) => {
  const images = await Promise.all([1, 2, 3].map(() => noisyPng(300, 300)))
  const { remote, bob, send, post, fetchHere } = await setUp(t, { federation: { media_cache_bytes: Math.floor(images[0].length * 2.5) } })
  const urls: string[] = []
  const notes: string[] = []
  for (const [i, png] of images.entries()) {
    remote.serveBytes(`/media/${i}.png`, 'image/png', png)
    const { post: kept, noteId } = await post([{ type: 'Image', mediaType: 'image/png', url: `${remote.origin}/media/${i}.png` }])
    urls.push(String(annotationsOf(kept, 'svc.core.oembed')[0].value.url))
    notes.push(noteId)
  }
  await waitUntil(async () => (await fetchHere(urls[0])).status === 404, 'the oldest copy pruned')
  t.equal((await fetchHere(urls[2])).status, 200, 'the newest kept')
  t.equal(await send({ id: `${notes[2]}#delete`, type: 'Delete', actor: bob.id, object: notes[2] }, bob), 202)
  await waitUntil(async () => (await fetchHere(urls[2])).status === 404, 'the deleted post takes its copy')
})
