/**
 * The API shape of a Post, including the stripped shape of deleted posts and
 * reposts' `repost_of`, written as JSON text. What no viewer changes (ids,
 * text, entities, html, source) is kept as text per post row, so a post read
 * by many viewers is rendered once; counts, the author's view and the
 * viewer's own flags are added on each request.
 */
import { renderHtml, TOUCH, type AppRow, type PostList, type PostRow, type PostView, type UserRow } from '../../../data/index.js'
import type { Post, User } from '../../api/index.js'
import type { Envelope } from '../../envelope.js'
import { fieldsOf, type JsonFields, type RawJson } from '../../json-text.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'
import { presentMarker } from '../channels/marker.js'
import { presentPage } from '../page.js'
import { userCanonicalUrl } from '../users/user.js'
import { presentUsersJson } from '../users/user-json.js'
import { textCachePerDomain } from '../text-cache.js'

const EMPTY_ENTITIES = { mentions: [], hashtags: [], links: [] }

/** A post's text, or its deleted shape, then its html and its parent. */
type PostBody = Pick<Post, 'text' | 'is_deleted' | 'deleted' | 'entities' | 'html' | 'reply_to'>

/** The parts of a post's text that depend on its row (and author's and app's rows) and the base URL only. */
interface Kept {
  post: PostRow
  user: UserRow | null
  app: AppRow | null
  baseUrl: string
  head: JsonFields<Pick<Post, 'id' | 'created_at' | 'canonical_url' | 'machine_only'>>
  source: JsonFields<Pick<Post, 'source' | 'thread_id'>>
  withHtml: JsonFields<PostBody>
  withoutHtml: JsonFields<PostBody>
}

/** Where a browser reads a post: its page under its author's, which server/routes/posts/post-page.ts serves; a remote post's on its server. */
export const postCanonicalUrl = (baseUrl: string, post: PostRow, user: UserRow | null): string =>
  post.remote ? post.remote.url : user ? `${userCanonicalUrl(baseUrl, user)}/post/${post.id}` : `${baseUrl}/posts/${post.id}`

/** The app a post was made with; a remote post's is the server it came from. */
const sourceOf = (post: PostRow, app: AppRow | null): Post['source'] =>
  post.remote
    ? { client_id: '', link: new URL(post.remote.url).origin, name: post.remote.server }
    : app
      ? { client_id: app.client_id, link: app.link, name: app.name }
      : { client_id: '', link: '', name: 'svc' }

const keptOf = textCachePerDomain<Kept>({
  max: 10_000,
  maxChars: 32_000_000,
  charsOf: (kept) => kept.head.text.length + kept.source.text.length + kept.withHtml.text.length + kept.withoutHtml.text.length,
})

function keep(ctx: PresentContext, view: PostView): Kept {
  const { post, user, app } = view
  const cache = keptOf(ctx.views)
  const kept = cache.get(post.id)
  if (kept && kept.post === post && kept.user === user && kept.app === app && kept.baseUrl === ctx.baseUrl) return kept
  const head = fieldsOf({
    id: String(post.id),
    created_at: post.created_at,
    canonical_url: postCanonicalUrl(ctx.baseUrl, post, user),
    machine_only: post.machine_only,
  })
  const source = fieldsOf({
    source: sourceOf(post, app),
    thread_id: String(post.thread_id),
  })
  const replyTo = post.reply_to === undefined ? undefined : String(post.reply_to)
  const withoutHtml = post.is_deleted
    ? fieldsOf<PostBody>({ is_deleted: true, deleted: '1', entities: EMPTY_ENTITIES, reply_to: replyTo })
    : fieldsOf<PostBody>({ text: post.text, entities: post.entities, reply_to: replyTo })
  const withHtml = post.is_deleted
    ? withoutHtml
    : // A remote post's html is its server's, sanitised when it arrived.
      fieldsOf<PostBody>({
        text: post.text,
        entities: post.entities,
        html: post.remote ? post.remote.html : renderHtml(post.text, post.entities),
        reply_to: replyTo,
      })
  const made: Kept = { post, user, app, baseUrl: ctx.baseUrl, head, source, withHtml, withoutHtml }
  cache.set(post.id, made)
  return made
}

