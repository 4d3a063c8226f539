import t from 'tap'
import { readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { openDomain } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { animatedGif, flatImage, sizeOf } from '../../fixtures/images.js'
import { scratchDir } from '../../fixtures/scratch.js'

t.test('alice keeps her avatar and cover after the domain is closed and opened again', async (t) => {
  const dir = scratchDir('svc-images-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = await openDomain(dir)
  const alice = await first.users.accounts.create({ username: 'alice' })
  await first.users.images.upload(alice, 'avatar', await flatImage(150, 250))
  const withCover = await first.users.images.upload(alice, 'cover', await flatImage(1200, 400, 'webp'))
  await first.close()

  const again = await openDomain(dir)
  t.teardown(() => again.close())
  const row = await again.users.accounts.byUsername('alice')
  t.same(row?.avatar?.width, 150)
  t.same(row?.avatar?.height, 150, 'a tall avatar is cropped to its width')
  t.same(row?.cover, withCover.cover)
  const avatar = await again.users.images.serve(row!.avatar!.file)
  t.equal(avatar.mime, 'image/png')
  t.same((await sizeOf(avatar.data)).width, 150)
  const cover = await again.users.images.serve(row!.cover!.file, { h: 120 })
  t.equal(cover.mime, 'image/webp')
  t.same(await sizeOf(cover.data), { width: 360, height: 120, format: 'webp', pages: 1 }, 'resized to a standard height')
  t.same(readdirSync(again.imagesDir).sort(), [row!.avatar!.file, row!.cover!.file].sort(), 'no temp files are left behind')
})

t.test('starting the domain clears what a crash left in the images folder, and only that', async (t) => {
  const dir = scratchDir('svc-images-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = await openDomain(dir)
  const alice = await first.users.accounts.create({ username: 'alice' })
  const kept = (await first.users.images.upload(alice, 'avatar', await flatImage(100, 100))).avatar!.file
  await first.close()
  // An upload whose row never committed, a write cut short, and a file svc never names: the first two are litter.
  writeFileSync(join(first.imagesDir, 'AAAAAAAAAAAAAAAAAAAAA.png'), 'orphan')
  writeFileSync(join(first.imagesDir, '.BBBBBBBBBBBBBBBBBBBBB.jpg.tmp'), 'half')
  writeFileSync(join(first.imagesDir, 'README'), 'an operator note')

  const again = await openDomain(dir)
  t.teardown(() => again.close())
  await again.start()
  t.same(readdirSync(again.imagesDir).sort(), ['README', kept].sort())
  t.equal((await again.users.images.serve(kept)).mime, 'image/png', 'the avatar a user points at is still served')
})

t.test('a photo taken sideways is stored upright, so a tall-looking cover is measured as it looks', async (t) => {
  const svc = await makeDomainInstance(t)
  const bob = await svc.person('bob')
  // Stored 600 wide and 1000 high; EXIF orientation 6 says to show it turned, 1000 wide.
  const sideways = await sharp({ create: { width: 600, height: 1000, channels: 3, background: '#888' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer()
  const updated = await svc.domain.users.images.upload(bob.user, 'cover', sideways)
  t.same([updated.cover?.width, updated.cover?.height], [1000, 600])
  const stored = await sharp((await svc.domain.users.images.serve(updated.cover!.file)).data).metadata()
  t.equal(stored.orientation, undefined, 'the EXIF data is gone')
  t.same([stored.width, stored.height], [1000, 600])
})

t.test('an animated GIF avatar is cropped frame by frame', async (t) => {
  const svc = await makeDomainInstance(t)
  const carol = await svc.person('carol')
  const updated = await svc.domain.users.images.upload(carol.user, 'avatar', await animatedGif(80, 50))
  t.match(updated.avatar, { width: 50, height: 50, mime: 'image/gif' })
  const served = await svc.domain.users.images.serve(updated.avatar!.file, { w: 10 })
  t.same(await sizeOf(served.data), { width: 50, height: 50, format: 'gif', pages: 2 })
})

t.test('rejected uploads change nothing and emit nothing', async (t) => {
  const svc = await makeDomainInstance(t)
  const dave = await svc.person('dave')
  const events: string[] = []
  svc.domain.events.onAny((e) => events.push(e.name))
  await t.rejects(svc.domain.users.images.upload(dave.user, 'cover', await flatImage(959, 500)), { code: 'invalid', message: /960 px wide/ })
  await t.rejects(svc.domain.users.images.upload(dave.user, 'avatar', Buffer.alloc(0)), { code: 'invalid' })
  // 7000 x 7000 of one colour is a tiny PNG that decodes to 147 MB.
  const bomb = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#fff' } })
    .png({ compressionLevel: 9 })
    .toBuffer()
  t.ok(bomb.length < 1024 * 1024, 'the bomb is small')
  await t.rejects(svc.domain.users.images.upload(dave.user, 'avatar', bomb), { code: 'invalid', message: /too many pixels/ })
  t.same(events, [])
  t.same(readdirSync(svc.domain.imagesDir), [])
  t.same((await svc.domain.users.accounts.get(dave.user.id))?.avatar, undefined)
})

t.test('serving refuses names svc never gives and sizes out of range', async (t) => {
  const svc = await makeDomainInstance(t)
  for (const name of ['../config.json', 'meta.json', 'AAAAAAAAAAAAAAAAAAAAA.png', '']) {
    await t.rejects(svc.domain.users.images.serve(name), { code: 'not_found' }, name)
  }
  for (const size of [{ w: 0 }, { h: 2049 }, { w: 1.5 }]) {
    await t.rejects(svc.domain.users.images.serve('default-avatar.png', size), { code: 'invalid' })
  }
  const cover = await svc.domain.users.images.serve('default-cover.png', { w: 80, h: 80 })
  t.same(await sizeOf(cover.data), { width: 80, height: 80, format: 'png', pages: 1 }, 'both sides given crop to fill')
  t.equal(cover.immutable, false, 'default images may change with svc')
})
