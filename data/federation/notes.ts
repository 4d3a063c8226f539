/**
 * A local post as ActivityStreams: a public `Note` (the html the API
 * renders, its reply parent, its mentions and hashtags), addressed to the
 * public with the author's followers in copy, and the `Create` that
 * published it. A deleted post is a `Tombstone`.
 */
import { Create, Hashtag, Mention, Note, PUBLIC_COLLECTION, Tombstone, type Context } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import { renderHtml } from '../text/html.js'
import type { FederationSite } from './site.js'
import { postAddress } from './web-addresses.js'

/** The id of post `postId`'s Note. */
export const noteUri = (ctx: Context<void>, postId: number): URL => ctx.getObjectUri(Note, { id: String(postId) })

/** Post `post` by `author` as a Note. */
export function noteOf(ctx: Context<void>, site: FederationSite, post: PostRow, author: UserRow): Note {
  const actor = ctx.getActorUri(String(author.id))
  return new Note({
    id: noteUri(ctx, post.id),
    attribution: actor,
    content: renderHtml(post.text, post.entities),
    url: new URL(postAddress(site.origin, author, post.id)),
    published: Temporal.Instant.from(post.created_at),
    replyTarget: post.reply_to === undefined ? null : noteUri(ctx, post.reply_to),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(String(author.id)),
    tags: [
      ...post.entities.mentions.map((m) => new Mention({ href: ctx.getActorUri(m.id), name: `@${m.name}@${site.authority}` })),
      ...post.entities.hashtags.map((h) => new Hashtag({ name: `#${h.name}` })),
    ],
  })
}

/** The Create that published `note`, with an id of its own under the note's. */
export const createOf = (note: Note, post: PostRow): Create =>
  new Create({
    id: new URL(`${note.id!.href}/activity`),
    actor: note.attributionId,
    object: note,
    published: Temporal.Instant.from(post.created_at),
    to: PUBLIC_COLLECTION,
    ccs: note.ccIds,
  })

/** What stands at a deleted post's id. */
export const tombstoneOf = (ctx: Context<void>, post: PostRow): Tombstone => new Tombstone({ id: noteUri(ctx, post.id) })
