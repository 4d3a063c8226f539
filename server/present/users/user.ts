/** The API shape of a User. */
import { imageOf, renderHtml, type ImageKind, type ImageSize, type UserRelation, type UserRow, type UserView } from '../../../data/index.js'
import type { User, UserDescription, UserImage, UserRelation as UserRelationFields } from '../../api/index.js'
import { renderAnnotations } from '../annotations.js'
import type { PresentContext } from '../context.js'

/** Where the server serves an image file; `w` and `h` ask for a resized copy. */
export const imageUrl = (baseUrl: string, file: string, size: ImageSize = {}): string => {
  const query = new URLSearchParams()
  if (size.w !== undefined) query.set('w', String(size.w))
  if (size.h !== undefined) query.set('h', String(size.h))
  const search = query.toString()
  return `${baseUrl}/images/${file}${search ? `?${search}` : ''}`
}

/** Where a browser reads about a user: the page server/routes/users/user-page.ts serves, or a remote account's page on its server. */
export const userCanonicalUrl = (baseUrl: string, user: UserRow): string => user.remote?.url ?? `${baseUrl}/@${user.username}`

// The URL names the file itself: an upload gets a new name, so clients may cache each URL forever.
// A remote account's image is svc's copy of it (or the default until there is one): never its server's address.
const image = (ctx: PresentContext, user: UserRow, kind: ImageKind): UserImage => {
  const { width, height, is_default, file } = imageOf(user, kind)
  return { width, height, is_default, url: imageUrl(ctx.baseUrl, file) }
}

/** The relation booleans as the API names them. */
export const relationFields = (relation: UserRelation): UserRelationFields => ({
  follows_you: relation.follows_you,
  you_follow: relation.you_follow,
  you_muted: relation.you_muted,
  you_blocked: relation.you_blocked,
  you_can_subscribe: relation.you_can_subscribe,
  you_can_follow: relation.you_can_follow,
  ...(relation.follow_pending === undefined ? {} : { follow_pending: relation.follow_pending }),
  // Deprecated names, still read by older clients.
  is_following: relation.you_follow,
  is_follower: relation.follows_you,
  is_muted: relation.you_muted,
})

/**
 * `user-json.ts` keeps this answer without `relation` as text per user row,
 * counts, base URL and `include_html` (annotations asked: not kept), then
 * adds `relationFields`: whatever else it comes to read must join that key.
 */
export function presentUserView(ctx: PresentContext, view: UserView): User {
  const { user, counts, relation } = view
  const o = ctx.options
  const description: UserDescription = { text: user.description.text, entities: user.description.entities }
  // A remote account's html is its server's, sanitised when it arrived.
  if (o.include_html !== false) description.html = user.remote ? user.remote.html : renderHtml(user.description.text, user.description.entities)
  const out: User = {
    id: String(user.id),
    username: user.username,
    name: user.name,
    description,
    timezone: user.timezone,
    locale: user.locale,
    avatar_image: image(ctx, user, 'avatar'),
    cover_image: image(ctx, user, 'cover'),
    type: user.type,
    created_at: user.created_at,
    canonical_url: userCanonicalUrl(ctx.baseUrl, user),
    counts,
  }
  if (user.verified_domain) out.verified_domain = user.verified_domain
  if (relation) Object.assign(out, relationFields(relation))
  if (o.include_annotations || o.include_user_annotations) out.annotations = renderAnnotations(ctx, user.annotations, { kind: 'u', id: user.id })
  return out
}

/** Presents rows: computes each user's view for the request's viewer. */
export async function presentUsers(ctx: PresentContext, users: readonly UserRow[]): Promise<User[]> {
  const views = await ctx.views.userViews.views(users, ctx.viewer)
  return views.map((v) => presentUserView(ctx, v))
}

export async function presentUser(ctx: PresentContext, user: UserRow): Promise<User> {
  return (await presentUsers(ctx, [user]))[0]
}
