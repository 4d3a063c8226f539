import t, { type Test } from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { makeInstance, type Instance, type Person } from '../../fixtures/instance.js'
import { animatedGif, flatImage, multipart, noisyPng, sizeOf } from '../../fixtures/images.js'

const upload = (svc: Instance, kind: 'avatar' | 'cover', data: Buffer, token?: string, field: string = kind) => {
  const { payload, headers } = multipart(field, data)
  return svc.call('POST', `/stream/0/users/me/${kind}`, { token, payload, headers })
}

/** GETs `url` as bytes (images are not JSON). */
const fetchImage = async (svc: Instance, url: string) => {
  const res = await svc.server.inject({ method: 'GET', url })
  return { status: res.statusCode, headers: res.headers, data: res.rawPayload }
}

/** Follows an avatar or cover redirect to the image it names. */
const follow = async (t: Test, svc: Instance, url: string, token?: string) => {
  const res = await svc.call('GET', url, { token })
  t.equal(res.status, 302, `${url} redirects`)
  const location = String(res.headers.location)
  const image = await fetchImage(svc, location)
  t.equal(image.status, 200, `${location} is served`)
  return { location, ...image, size: await sizeOf(image.data) }
}

const imagesOnDisk = (svc: Instance) => readdirSync(join(svc.dir, 'images'))

t.test('alice uploads a wide PNG avatar and gets it back cropped to a square', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const updates: string[] = []
  svc.domain.events.on('user.updated', (e) => updates.push(e.payload.user.username))
  const res = await upload(svc, 'avatar', await flatImage(300, 200), alice.token)
  t.equal(res.status, 200)
  t.equal(res.body.data.username, 'alice')
  t.match(res.body.data.avatar_image, { is_default: false, width: 200, height: 200, url: /\/images\/[\w-]{21}\.png$/ })
  t.match(res.body.data.cover_image, { is_default: true })
  t.same(updates, ['alice'])

  const served = await fetchImage(svc, res.body.data.avatar_image.url)
  t.equal(served.headers['content-type'], 'image/png')
  t.match(served.headers['cache-control'], /max-age=31536000/)
  t.same(await sizeOf(served.data), { width: 200, height: 200, format: 'png', pages: 1 })

  const me = await svc.call('GET', '/users/me', { token: alice.token })
  t.same(me.body.data.avatar_image, res.body.data.avatar_image, 'the profile shows the new avatar')
})

t.test('the avatar address redirects to the image for an id, @username and me, forwarding w and h', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const { body } = await upload(svc, 'avatar', await flatImage(120, 120), alice.token)
  const file = body.data.avatar_image.url.split('/images/')[1]
  for (const [ref, token] of [
    [String(alice.user.id), undefined],
    ['@alice', undefined],
    ['me', alice.token],
  ] as const) {
    const got = await follow(t, svc, `/stream/0/users/${ref}/avatar`, token)
    t.match(got.location, new RegExp(`/images/${file}$`))
    t.equal(got.size.width, 120)
  }
  const small = await follow(t, svc, '/users/@alice/avatar?w=57')
  t.match(small.location, /\?w=57$/)
  t.same([small.size.width, small.size.height], [57, 57], 'one side given keeps the square')
  const box = await follow(t, svc, `/users/${alice.user.id}/avatar?w=80&h=40&_=cachebuster`)
  t.same([box.size.width, box.size.height], [80, 40])
  t.notMatch(box.location, /_=/, 'only the size travels on')
  const withToken = await svc.call('GET', `/users/@alice/avatar?access_token=${alice.token}&w=30`)
  t.notMatch(String(withToken.headers.location), /access_token/, 'a token in the query is never forwarded')
})

t.test('bob has not uploaded anything and gets real default images', async (t) => {
  const svc = await makeInstance(t)
  const bob = await svc.person('bob')
  const profile = await svc.call('GET', '/users/@bob')
  t.match(profile.body.data.avatar_image, { is_default: true, width: 200, height: 200, url: /\/images\/default-avatar\.png$/ })
  t.match(profile.body.data.cover_image, { is_default: true, width: 960, height: 260, url: /\/images\/default-cover\.png$/ })
  const avatar = await follow(t, svc, `/users/${bob.user.id}/avatar`)
  t.equal(avatar.headers['content-type'], 'image/png')
  t.same([avatar.size.width, avatar.size.height], [200, 200])
  const cover = await follow(t, svc, '/users/@bob/cover')
  t.same([cover.size.width, cover.size.height], [960, 260])
  const wide = await follow(t, svc, '/users/@bob/cover?w=720')
  t.same([wide.size.width, wide.size.height], [720, 195], 'an omitted height keeps the aspect ratio')
  const tiny = await fetchImage(svc, '/stream/0/images/default-avatar.png?w=30')
  t.same((await sizeOf(tiny.data)).width, 30, 'images are served under /stream/0 too')
})

