/** A post's public page: what a Post object's `canonical_url` leads a browser to, and what a shared link's preview reads. */
import { imageOf, type PostView, type PublicPost } from '../../data/index.js'
import { postCanonicalUrl } from '../present/posts/post.js'
import { imageUrl } from '../present/users/user.js'
import { byline } from './byline.js'
import { counted, esc, layout } from './layout.js'
import { linkedText } from './linked-text.js'
import { photosHtml, photosOf } from './post-photos.js'
import { feedUrl, oembedUrl, oneLine, shareHead, type PageSite } from './share-meta.js'

const authorName = (view: PostView): string => (view.user ? `${view.user.name || view.user.username} (@${view.user.username})` : 'someone')

function replyContext(found: PublicPost, baseUrl: string): string {
  const parent = found.reply_to
  if (found.view.post.reply_to === undefined) return ''
  if (!parent) return '<p class="muted">In reply to a post not shown here</p>'
  return `<p class="muted">In reply to <a href="${esc(postCanonicalUrl(baseUrl, parent.post, parent.user))}">${esc(authorName(parent))}</a></p>`
}

export function postPage(found: PublicPost, baseUrl: string, site: PageSite): string {
  const { view } = found
  const { post, user } = view
  const url = postCanonicalUrl(baseUrl, post, user)
  const photos = photosOf(site.renderer, post, baseUrl)
  const [photo] = photos
  const avatar = user ? { url: imageUrl(baseUrl, imageOf(user, 'avatar').file, { w: 400, h: 400 }), width: 400, height: 400 } : undefined
  const description = oneLine(post.text) || (photos.length > 0 ? counted(photos.length, 'photo', 'photos') : '')
  const head = shareHead({
    title: authorName(view),
    description,
    url,
    siteName: site.name,
    type: 'article',
    image: photo ? { url: photo.url, width: photo.width, height: photo.height, alt: photo.alt } : avatar,
    largeImage: photo !== undefined,
    oembed: oembedUrl(baseUrl, url),
    feed: user ? { url: feedUrl(baseUrl, user.username), title: `Posts by @${user.username}` } : undefined,
  })
  return layout(
    `${authorName(view)}: ${oneLine(post.text, 60)}`,
    replyContext(found, baseUrl) +
      byline(user, baseUrl, post.created_at) +
      `<p class="text">${linkedText(post.text, post.entities, baseUrl)}</p>` +
      photosHtml(photos) +
      `<p class="muted">${counted(view.num_replies, 'reply', 'replies')} · ${counted(view.num_stars, 'star', 'stars')} · ${counted(view.num_reposts, 'repost', 'reposts')}</p>`,
    head,
  )
}
