import { createHash, randomBytes } from 'node:crypto'
import t from 'tap'
import { flatImage } from '../../fixtures/images.js'
import { listeningInstance } from '../../fixtures/streams.js'

const sha1 = (data: Buffer): string => createHash('sha1').update(data).digest('hex')

t.test('a real multipart upload over a socket comes back byte for byte through url, url_permanent and url_short', async (t) => {
  const { svc, base } = await listeningInstance(t)
  const alice = await svc.person('alice')
  const bytes = randomBytes(3 * 1024 * 1024)
  const form = new FormData()
  form.append('type', 'com.example.blob')
  form.append('public', '1')
  form.append('content', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), 'blob.bin')
  form.append('preview', new Blob([new Uint8Array(await flatImage(64, 64))], { type: 'image/png' }), 'preview.png')
  const res = await fetch(`${base}/files`, { method: 'POST', body: form, headers: alice.auth })
  t.equal(res.status, 200)
  const file = ((await res.json()) as { data: Record<string, any> }).data
  t.equal(file.size, bytes.length)
  t.equal(file.sha1, sha1(bytes))
  t.match(file.derived_files.preview, { mime_type: 'image/png', image_info: { width: 64, height: 64 } })
  for (const url of [file.url, file.url_permanent, file.url_short]) {
    const got = await fetch(url)
    t.equal(got.status, 200, url)
    t.equal(sha1(Buffer.from(await got.arrayBuffer())), file.sha1, `${url} answers the same bytes`)
  }
})
