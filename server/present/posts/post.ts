/**
 * The API shape of a Post, including the stripped shape of deleted posts and
 * reposts' `repost_of`, written as JSON text. What no viewer changes (ids,
 * text, entities, html, source) is kept as text per post row, so a post read
 * by many viewers is rendered once; counts, the author's view and the
 * viewer's own flags are added on each request.
 */
import { renderHtml, TOUCH, type AppRow, type PostList, type PostRow, type PostView, type UserRow } from '../../../data/index.js'
import { RawJson, type Envelope } from '../../envelope.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'
import { presentMarker } from '../channels/marker.js'
import { presentPage } from '../page.js'
import { userCanonicalUrl } from '../users/user.js'
import { presentUsersJson } from '../users/user-json.js'
import { textCachePerDomain } from '../text-cache.js'

const EMPTY_ENTITIES = { mentions: [], hashtags: [], links: [] }

/** An object's fields as JSON text without the braces (empty for no fields), in the object's order. */
const fields = (o: Record<string, unknown>): string => JSON.stringify(o).slice(1, -1)

/** The parts of a post's text that depend on its row (and author's and app's rows) and the base URL only. */
interface Kept {
  post: PostRow
  user: UserRow | null
  app: AppRow | null
  baseUrl: string
  /** id .. machine_only */
  head: string
  /** source, thread_id */
  source: string
  /** text and entities (or the deleted shape), then html when asked, then reply_to */
  withHtml: string
  withoutHtml: string
}

/** Where a browser reads a post: its page under its author's, which server/routes/posts/post-page.ts serves. */
export const postCanonicalUrl = (baseUrl: string, post: PostRow, user: UserRow | null): string =>
  user ? `${userCanonicalUrl(baseUrl, user)}/post/${post.id}` : `${baseUrl}/posts/${post.id}`

const keptOf = textCachePerDomain<Kept>({
  max: 10_000,
  maxChars: 32_000_000,
  charsOf: (kept) => kept.head.length + kept.source.length + kept.withHtml.length + kept.withoutHtml.length,
})

function keep(ctx: PresentContext, view: PostView): Kept {
  const { post, user, app } = view
  const cache = keptOf(ctx.views)
  const kept = cache.get(post.id)
  if (kept && kept.post === post && kept.user === user && kept.app === app && kept.baseUrl === ctx.baseUrl) return kept
  const head = fields({
    id: String(post.id),
    created_at: post.created_at,
    canonical_url: postCanonicalUrl(ctx.baseUrl, post, user),
    machine_only: post.machine_only,
  })
  const source = fields({
    source: app ? { client_id: app.client_id, link: app.link, name: app.name } : { client_id: '', link: '', name: 'svc' },
    thread_id: String(post.thread_id),
  })
  const body = post.is_deleted ? fields({ is_deleted: true, deleted: '1', entities: EMPTY_ENTITIES }) : fields({ text: post.text, entities: post.entities })
  const html = post.is_deleted ? '' : `,${fields({ html: renderHtml(post.text, post.entities) })}`
  const replyTo = post.reply_to === undefined ? '' : `,${fields({ reply_to: String(post.reply_to) })}`
  const made: Kept = { post, user, app, baseUrl: ctx.baseUrl, head, source, withHtml: body + html + replyTo, withoutHtml: body + replyTo }
  cache.set(post.id, made)
  return made
}

/** The post's JSON text for this request; `users` holds every embedded user's text. */
function shape(ctx: PresentContext, view: PostView, users: Map<number, string>): string {
  const o = ctx.options
  const kept = keep(ctx, view)
  if (ctx.reads) noteReads(ctx.reads, view)
  let out = `{${kept.head},"num_replies":${view.num_replies},"num_reposts":${view.num_reposts},"num_stars":${view.num_stars},${kept.source}`
  if (view.user) out += `,"user":${users.get(view.user.id)}`
  out += `,${o.include_html !== false ? kept.withHtml : kept.withoutHtml}`
  if (view.you_starred !== undefined) out += `,"you_starred":${view.you_starred}`
  if (view.you_reposted !== undefined) out += `,"you_reposted":${view.you_reposted}`
  if (view.starred_by) out += `,"starred_by":[${view.starred_by.map((u) => users.get(u.id)).join(',')}]`
  if (view.reposters) out += `,"reposters":[${view.reposters.map((u) => users.get(u.id)).join(',')}]`
  if (o.include_annotations || o.include_post_annotations)
    out += `,${fields({ annotations: renderAnnotations(ctx, view.post.annotations, { kind: 'p', id: view.post.id }, view.post.is_deleted === true) })}`
  if (view.repost_of) out += `,"repost_of":${shape(ctx, view.repost_of, users)}`
  return `${out}}`
}

/** What a kept answer showing this post must be dropped with: the post (its counts, the viewer's flags) and the users it embeds. */
function noteReads(reads: NonNullable<PresentContext['reads']>, view: PostView): void {
  reads.push({ kind: TOUCH.post, id: view.post.id })
  if (view.user) reads.push({ kind: TOUCH.user, id: view.user.id })
  for (const u of view.starred_by ?? []) reads.push({ kind: TOUCH.user, id: u.id })
  for (const u of view.reposters ?? []) reads.push({ kind: TOUCH.user, id: u.id })
}

/** Every user a set of views embeds, presented once each, as JSON text. */
async function presentedUsers(ctx: PresentContext, views: readonly PostView[]): Promise<Map<number, string>> {
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

/** Presents rows as JSON text kept whole by the envelope: computes each post's view for the request's viewer and options. */
export async function presentPostsJson(ctx: PresentContext, rows: readonly PostRow[]): Promise<RawJson[]> {
  const views = await ctx.views.postViews.views(rows, ctx.viewer, { starred_by: ctx.options.include_starred_by, reposters: ctx.options.include_reposters })
  const users = await presentedUsers(ctx, views)
  return views.map((v) => new RawJson(shape(ctx, v, users)))
}

/** Presents rows as objects, for answers that embed posts in other shapes. */
export async function presentPosts(ctx: PresentContext, rows: readonly PostRow[]): Promise<Record<string, unknown>[]> {
  return (await presentPostsJson(ctx, rows)).map((raw) => raw.toJSON() as Record<string, unknown>)
}

export async function presentPost(ctx: PresentContext, row: PostRow): Promise<RawJson> {
  return (await presentPostsJson(ctx, [row]))[0]
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
