import t from 'tap'
import { exploreOperations } from '../../../data/admin/explore-operations.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { writePost } from '../../fixtures/post-rows.js'

t.test('the admin operations curate streams from plain JSON arguments', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const post = await writePost(svc, alice.user, { hashtags: ['cats'] })
  const run = (name: string, args: Record<string, unknown> = {}) => exploreOperations[name as keyof typeof exploreOperations](svc.domain, args)
  const created = (await run('explore.create', { slug: 'cats', title: 'Cats', description: 'All cats', rule: { hashtag: 'cats' } })) as {
    slug: string
    marker: string
  }
  t.equal(created.marker, 'cats')
  const updated = (await run('explore.update', { slug: 'cats', new_slug: 'felines', rule: { has_photo: true } })) as { slug: string; rule: object }
  t.same([updated.slug, updated.rule], ['felines', { hashtag: 'cats', has_photo: true }])
  t.same(((await run('explore.pin', { slug: 'felines', post_id: String(post.id) })) as { pinned: number[] }).pinned, [post.id])
  t.same(((await run('explore.unpin', { slug: 'felines', post_id: post.id })) as { pinned: number[] }).pinned, [])
  t.equal(((await run('explore.list')) as unknown[]).length, 6)
  await run('explore.delete', { slug: 'felines' })
  t.equal(((await run('explore.list')) as unknown[]).length, 5)
})

t.test('missing or malformed arguments are invalid, not crashes', async (t) => {
  const svc = await makeDomainInstance(t)
  const run = (name: string, args: Record<string, unknown>): Promise<unknown> => exploreOperations[name as keyof typeof exploreOperations](svc.domain, args)
  await t.rejects(run('explore.create', { name: 'DomainError', slug: 'x', title: 'X' }), { code: 'invalid', message: /description/ })
  await t.rejects(run('explore.pin', { name: 'DomainError', slug: 'photos', post_id: 'first' }), { code: 'invalid', message: /post_id/ })
  await t.rejects(run('explore.update', { name: 'DomainError', slug: 'photos', rule: 'photos' }), { code: 'invalid', message: /rule/ })
  await t.rejects(run('explore.delete', {}), { code: 'invalid', message: /slug/ })
})

t.test('a rule may name its users by @username, id or plain name', async (t) => {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = [await svc.person('alice'), await svc.person('bob'), await svc.person('carol')]
  const stream = (await exploreOperations['explore.create'](svc.domain, {
    slug: 'friends',
    title: 'Friends',
    description: 'Posts by friends',
    rule: { user_ids: ['@alice', 'bob', String(carol.user.id)] },
  })) as { rule: { user_ids: number[] } }
  t.same(stream.rule.user_ids, [alice.user.id, bob.user.id, carol.user.id])
  await t.rejects(exploreOperations['explore.update'](svc.domain, { name: 'DomainError', slug: 'friends', rule: { user_ids: ['@nobody'] } }), {
    code: 'invalid',
    message: /nobody/,
  })
})
