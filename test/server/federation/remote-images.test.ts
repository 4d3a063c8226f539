/**
 * Remote accounts' avatars and covers are svc's copies: bob's icon and
 * header, fetched from his server once his account is known, served from
 * svc's images (the avatar cropped square), never his server's address;
 * a new icon in a profile update replaces the copy, an icon taken away
 * brings the default back, and so does a block of his server with
 * `--reject-media`. An image that cannot be had leaves the default.
 */
import t from 'tap'
import type { User } from '../../../server/api/index.js'
import { federatingInstance, SITE } from '../../fixtures/federating.js'
import { localPath } from '../../fixtures/files.js'
import { noisyPng, sizeOf } from '../../fixtures/images.js'
import { waitUntil } from '../../fixtures/wait.js'

t.test("bob's avatar and cover are svc's copies, kept up to date with his profile", async (t) => {
  const { svc, remote, send } = await federatingInstance(t)
  const alice = await svc.person('alice')
  const [icon, header, newIcon] = await Promise.all([noisyPng(300, 200), noisyPng(1500, 500), noisyPng(120, 120)])
  remote.serveBytes('/media/icon.png', 'image/png', icon)
  remote.serveBytes('/media/header.png', 'image/png', header)
  remote.serveBytes('/media/new-icon.png', 'image/png', newIcon)
  const bob = await remote.actor('bob', {
    icon: { type: 'Image', url: `${remote.origin}/media/icon.png` },
    image: { type: 'Image', url: `${remote.origin}/media/header.png` },
  })
  const profile = async () => (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data
  const served = async (url: string) => {
    const res = await svc.server.inject({ url: localPath(url) })
    return { status: res.statusCode, size: res.statusCode === 200 ? await sizeOf(res.rawPayload) : null }
  }
  await profile()
  await waitUntil(async () => !(await profile()).avatar_image.is_default && !(await profile()).cover_image.is_default, "bob's images copied")
  const { avatar_image: avatar, cover_image: cover } = await profile()
  t.match(avatar, { width: 200, height: 200, is_default: false }, 'his avatar, cropped square')
  t.match(cover, { width: 1500, height: 500, is_default: false })
  for (const image of [avatar, cover]) {
    t.ok(image.url.startsWith(`${SITE}/images/`), `${image.url} is svc's own`)
    t.equal((await served(image.url)).status, 200)
  }
  t.notMatch(JSON.stringify(await profile()), remote.origin + '/media', "no address of his server's images")

  const update = (extra: Record<string, unknown>) => {
    const document = { ...bob.document, ...extra }
    remote.serve('/users/bob', document)
    return send({ id: `${bob.id}#update-${Object.keys(extra).join()}-${Date.now()}`, type: 'Update', actor: bob.id, object: document }, bob)
  }
  t.equal(await update({ icon: { type: 'Image', url: `${remote.origin}/media/new-icon.png` } }), 202)
  await waitUntil(async () => (await profile()).avatar_image.width === 120, 'the new icon copied')
  t.not((await profile()).avatar_image.url, avatar.url, 'under a new address')
  // The old file goes once the row no longer points at it, just after the commit.
  await waitUntil(async () => (await served(avatar.url)).status === 404, 'the old copy gone')

  const { icon: _icon, ...withoutIcon } = bob.document
  remote.serve('/users/bob', withoutIcon)
  t.equal(await send({ id: `${bob.id}#update-no-icon`, type: 'Update', actor: bob.id, object: withoutIcon }, bob), 202)
  await waitUntil(async () => (await profile()).avatar_image.is_default, 'the default avatar back')

  await svc.domain.federation.blocks.block(remote.authority, { silence: true, reject_media: true })
  t.match((await profile()).cover_image, { is_default: true, url: `${SITE}/images/default-cover.png` }, 'rejected media: the default cover')
})

t.test('an image that cannot be had (not an image, too large) leaves the default', async (t) => {
  const { svc, remote } = await federatingInstance(t)
  const alice = await svc.person('alice')
  remote.serveBytes('/media/icon.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>'))
  remote.serveBytes('/media/huge.png', 'image/png', await noisyPng(2000, 2000))
  const bob = await remote.actor('bob', {
    icon: { type: 'Image', url: `${remote.origin}/media/icon.png` },
    image: { type: 'Image', url: `${remote.origin}/media/huge.png` },
  })
  await svc.call('GET', `/users/@${bob.handle}`, { token: alice.token })
  await waitUntil(() => remote.fetched.includes('/media/icon.png') && remote.fetched.includes('/media/huge.png'), 'both asked for')
  // Stopping federation lets the copies under way finish: what they did is in the row then.
  await svc.domain.federation.stop()
  const row = await svc.store.read.users.one('actor', bob.id)
  t.same([row?.avatar, row?.cover], [undefined, undefined], 'no copy kept')
  const user = (await svc.call<User>('GET', `/users/@${bob.handle}`, { token: alice.token })).body.data
  t.match(user.avatar_image, { is_default: true, url: `${SITE}/images/default-avatar.png` })
  t.match(user.cover_image, { is_default: true })
})
