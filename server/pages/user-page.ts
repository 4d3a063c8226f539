/** A user's public detail page: what the User object's `canonical_url` leads a browser to. */
import { renderHtml, type UserCounts, type UserRow } from '../../data/index.js'
import { esc, layout } from './layout.js'

export function userPage(user: UserRow, counts: UserCounts, avatarUrl: string): string {
  // renderHtml escapes the text itself and emits only its own spans and links.
  const description = user.description.text ? `<p>${renderHtml(user.description.text, user.description.entities)}</p>` : ''
  return layout(
    `${user.name || user.username} (@${user.username})`,
    `<img src="${esc(avatarUrl)}" alt="" width="80" height="80">` +
      `<h1>${esc(user.name || user.username)}</h1><p class="muted">@${esc(user.username)}</p>${description}` +
      `<p class="muted">${counts.posts} posts · ${counts.following} following · ${counts.followers} followers</p>`,
  )
}
