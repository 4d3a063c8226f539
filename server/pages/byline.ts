/** Who wrote a post or message and when: the author's avatar and names, leading to their page, and the time. */
import { imageOf, type UserRow } from '../../data/index.js'
import { imageUrl, userCanonicalUrl } from '../present/users/user.js'
import { esc } from './layout.js'

/** `created_at` as a readable UTC time, the exact one in `datetime`. */
const time = (createdAt: string): string => `<time datetime="${esc(createdAt)}">${esc(createdAt.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC'))}</time>`

/** The avatar comes from this server: answer the page with `htmlResponse`'s `imagesFrom`. */
export function byline(user: UserRow | null | undefined, baseUrl: string, createdAt: string): string {
  if (!user) return `<p class="muted">${time(createdAt)}</p>`
  const page = esc(userCanonicalUrl(baseUrl, user))
  const avatar = esc(imageUrl(baseUrl, imageOf(user, 'avatar').file, { w: 48, h: 48 }))
  return (
    `<p><a href="${page}"><img src="${avatar}" alt="" width="48" height="48"></a> ` +
    `<a href="${page}"><strong>${esc(user.name || user.username)}</strong></a> <a href="${page}" class="muted">@${esc(user.username)}</a>` +
    `<br><span class="muted">${time(createdAt)}</span></p>`
  )
}
