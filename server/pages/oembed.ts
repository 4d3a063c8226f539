/**
 * oEmbed 1.0 answers for svc's public pages: a post is `rich`, its html a
 * quote of the post (escaped text, linked entities, a link back, no script,
 * no frame); a user is a `link`. Both name the instance as the provider.
 */
import { js2xml } from 'xml-js'
import { imageOf, type PostView, type UserRow } from '../../data/index.js'
import { postCanonicalUrl } from '../present/posts/post.js'
import { imageUrl, userCanonicalUrl } from '../present/users/user.js'
import { esc } from './layout.js'
import { linkedText } from './linked-text.js'
import { oneLine } from './share-meta.js'

/** The width of an embedded post unless `maxwidth` asks for less. */
const EMBED_WIDTH = 550
const THUMBNAIL = 200

export interface OEmbed {
  version: '1.0'
  type: 'rich' | 'link'
  title: string
  provider_name: string
  provider_url: string
  author_name: string
  author_url: string
  cache_age: number
  thumbnail_url: string
  thumbnail_width: number
  thumbnail_height: number
  html?: string
  width?: number
  height?: null
}

/** What every answer holds about the author and the instance. */
function common(user: UserRow, baseUrl: string, siteName: string, title: string): Omit<OEmbed, 'type'> {
  return {
    version: '1.0',
    title,
    provider_name: siteName,
    provider_url: `${baseUrl}/`,
    author_name: user.name || user.username,
    author_url: userCanonicalUrl(baseUrl, user),
    cache_age: 3600,
    thumbnail_url: imageUrl(baseUrl, imageOf(user, 'avatar').file, { w: THUMBNAIL, h: THUMBNAIL }),
    thumbnail_width: THUMBNAIL,
    thumbnail_height: THUMBNAIL,
  }
}

export function postOEmbed(view: PostView & { user: UserRow }, baseUrl: string, siteName: string, maxWidth?: number): OEmbed {
  const { post, user } = view
  const url = postCanonicalUrl(baseUrl, post, user)
  const width = Math.min(maxWidth ?? EMBED_WIDTH, EMBED_WIDTH)
  const html =
    `<blockquote class="svc-post" cite="${esc(url)}" style="max-width:${width}px">` +
    `<p>${linkedText(post.text, post.entities, baseUrl)}</p>` +
    `<footer>— ${esc(user.name || user.username)} (@${esc(user.username)}) <a href="${esc(url)}">${esc(post.created_at.slice(0, 10))}</a></footer></blockquote>`
  return { ...common(user, baseUrl, siteName, oneLine(post.text, 100) || `A post by @${user.username}`), type: 'rich', html, width, height: null }
}

export const userOEmbed = (user: UserRow, baseUrl: string, siteName: string): OEmbed => ({
  ...common(user, baseUrl, siteName, `${user.name || user.username} (@${user.username})`),
  type: 'link',
})

/** The answer as oEmbed's XML format: one element per field, in the JSON's order, fields without a value left out. */
export function oembedXml(answer: OEmbed): string {
  const fields = Object.fromEntries(
    Object.entries(answer)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, { _text: String(value) }]),
  )
  return js2xml({ _declaration: { _attributes: { version: '1.0', encoding: 'utf-8', standalone: 'yes' } }, oembed: fields }, { compact: true })
}
