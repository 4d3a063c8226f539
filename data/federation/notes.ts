/**
 * A local post as ActivityStreams: a public `Note` (the html the API
 * renders, its reply parent, its mentions and hashtags), addressed to the
 * public with the author's followers in copy, and the `Create` that
 * published it. A deleted post is a `Tombstone`.
 */
import { Create, Document, Hashtag, Image, Mention, Note, PUBLIC_COLLECTION, Tombstone, type Context } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { renderHtml } from '../text/html.js'
import type { FederationSite } from './site.js'
import { postAddress } from './web-addresses.js'

/** The id of post `postId`'s Note. */
export const noteUri = (ctx: Context<void>, postId: number): URL => ctx.getObjectUri(Note, { id: String(postId) })

/** What a Note says of other servers' things: the remote accounts a post mentions (by user id), and the remote post it replies to with its author. */
export interface NoteLinks {
  remoteUsers: ReadonlyMap<string, UserRow>
  parent: PostRow | null
  /** The author of `parent` when that is a remote post. */
  parentAuthor?: UserRow | null
  /** The photos and files it carries, at addresses that last. */
  attachments?: NoteAttachment[]
}

/** A photo or a file a Note carries. */
export interface NoteAttachment {
  url: string
  image: boolean
  mediaType?: string
  width?: number
  height?: number
  /** The alt text: an oEmbed photo's title, a file's name. */
  name?: string
}

/** Renders the file marks annotations hold as addresses (data/annotations/rendering.ts). */
export interface AnnotationAddresses {
  render<T>(value: T, options: { baseUrl: string; grant: null; streamed: true }): T
}

/**
 * The remote accounts `post` mentions, its parent, a remote parent's author
 * and its attachments, read from `store`; `render` fills the annotations'
 * file addresses in at `origin`.
 */
export async function noteLinksOf(store: Store, post: PostRow, addresses: AnnotationAddresses, origin: string): Promise<NoteLinks> {
  const users = await store.read.users.getMany(post.entities.mentions.map((m) => Number(m.id)))
  const parent = post.reply_to === undefined ? null : await store.read.posts.get(post.reply_to)
  const parentAuthor = parent?.remote ? await store.read.users.get(parent.user_id) : null
  const rendered = addresses.render(post.annotations, { baseUrl: origin, grant: null, streamed: true })
  const attachments = attachmentsOf(rendered, await photoTypesOf(store, post, rendered))
  return { remoteUsers: new Map(users.filter((u) => u.remote).map((u) => [String(u.id), u])), parent, parentAuthor, attachments }
}

/** Attachments a Note carries at most. */
const MAX_ATTACHMENTS = 8

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const size = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined)

type Rendered = readonly { type: string; value: Record<string, unknown> }[]

/** The media types of the author's files that `post`'s oEmbed photos show, by file id: an oEmbed value names none. */
async function photoTypesOf(store: Store, post: PostRow, annotations: Rendered): Promise<Map<string, string>> {
  const ids = annotations.filter((a) => a.type === 'svc.core.oembed' && typeof a.value.file_id === 'string').map((a) => Number(a.value.file_id))
  const files = ids.length === 0 ? [] : await store.read.files.getMany(ids)
  return new Map(files.filter((f) => f.user_id === post.user_id && f.content).map((f) => [String(f.id), f.content!.mime_type]))
}

/**
 * The photos (`svc.core.oembed` of type photo, their media type from
 * `photoTypes` by file id) and files (`svc.core.attachments`) of rendered
 * `annotations` that have a lasting http(s) address: a short-lived one (a
 * private file's) is left out, as other servers keep what they are sent
 * and it must not reach further.
 */
export function attachmentsOf(annotations: Rendered, photoTypes: ReadonlyMap<string, string> = new Map()): NoteAttachment[] {
  const found: NoteAttachment[] = []
  const lasting = (v: Record<string, unknown>) => typeof v.url === 'string' && /^https?:\/\//.test(v.url) && v.url_expires === undefined
  for (const { type, value } of annotations) {
    if (type === 'svc.core.oembed' && value.type === 'photo' && lasting(value))
      found.push({
        url: value.url as string,
        image: true,
        mediaType: photoTypes.get(String(value.file_id)),
        width: size(value.width),
        height: size(value.height),
        name: text(value.title),
      })
    if (type === 'svc.core.attachments') {
      const list = value['svc.core.file_list'] ?? value['+svc.core.file_list']
      for (const file of Array.isArray(list) ? (list as Record<string, unknown>[]) : []) {
        if (!file || typeof file !== 'object' || !lasting(file)) continue
        const info = (file.image_info ?? {}) as Record<string, unknown>
        const mediaType = text(file.mime_type)
        found.push({
          url: file.url as string,
          image: mediaType?.startsWith('image/') ?? false,
          mediaType,
          width: size(info.width),
          height: size(info.height),
          name: text(file.name),
        })
      }
    }
  }
  return found.slice(0, MAX_ATTACHMENTS)
}

/** Post `post` by `author` as a Note; `links` names the remote accounts it mentions and the remote post it replies to. */
export function noteOf(
  ctx: Context<void>,
  site: FederationSite,
  post: PostRow,
  author: UserRow,
  links: NoteLinks = { remoteUsers: new Map(), parent: null },
): Note {
  const actor = ctx.getActorUri(String(author.id))
  const mentioned = post.entities.mentions.map((m) => {
    const remote = links.remoteUsers.get(m.id)?.remote
    return remote ? { href: new URL(remote.actor_id), name: `@${m.name}` } : { href: ctx.getActorUri(m.id), name: `@${m.name}@${site.authority}` }
  })
  const parentRemote = links.parent?.id === post.reply_to ? links.parent?.remote : undefined
  // A reply names the author it answers, mentioned in its text or not, as Mastodon and Misskey do: their servers show it to them then.
  const answered = parentRemote ? links.parentAuthor : null
  if (answered?.remote && !mentioned.some((m) => m.href.href === answered.remote!.actor_id))
    mentioned.push({ href: new URL(answered.remote.actor_id), name: `@${answered.username}` })
  return new Note({
    id: noteUri(ctx, post.id),
    attribution: actor,
    content: renderHtml(post.text, post.entities),
    url: new URL(postAddress(site.origin, author, post.id)),
    published: Temporal.Instant.from(post.created_at),
    replyTarget: post.reply_to === undefined ? null : parentRemote ? new URL(parentRemote.object_id) : noteUri(ctx, post.reply_to),
    to: PUBLIC_COLLECTION,
    // The people it mentions are addressed too, as Mastodon does, so their servers show it to them.
    ccs: [ctx.getFollowersUri(String(author.id)), ...mentioned.map((m) => m.href)],
    tags: [...mentioned.map((m) => new Mention(m)), ...post.entities.hashtags.map((h) => new Hashtag({ name: `#${h.name}` }))],
    attachments: (links.attachments ?? []).map((a) => {
      const fields = { url: new URL(a.url), mediaType: a.mediaType, width: a.width, height: a.height, name: a.name }
      return a.image ? new Image(fields) : new Document(fields)
    }),
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
