/**
 * Resizing on request costs the server: asked sizes snap to a few standard
 * ones (those clients use come out exact), and one address may make only so
 * many new variants a minute; what was made already stays free.
 */
import t from 'tap'
import { IMAGE_WIDTHS, MAX_IMAGE_SIDE, NEW_IMAGE_VARIANTS_PER_MINUTE } from '../../../data/index.js'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { sizeOf } from '../../fixtures/images.js'

const fetchImage = async (svc: Instance, url: string, remoteAddress = '127.0.0.1') => {
  const res = await svc.server.inject({ method: 'GET', url, remoteAddress })
  return { status: res.statusCode, headers: res.headers, data: res.rawPayload, body: res.payload }
}

t.test('the sizes clients ask for come out exact; any other snaps up to the next standard one', async (t) => {
  const svc = await makeInstance(t)
  for (const w of [30, 48, 57, 64, 72, 80, 96, 192, 720, 862, 960, 1200]) {
    t.ok(IMAGE_WIDTHS.includes(w), `${w} is standard`)
    t.equal((await sizeOf((await fetchImage(svc, `/images/default-cover.png?w=${w}`)).data)).width, w)
  }
  const odd = await fetchImage(svc, '/images/default-avatar.png?w=51&h=33')
  t.same([(await sizeOf(odd.data)).width, (await sizeOf(odd.data)).height], [57, 40], 'both sides snap up')
  t.equal((await sizeOf((await fetchImage(svc, '/images/default-cover.png?w=1999')).data)).width, 2048)
  t.ok(IMAGE_WIDTHS.length <= 32, 'a few sizes, not thousands')
  t.equal(IMAGE_WIDTHS.at(-1), MAX_IMAGE_SIDE, 'the largest is the largest a client may ask')
})

t.test('the avatar redirect names the snapped size, so every client asks the same URL', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await svc.call('GET', `/users/${alice.user.id}/avatar?w=51&h=33`)
  t.equal(res.status, 302)
  t.match(String(res.headers.location), /\/images\/default-avatar\.png\?w=57&h=40$/)
})

t.test(`one address makes at most ${NEW_IMAGE_VARIANTS_PER_MINUTE} new variants a minute; made ones stay free, other addresses unaffected`, async (t) => {
  const svc = await makeInstance(t)
  const sizes = IMAGE_WIDTHS.filter((w) => w <= 200)
  const asked: string[] = []
  for (const w of sizes) for (const h of sizes) asked.push(`w=${w}&h=${h}`)
  t.ok(asked.length > NEW_IMAGE_VARIANTS_PER_MINUTE, 'enough distinct sizes to go over')
  for (const query of asked.slice(0, NEW_IMAGE_VARIANTS_PER_MINUTE)) t.equal((await fetchImage(svc, `/images/default-avatar.png?${query}`)).status, 200, query)
  const over = await fetchImage(svc, `/images/default-avatar.png?${asked[NEW_IMAGE_VARIANTS_PER_MINUTE]}`)
  t.equal(over.status, 429)
  t.match(JSON.parse(over.body).meta, { code: 429, error_message: /new image sizes/ })
  t.equal((await fetchImage(svc, `/images/default-avatar.png?${asked[0]}`)).status, 200, 'a variant made already is free')
  t.equal((await fetchImage(svc, '/images/default-avatar.png')).status, 200, 'so is the image itself')
  t.equal(
    (await fetchImage(svc, `/images/default-avatar.png?${asked[NEW_IMAGE_VARIANTS_PER_MINUTE]}`, '10.0.0.9')).status,
    200,
    'another address has its own budget',
  )
})