/** The post's fields for this request; `users` holds every embedded user's text. */
function shape(ctx: PresentContext, view: PostView, users: Map<number, RawJson<User>>): JsonFields<Post> {
  const o = ctx.options
  const kept = keep(ctx, view)
  if (ctx.reads) noteReads(ctx.reads, view)
  const userOf = (u: UserRow): RawJson<User> => users.get(u.id)!
  const annotations =
    o.include_annotations || o.include_post_annotations
      ? renderAnnotations(ctx, view.post.annotations, { kind: 'p', id: view.post.id }, view.post.is_deleted === true)
      : undefined
  return kept.head
    .with('num_replies', view.num_replies)
    .with('num_reposts', view.num_reposts)
    .with('num_stars', view.num_stars)
    .and(kept.source)
    .with('user', view.user ? userOf(view.user) : undefined)
    .and(o.include_html !== false ? kept.withHtml : kept.withoutHtml)
    .with('you_starred', view.you_starred)
    .with('you_reposted', view.you_reposted)
    .with('starred_by', view.starred_by?.map(userOf))
    .with('reposters', view.reposters?.map(userOf))
    .with('annotations', annotations)
    .with('repost_of', view.repost_of ? shape(ctx, view.repost_of, users).object() : undefined)
}

/** What a kept answer showing this post must be dropped with: the post (its counts, the viewer's flags) and the users it embeds. */
function noteReads(reads: NonNullable<PresentContext['reads']>, view: PostView): void {
  reads.push({ kind: TOUCH.post, id: view.post.id })
  if (view.user) reads.push({ kind: TOUCH.user, id: view.user.id })
  for (const u of view.starred_by ?? []) reads.push({ kind: TOUCH.user, id: u.id })
  for (const u of view.reposters ?? []) reads.push({ kind: TOUCH.user, id: u.id })
}

/** Every user a set of views embeds, presented once each, as JSON text. */
async function presentedUsers(ctx: PresentContext, views: readonly PostView[]): Promise<Map<number, RawJson<User>>> {
  const byId = new Map<number, UserRow>()
  const collect = (v: PostView): void => {
    if (v.user) byId.set(v.user.id, v.user)
    for (const u of v.starred_by ?? []) byId.set(u.id, u)
    for (const u of v.reposters ?? []) byId.set(u.id, u)
    if (v.repost_of) collect(v.repost_of)
  }
  views.forEach(collect)
  const users = [...byId.values()]
  const shaped = await presentUsersJson(ctx, users)
  return new Map(users.map((u, i) => [u.id, shaped[i]]))
}

/** Presents rows as JSON text kept whole by the envelope (each post's fields, for a page to add `pagination_id`): computes each post's view for the request's viewer and options. */
export async function presentPostsJson(ctx: PresentContext, rows: readonly PostRow[]): Promise<JsonFields<Post>[]> {
  const views = await ctx.views.postViews.views(rows, ctx.viewer, { starred_by: ctx.options.include_starred_by, reposters: ctx.options.include_reposters })
  const users = await presentedUsers(ctx, views)
  return views.map((v) => shape(ctx, v, users))
}

/** Presents rows as objects, for answers that embed posts in other shapes. */
export async function presentPosts(ctx: PresentContext, rows: readonly PostRow[]): Promise<Post[]> {
  return (await presentPostsJson(ctx, rows)).map((fields) => fields.object().toJSON())
}

export async function presentPost(ctx: PresentContext, row: PostRow): Promise<RawJson<Post>> {
  return (await presentPostsJson(ctx, [row]))[0].object()
}

/** A paginated list of posts, with its stream marker in `meta.marker` when the list has one. */
export async function presentPostList(ctx: PresentContext, list: PostList): Promise<Envelope> {
  const meta = list.marker ? { marker: presentMarker(list.marker.name, list.marker.row) } : {}
  if (ctx.reads) {
    if (list.feeds) ctx.reads.push(...list.feeds)
    else ctx.reads = null
  }
  return presentPage(list.page, (rows) => presentPostsJson(ctx, rows), meta)
}
