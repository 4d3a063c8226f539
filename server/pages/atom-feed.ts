/**
 * A user's public posts as an Atom feed (RFC 4287), written by the `feed`
 * package. Every piece of HTML handed to it is escaped here first, so no
 * `]]>` can end one of its CDATA sections early.
 */
import { Feed } from 'feed'
import { imageOf, type PostView, type UserRow } from '../../data/index.js'
import { postCanonicalUrl } from '../present/posts/post.js'
import { imageUrl, userCanonicalUrl } from '../present/users/user.js'
import { esc } from './layout.js'
import { linkedText } from './linked-text.js'
import { photosHtml, photosOf } from './post-photos.js'
import { feedUrl, oneLine, type PageSite } from './share-meta.js'

export function atomFeed(user: UserRow, posts: readonly PostView[], baseUrl: string, site: PageSite): string {
  const page = userCanonicalUrl(baseUrl, user)
  const author = { name: user.name || user.username, link: page }
  const feed = new Feed({
    id: page,
    title: `${author.name} (@${user.username}) on ${site.name}`,
    description: user.description.text ? oneLine(user.description.text) : undefined,
    link: page,
    feedLinks: { atom: feedUrl(baseUrl, user.username) },
    image: imageUrl(baseUrl, imageOf(user, 'avatar').file, { w: 400, h: 400 }),
    updated: new Date(posts[0]?.post.created_at ?? user.created_at),
    author,
    generator: site.name,
  })
  for (const { post } of posts) {
    const url = postCanonicalUrl(baseUrl, post, user)
    const date = new Date(post.created_at)
    feed.addItem({
      id: url,
      link: url,
      title: esc(oneLine(post.text, 80) || 'Photo'),
      date,
      published: date,
      content: `<p>${linkedText(post.text, post.entities, baseUrl)}</p>${photosHtml(photosOf(site.renderer, post, baseUrl))}`,
      author: [author],
    })
  }
  return feed.atom1()
}
