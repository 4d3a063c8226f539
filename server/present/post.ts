/** The API shape of a Post, including the stripped shape of deleted posts and reposts' `repost_of`. */
import { renderHtml, type PostList, type PostRow, type PostView, type UserRow } from '../../data/index.js'
import type { Envelope } from '../envelope.js'
import type { PresentContext } from './context.js'
import { presentMarker } from './marker.js'
import { presentPage } from './page.js'
import { presentUsers } from './user.js'

const EMPTY_ENTITIES = { mentions: [], hashtags: [], links: [] }

/** Every user a set of views embeds, presented once each. */
async function presentedUsers(ctx: PresentContext, views: readonly PostView[]): Promise<Map<number, Record<string, unknown>>> {
  const byId = new Map<number, UserRow>()
  const collect = (v: PostView): void => {
    for (const u of [v.user, ...(v.starred_by ?? []), ...(v.reposters ?? [])]) if (u) byId.set(u.id, u)
    if (v.repost_of) collect(v.repost_of)
  }
  views.forEach(collect)
  const users = [...byId.values()]
  const shaped = await presentUsers(ctx, users)
  return new Map(users.map((u, i) => [u.id, shaped[i]]))
}

function shape(ctx: PresentContext, view: PostView, users: Map<number, Record<string, unknown>>): Record<string, unknown> {
  const { post } = view
  const o = ctx.options
  const out: Record<string, unknown> = {
    id: String(post.id),
    created_at: post.created_at,
    canonical_url: view.user ? `${ctx.baseUrl}/@${view.user.username}/post/${post.id}` : `${ctx.baseUrl}/posts/${post.id}`,
    machine_only: post.machine_only,
    num_replies: view.num_replies,
    num_reposts: view.num_reposts,
    num_stars: view.num_stars,
    source: view.app ? { client_id: view.app.client_id, link: view.app.link, name: view.app.name } : { client_id: '', link: '', name: 'svc' },
    thread_id: String(post.thread_id),
  }
  if (view.user) out.user = users.get(view.user.id)
  if (post.is_deleted) {
    Object.assign(out, { is_deleted: true, deleted: '1', entities: EMPTY_ENTITIES })
  } else {
    out.text = post.text
    out.entities = post.entities
    if (o.include_html !== false) out.html = renderHtml(post.text, post.entities)
  }
  if (post.reply_to !== undefined) out.reply_to = String(post.reply_to)
  if (view.you_starred !== undefined) out.you_starred = view.you_starred
  if (view.you_reposted !== undefined) out.you_reposted = view.you_reposted
  if (view.starred_by) out.starred_by = view.starred_by.map((u) => users.get(u.id))
  if (view.reposters) out.reposters = view.reposters.map((u) => users.get(u.id))
  if (o.include_annotations || o.include_post_annotations) out.annotations = post.annotations
  if (view.repost_of) out.repost_of = shape(ctx, view.repost_of, users)
  return out
}

/** Presents rows: computes each post's view for the request's viewer and options. */
export async function presentPosts(ctx: PresentContext, rows: readonly PostRow[]): Promise<Record<string, unknown>[]> {
  const views = await ctx.domain.postViews.views(rows, ctx.viewer, { starred_by: ctx.options.include_starred_by, reposters: ctx.options.include_reposters })
  const users = await presentedUsers(ctx, views)
  return views.map((v) => shape(ctx, v, users))
}

export async function presentPost(ctx: PresentContext, row: PostRow): Promise<Record<string, unknown>> {
  return (await presentPosts(ctx, [row]))[0]
}

/** A paginated list of posts, with its stream marker in `meta.marker` when the list has one. */
export async function presentPostList(ctx: PresentContext, list: PostList): Promise<Envelope> {
  const meta = list.marker ? { marker: presentMarker(list.marker.name, list.marker.row) } : {}
  return presentPage(list.page, (rows) => presentPosts(ctx, rows), meta)
}
