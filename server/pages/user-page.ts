/** A user's public detail page: what the User object's `canonical_url` leads a browser to, with their latest posts. */
import { renderHtml, type PostRow, type UserCounts, type UserRow } from '../../data/index.js'
import { esc, layout } from './layout.js'

/** A post as the page lists it: the post, and the address of its own page. */
export interface ListedPost {
  post: PostRow
  url: string
}

const day = (iso: string): string => iso.slice(0, 10)

export function userPage(user: UserRow, counts: UserCounts, avatarUrl: string, posts: readonly ListedPost[], clientUrl: string): string {
  // renderHtml escapes the text itself and emits only its own spans and links.
  const description = user.description.text ? `<p>${renderHtml(user.description.text, user.description.entities)}</p>` : ''
  const listed = posts
    .map(
      ({ post, url }) => `<li><p>${renderHtml(post.text, post.entities)}</p><p class="muted"><a href="${esc(url)}">${esc(day(post.created_at))}</a></p></li>`,
    )
    .join('')
  return layout(
    `${user.name || user.username} (@${user.username})`,
    `<img src="${esc(avatarUrl)}" alt="" width="80" height="80">` +
      `<h1>${esc(user.name || user.username)}</h1><p class="muted">@${esc(user.username)}</p>${description}` +
      `<p class="muted">${counts.posts} posts · ${counts.following} following · ${counts.followers} followers</p>` +
      `<p><a href="${esc(clientUrl)}">Follow @${esc(user.username)} and reply in the web app</a></p>` +
      (listed ? `<h2>Latest posts</h2><ul class="posts">${listed}</ul>` : '<p class="muted">No posts yet.</p>'),
  )
}
