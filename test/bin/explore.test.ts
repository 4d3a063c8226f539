/**
 * `svc explore ...` as an operator runs it: the built CLI (in this process),
 * on a data dir alone and beside a running `svc serve`.
 */
import t from 'tap'
import { openDomain } from '../../data/index.js'
import { svc } from './svc-in-process.js'
import { initDir, serve } from '../fixtures/svc-process.js'

t.test('an operator lists, creates, changes, pins and deletes streams without a server', async (t) => {
  const dir = await initDir(t)
  const list = await svc(['explore', 'list', '--json', '--data-dir', dir])
  t.equal(list.code, 0)
  t.same(
    JSON.parse(list.stdout).map((s: { slug: string }) => s.slug),
    ['posts', 'conversations', 'photos', 'trending', 'checkins'],
  )
  const created = await svc([
    'explore',
    'create',
    'cats',
    '--title',
    'Cats',
    '--description',
    'All the cats',
    '--hashtag',
    '#Cats',
    '--photo',
    '--json',
    '--data-dir',
    dir,
  ])
  t.equal(created.code, 0, created.stderr)
  const stream = JSON.parse(created.stdout)
  t.same([stream.slug, stream.marker, stream.rule], ['cats', 'cats', { hashtag: 'cats', has_photo: true }])
  t.match(
    stream,
    { id: /^\d+$/, title: 'Cats', description: 'All the cats', pinned: [], url: /\/stream\/0\/posts\/stream\/explore\/cats$/ },
    'the API object plus what curates it, ids as strings',
  )
  t.equal(created.stdout.trim().split('\n').length, 1, 'one JSON value')
  const updated = await svc(['explore', 'update', 'cats', '--no-photo', '--min-stars', '3', '--slug', 'felines', '--json', '--data-dir', dir])
  t.same(JSON.parse(updated.stdout).rule, { hashtag: 'cats', min_stars: 3 })
  const text = await svc(['explore', 'list', '--data-dir', dir])
  t.match(text.stdout, /^felines\tCats\tmarker explore:felines\thashtag=cats min_stars=3\tpinned none$/m)
  const deleted = await svc(['explore', 'delete', 'felines', '--data-dir', dir])
  t.same([deleted.code, deleted.stdout], [0, 'deleted felines\n'])
})

t.test('pins and user rules print ids as strings, as the API does', async (t) => {
  const dir = await initDir(t)
  const domain = await openDomain(dir)
  // Started as a first `svc serve` would: the default explore streams are seeded.
  await domain.start()
  const alice = await domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  const { app } = await domain.auth.apps.create({ name: 'Seed', redirect_uris: ['http://seed.example/cb'] })
  const { access_token } = await domain.auth.tokens.issueUserToken(app, alice, ['write_post'])
  const post = await domain.posts.core.create(await domain.auth.tokens.authenticate(access_token), { text: 'a photo of my cat' })
  await domain.close()
  const pinned = await svc(['explore', 'pin', 'photos', String(post.id), '--json', '--data-dir', dir])
  t.equal(pinned.code, 0, pinned.stderr)
  t.same(JSON.parse(pinned.stdout).pinned, [String(post.id)])
  const byUser = await svc(['explore', 'update', 'photos', '--user', '@alice', '--json', '--data-dir', dir])
  t.same(JSON.parse(byUser.stdout).rule.user_ids, [String(alice.id)])
  const unpinned = await svc(['explore', 'unpin', 'photos', String(post.id), '--data-dir', dir])
  t.match(unpinned.stdout, new RegExp(`^unpinned post ${post.id} in photos\tPhotos\t.*user_ids=${alice.id}\tpinned none$`, 'm'))
})

t.test('mistakes exit non-zero with one line on stderr and nothing on stdout', async (t) => {
  const dir = await initDir(t)
  for (const args of [
    ['explore', 'pin', 'photos', '1'],
    ['explore', 'pin', 'photos', 'first'],
    ['explore', 'delete', 'nope'],
    ['explore', 'create', 'Bad Slug', '--title', 'T', '--description', 'D'],
    ['explore', 'create', 'photos', '--title', 'T', '--description', 'D'],
    ['explore', 'update', 'photos', '--user', '@nobody'],
    ['explore', 'create', 'x', '--title', 'T'],
  ]) {
    const res = await svc([...args, '--json', '--data-dir', dir])
    t.not(res.code, 0, args.join(' '))
    t.equal(res.stdout, '', args.join(' '))
    t.match(res.stderr, /^.+\n$/, `${args.join(' ')}: one line of reason`)
  }
})

t.test('with a server running, changes go through it and show in the API at once', async (t) => {
  const dir = await initDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const port = Number(new URL(server.url).port)
  const created = await svc(['explore', 'create', 'dogs', '--title', 'Dogs', '--description', 'Good dogs', '--hashtag', 'dogs', '--json', '--data-dir', dir])
  t.equal(created.code, 0, created.stderr)
  const res = await fetch(`http://127.0.0.1:${port}/stream/0/posts/stream/explore`)
  const body = (await res.json()) as { data: { slug: string; url: string }[] }
  t.same(
    body.data.map((s) => s.slug),
    ['posts', 'conversations', 'photos', 'trending', 'checkins', 'dogs'],
  )
  t.equal(body.data[5].url, `http://127.0.0.1:${port}/stream/0/posts/stream/explore/dogs`)
  const gone = await svc(['explore', 'delete', 'dogs', '--data-dir', dir])
  t.equal(gone.code, 0, gone.stderr)
  t.equal((await fetch(`http://127.0.0.1:${port}/stream/0/posts/stream/explore/dogs`)).status, 404)
})
