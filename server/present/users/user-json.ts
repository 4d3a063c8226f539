/**
 * Users as JSON text for the post presenters: a page of posts embeds the same
 * authors over and over, for every viewer. The part no viewer changes (the
 * profile, its html, image urls, counts) is kept as text per user row and
 * counts, so a user is shaped and serialized again only when its row is
 * replaced or a count moves; the viewer's relation is added per request.
 */
import type { UserCounts, UserRelation, UserRow, UserView } from '../../../data/index.js'
import type { User, UserRelation as UserRelationFields } from '../../api/index.js'
import { fieldsOf, RawJson, type JsonFields } from '../../json-text.js'
import type { PresentContext } from '../context.js'
import { textCachePerDomain } from '../text-cache.js'
import { presentUserView, relationFields } from './user.js'

interface Kept {
  user: UserRow
  counts: UserCounts
  baseUrl: string
  html: boolean
  fields: JsonFields<User>
}

const keptOf = textCachePerDomain<Kept>({ max: 5_000, maxChars: 8_000_000, charsOf: (kept) => kept.fields.text.length })

const sameCounts = (a: UserCounts, b: UserCounts): boolean =>
  a.following === b.following && a.followers === b.followers && a.posts === b.posts && a.stars === b.stars

/** The fields of the view without its relation, from the cache when row, counts and options match. */
function withoutRelation(ctx: PresentContext, view: UserView): JsonFields<User> {
  const cache = keptOf(ctx.views)
  const html = ctx.options.include_html !== false
  const kept = cache.get(view.user.id)
  if (kept && kept.user === view.user && kept.baseUrl === ctx.baseUrl && kept.html === html && sameCounts(kept.counts, view.counts)) return kept.fields
  const fields = fieldsOf(presentUserView(ctx, { user: view.user, counts: view.counts }))
  cache.set(view.user.id, { user: view.user, counts: { ...view.counts }, baseUrl: ctx.baseUrl, html, fields })
  return fields
}

/** The relation's fields as text: six flags can be only 64 ways, each made once. */
const relationTexts: JsonFields<UserRelationFields>[] = []

function relationText(r: UserRelation): JsonFields<UserRelationFields> {
  const ways = +r.follows_you | (+r.you_follow << 1) | (+r.you_muted << 2) | (+r.you_blocked << 3) | (+r.you_can_subscribe << 4) | (+r.you_can_follow << 5)
  return (relationTexts[ways] ??= fieldsOf(relationFields(r)))
}

/** `presentUserView(ctx, view)` as JSON text, without shaping the unchanged part again. */
export function userViewJson(ctx: PresentContext, view: UserView): RawJson<User> {
  // Annotations come after the relation fields: rarely asked, shaped whole.
  if (ctx.options.include_annotations || ctx.options.include_user_annotations) return RawJson.of(presentUserView(ctx, view))
  const base = withoutRelation(ctx, view)
  return view.relation ? base.and(relationText(view.relation)).object() : base.object()
}

/** The users' views for the request's viewer, as JSON text, in order. */
export async function presentUsersJson(ctx: PresentContext, users: readonly UserRow[]): Promise<RawJson<User>[]> {
  const views = await ctx.views.userViews.views(users, ctx.viewer)
  return views.map((v) => userViewJson(ctx, v))
}