t.test('a cover must be at least 960 px wide', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const narrow = await upload(svc, 'cover', await flatImage(800, 300), alice.token)
  t.equal(narrow.status, 400)
  t.match(narrow.body.meta.error_message, /^Bad Request: Cover image must be at least 960 px wide/)
  const res = await upload(svc, 'cover', await flatImage(1000, 300, 'jpeg'), alice.token)
  t.equal(res.status, 200)
  t.match(res.body.data.cover_image, { is_default: false, width: 1000, height: 300, url: /\.jpg$/ })
  t.match(res.body.data.avatar_image, { is_default: true })
  const got = await follow(t, svc, '/users/@alice/cover')
  t.equal(got.headers['content-type'], 'image/jpeg')
  t.same([got.size.width, got.size.height], [1000, 300], 'a cover is not cropped')
})

t.test('an avatar of 1 MB or more is a 400, however much larger it is', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const justOver = await noisyPng(600, 600)
  t.ok(justOver.length >= 1024 * 1024 && justOver.length < 1024 * 1024 + 64 * 1024, 'the svc check is the one that sees it')
  const wayOver = await noisyPng(800, 800)
  for (const data of [justOver, wayOver]) {
    const res = await upload(svc, 'avatar', data, alice.token)
    t.equal(res.status, 400)
    t.equal(res.body.meta.code, 400)
    t.match(res.body.meta.error_message, /^Bad Request: Avatar must be smaller than 1 MB/)
  }
  t.same(imagesOnDisk(svc), [], 'nothing was written')
  const under = await upload(svc, 'avatar', await noisyPng(500, 500), alice.token)
  t.equal(under.status, 200, 'a noisy PNG under the limit is fine')
})

t.test('what is not an image, or not in the avatar field, is a 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const text = await upload(svc, 'avatar', Buffer.from('this is not a picture'), alice.token)
  t.equal(text.status, 400)
  t.match(text.body.meta.error_message, /^Bad Request: Avatar is not a readable image/)
  const truncated = (await flatImage(300, 300, 'jpeg')).subarray(0, 200)
  t.equal((await upload(svc, 'avatar', truncated, alice.token)).status, 400, 'a truncated JPEG')
  const tiff = await (
    await import('sharp')
  )
    .default({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
    .tiff()
    .toBuffer()
  t.match((await upload(svc, 'avatar', tiff, alice.token)).body.meta.error_message, /JPEG, PNG, GIF or WebP/)
  const wrongField = await upload(svc, 'avatar', await flatImage(50, 50), alice.token, 'picture')
  t.equal(wrongField.status, 400)
  t.match(wrongField.body.meta.error_message, /avatar is required/)
  const json = await svc.call('POST', '/users/me/avatar', { token: alice.token, payload: { avatar: 'x' } })
  t.equal(json.status, 400, 'only multipart/form-data')
  t.equal(json.body.meta.code, 400)
})

t.test('uploads need a user token with update_profile', async (t) => {
  const svc = await makeInstance(t)
  const reader = await svc.person('alice', { scopes: ['basic', 'stream'] })
  const image = await flatImage(50, 50)
  t.equal((await upload(svc, 'avatar', image)).status, 401)
  const app = await upload(svc, 'cover', image, svc.appToken)
  t.equal(app.status, 403)
  t.equal(app.body.meta.error_slug, 'wrong-token-kind')
  const scoped = await upload(svc, 'avatar', image, reader.token)
  t.equal(scoped.status, 403)
  t.equal(scoped.body.meta.error_slug, 'insufficient-scope')
})

t.test('a new avatar replaces the old file on disk', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const first = await upload(svc, 'avatar', await flatImage(64, 64), alice.token)
  const firstFile = first.body.data.avatar_image.url.split('/images/')[1]
  t.same(imagesOnDisk(svc), [firstFile])
  const second = await upload(svc, 'avatar', await flatImage(90, 90, 'webp'), alice.token)
  const secondFile = second.body.data.avatar_image.url.split('/images/')[1]
  t.match(secondFile, /\.webp$/)
  t.same(imagesOnDisk(svc), [secondFile])
  t.equal((await fetchImage(svc, `/images/${firstFile}`)).status, 404)
})

t.test('avatar and cover addresses of unknown users are 404s; me needs a user token', async (t) => {
  const svc = await makeInstance(t)
  t.equal((await svc.call('GET', '/users/999/avatar')).status, 404)
  const nobody = await svc.call('GET', '/users/@nobody/cover')
  t.equal(nobody.status, 404)
  t.equal(nobody.body.meta.code, 404)
  t.equal((await svc.call('GET', '/users/me/avatar')).status, 400)
  t.equal((await svc.call('GET', '/users/me/avatar', { token: svc.appToken })).status, 400)
})

