/** A post's public page: what a Post object's `canonical_url` leads a browser to. */
import { renderHtml, type PostView, type PublicPost } from '../../data/index.js'
import { postCanonicalUrl } from '../present/posts/post.js'
import { byline } from './byline.js'
import { esc, layout } from './layout.js'

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

const authorName = (view: PostView): string => (view.user ? `${view.user.name || view.user.username} (@${view.user.username})` : 'someone')

function replyContext(found: PublicPost, baseUrl: string): string {
  const parent = found.reply_to
  if (found.view.post.reply_to === undefined) return ''
  if (!parent) return '<p class="muted">In reply to a post not shown here</p>'
  return `<p class="muted">In reply to <a href="${esc(postCanonicalUrl(baseUrl, parent.post, parent.user))}">${esc(authorName(parent))}</a></p>`
}

export function postPage(found: PublicPost, baseUrl: string): string {
  const { view } = found
  const { post } = view
  const excerpt = [...post.text].length > 60 ? `${[...post.text].slice(0, 60).join('')}…` : post.text
  // renderHtml escapes the text itself and emits only its own spans and http(s) links, as the API's `html`.
  return layout(
    `${authorName(view)}: ${excerpt}`,
    replyContext(found, baseUrl) +
      byline(view.user, baseUrl, post.created_at) +
      `<p>${renderHtml(post.text, post.entities)}</p>` +
      `<p class="muted">${count(view.num_replies, 'reply', 'replies')} · ${count(view.num_stars, 'star', 'stars')} · ${count(view.num_reposts, 'repost', 'reposts')}</p>`,
  )
}
