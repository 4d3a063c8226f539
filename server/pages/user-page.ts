/** A user's public page: what the User object's `canonical_url` leads a browser to, with their latest posts, and what a shared link's preview reads. */
import { imageOf, type PostView, type UserCounts, type UserRow } from '../../data/index.js'
import { postCanonicalUrl } from '../present/posts/post.js'
import { imageUrl, userCanonicalUrl } from '../present/users/user.js'
import { counted, esc, layout } from './layout.js'
import { linkedText } from './linked-text.js'
import { photosHtml, photosOf } from './post-photos.js'
import { feedUrl, oembedUrl, oneLine, shareHead, type PageSite } from './share-meta.js'

const day = (iso: string): string => iso.slice(0, 10)

export function userPage(user: UserRow, counts: UserCounts, posts: readonly PostView[], baseUrl: string, site: PageSite): string {
  const name = user.name || user.username
  const url = userCanonicalUrl(baseUrl, user)
  const avatar = (size: number) => imageUrl(baseUrl, imageOf(user, 'avatar').file, { w: size, h: size })
  const description = user.description.text ? `<p class="text">${linkedText(user.description.text, user.description.entities, baseUrl)}</p>` : ''
  const listed = posts
    .map(({ post }) => {
      const link = `<p class="muted"><a href="${esc(postCanonicalUrl(baseUrl, post, user))}">${esc(day(post.created_at))}</a></p>`
      return `<li><p class="text">${linkedText(post.text, post.entities, baseUrl)}</p>${photosHtml(photosOf(site.renderer, post, baseUrl))}${link}</li>`
    })
    .join('')
  const feed = { url: feedUrl(baseUrl, user.username), title: `Posts by @${user.username}` }
  const head = shareHead({
    title: `${name} (@${user.username})`,
    description: oneLine(user.description.text) || `${counted(counts.posts, 'post', 'posts')} on ${site.name}`,
    url,
    siteName: site.name,
    type: 'profile',
    image: { url: avatar(400), width: 400, height: 400 },
    oembed: oembedUrl(baseUrl, url),
    feed,
  })
  return layout(
    `${name} (@${user.username})`,
    `<img src="${esc(avatar(80))}" alt="" width="80" height="80">` +
      `<h1>${esc(name)}</h1><p class="muted">@${esc(user.username)}</p>${description}` +
      `<p class="muted">${counted(counts.posts, 'post', 'posts')} · ${counted(counts.following, 'following', 'following')} · ${counted(counts.followers, 'follower', 'followers')}</p>` +
      `<p><a href="${esc(`${baseUrl}/people/${encodeURIComponent(user.username)}`)}">Follow @${esc(user.username)} and reply in the web app</a> · ` +
      `<a href="${esc(feed.url)}">Atom feed</a></p>` +
      (listed ? `<h2>Latest posts</h2><ul class="posts">${listed}</ul>` : '<p class="muted">No posts yet.</p>'),
    head,
  )
}