t.test('image files are looked up by name only, at sizes from 1 to 2048', async (t) => {
  const svc = await makeInstance(t)
  const alice: Person = await svc.person('alice')
  const { body } = await upload(svc, 'avatar', await flatImage(100, 100), alice.token)
  const url = new URL(body.data.avatar_image.url).pathname
  const unknown = await svc.call('GET', '/images/AAAAAAAAAAAAAAAAAAAAA.png')
  t.equal(unknown.status, 404)
  t.equal(unknown.body.meta.code, 404)
  for (const path of ['/images/..%2Fconfig.json', '/images/config.json', '/images/meta.json']) {
    const res = await svc.call('GET', path)
    t.ok(res.status === 400 || res.status === 404, `${path} is refused`)
    t.equal(res.body.meta.code, res.status)
  }
  // The URL parser takes `.%2E` for `..`: this is a request for `/`, the web client's page, not for a file.
  const dotted = await svc.server.inject('/images/.%2E')
  t.match(dotted.headers['content-type'], /^text\/html/, '/images/.%2E is the page at /')
  t.match(dotted.payload, 'id="svc-settings"')
  for (const query of ['w=0', 'w=5000', 'h=abc', 'w=-3', 'w=1.5']) {
    const res = await svc.call('GET', `${url}?${query}`)
    t.equal(res.status, 400, query)
    t.match(res.body.meta.error_message, /^Bad Request: /)
  }
  t.equal((await svc.call('GET', `/users/@alice/avatar?w=9999`)).status, 400, 'the redirect checks the size too')
  const big = await fetchImage(svc, `${url}?w=2048`)
  t.equal((await sizeOf(big.data)).width, 2048)
})

t.test('a GIF avatar keeps its frames and is never resized', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const res = await upload(svc, 'avatar', await animatedGif(60, 40), alice.token)
  t.match(res.body.data.avatar_image, { width: 40, height: 40, url: /\.gif$/ })
  const got = await follow(t, svc, '/users/@alice/avatar?w=20')
  t.equal(got.headers['content-type'], 'image/gif')
  t.same(got.size, { width: 40, height: 40, format: 'gif', pages: 2 })
})

t.test('avatar and cover redirects and images are left out of rate limiting', async (t) => {
  const svc = await makeInstance(t, {
    rate_limits: {
      enabled: true,
      authenticated: { limit: 100, window_s: 60 },
      write: { limit: 100, window_s: 60 },
      unauthenticated: { limit: 2, window_s: 60 },
      pages: { limit: 100, window_s: 60 },
    },
  })
  const alice = await svc.person('alice')
  const avatar = new URL((await svc.call('GET', `/stream/0/users/${alice.user.id}`)).body.data.avatar_image.url).pathname
  for (const path of [`/users/${alice.user.id}/avatar`, `/stream/0/users/${alice.user.id}/cover`, avatar]) {
    for (let i = 0; i < 3; i++) {
      const res = await svc.server.inject({ method: 'GET', url: path })
      t.ok(res.statusCode < 400, `${path}: ${res.statusCode}`)
      t.notOk('x-ratelimit-limit' in res.headers, `${path} counts against no bucket`)
    }
  }
  const upload = await svc.server.inject({ method: 'POST', url: '/stream/0/users/me/avatar' })
  t.ok('x-ratelimit-limit' in upload.headers, 'uploads are limited')
})

t.test('limits: a cover under 4 MB is taken, one of 4 MB or more is a 400', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const upload = async (data: Buffer) => {
    const { payload, headers } = multipart('cover', data)
    return svc.call('POST', '/stream/0/users/me/cover', { token: alice.token, payload, headers })
  }
  const justOver = await noisyPng(1190, 1190)
  t.ok(justOver.length >= 4 * 1024 * 1024 && justOver.length < 4 * 1024 * 1024 + 64 * 1024, 'the svc check is the one that sees it')
  for (const data of [justOver, await noisyPng(1400, 1400)]) {
    const res = await upload(data)
    t.equal(res.status, 400)
    t.match(res.body.meta.error_message, /^Bad Request: Cover image must be smaller than 4 MB/)
  }
  const under = await upload(await noisyPng(1150, 1150))
  t.equal(under.status, 200)
  t.match(under.body.data.cover_image, { is_default: false, width: 1150, height: 1150 })
})

t.test('a new cover is a profile update: user.updated with the new row', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const updated: DomainEvent<'user.updated'>['payload']['user'][] = []
  svc.domain.events.on('user.updated', (e) => updated.push(e.payload.user))
  const { payload, headers } = multipart('cover', await flatImage(960, 300))
  await svc.call('POST', '/users/me/cover', { token: alice.token, payload, headers })
  t.equal(updated.length, 1)
  t.same([updated[0].id, updated[0].cover?.width, updated[0].cover?.height], [alice.user.id, 960, 300])
})
