import t from 'tap'
import { makeDomainInstance } from '../../fixtures/instance.js'

// The text pipeline as posts use it: processText before the id exists, fillTemplates after.
t.test('a post fills {post_id} in its links unless the link opted out', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const post = await svc.domain.posts.core.create(
    { user: alice.user },
    {
      text: 'Image and raw',
      entities: {
        links: [
          { pos: 0, len: 5, url: 'http://photos.example.com/{post_id}/1' },
          { pos: 10, len: 3, url: 'http://example.com/{post_id}', process_template: false },
        ],
      },
    },
  )
  t.equal(post.text, 'Image [photos.example.com] and raw [example.com]')
  t.same(
    post.entities.links.map((l) => l.url),
    [`http://photos.example.com/${post.id}/1`, 'http://example.com/{post_id}'],
  )
})

t.test('a post mentions bob only because bob exists', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const alice = await svc.person('alice')
  const bob = await svc.person('bob')
  const post = await svc.domain.posts.core.create({ user: alice.user }, { text: '@Bob and @nobody' })
  t.same(post.entities.mentions, [{ pos: 0, len: 4, name: 'bob', id: String(bob.user.id), is_leading: true }])
})
