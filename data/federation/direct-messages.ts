/**
 * Private messages across servers. A message in an App.net private-message
 * channel (`svc.core.pm`) with members on other servers goes to them as a
 * direct `Note`: addressed to the channel's other members by name and to
 * nobody else (no public, no followers), mentioning them, delivered to
 * their own inboxes; deleting it sends the `Delete`. Its Note is served to
 * nobody: a message is never a public object.
 *
 * A verified `Create` of a Note addressed only to actors (no collection),
 * among them a local user, is the reverse: a message in the pm channel of
 * its author and the accounts it names that svc knows or can look up. It
 * never becomes a post, so it appears in no post stream.
 */
import { Create, Delete, Mention, Note, Tombstone, type Context, type InboxContext } from '@fedify/fedify'
import { Temporal } from '@js-temporal/polyfill'
import type { MessageRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import type { Store } from '../store/port.js'
import { renderHtml } from '../text/html.js'
import { isoNow } from '../time.js'
import { isModerated } from '../users/moderated-users.js'
import type { ServerBlocks } from './domain-blocks.js'
import { localUserAt, recipientOf } from './follows.js'
import { hashtagNames, isPublic, mentionedUsers, noteHtml, textAndEntities } from './remote-posts.js'
import { remoteUserByActor } from './remote-users.js'
import type { FederationSite } from './site.js'

/** The most accounts a direct Note may name and still be taken. */
const MAX_RECIPIENTS = 20

export interface DirectMessageParts {
  store: Store
  /** Servers nothing is fetched from. */
  blocks: ServerBlocks
  pm: {
    receiveRemote(
      author: UserRow,
      recipients: readonly UserRow[],
      input: { text: string; entities: MessageRow['entities']; remote: NonNullable<MessageRow['remote']>; created_at: string },
    ): Promise<unknown>
  }
}

/** Is `note` addressed to actors only, no collection (public, followers, anything else)? */
async function directRecipients(ctx: InboxContext<void>, { store, blocks }: DirectMessageParts, note: Note, author: UserRow): Promise<UserRow[] | null> {
  const ids = [...new Map([...note.toIds, ...note.ccIds].map((id) => [id.href, id])).values()]
  if (ids.length === 0 || ids.length > MAX_RECIPIENTS) return null
  const users: UserRow[] = []
  for (const id of ids) {
    if (id.href === author.remote!.actor_id) continue
    const local = await localUserAt(ctx, store, id)
    if (local) {
      users.push(local)
      continue
    }
    // A local account that is gone or suspended: left out.
    if (ctx.parseUri(id)?.type === 'actor') continue
    // The author's own followers collection, the public, a list: not a direct message.
    if (ctx.parseUri(id) !== null || id.href === author.remote!.followers || /#Public$|^as:Public$/.test(id.href)) return null
    const remote = await remoteUserByActor(ctx, store, id, blocks).catch(() => null)
    if (!remote) return null
    if (!isModerated(remote)) users.push(remote)
  }
  return users.some((u) => !u.remote) ? users : null
}

/**
 * A verified direct Note (not public) by `author`: a private message to the
 * local and remote accounts it is addressed to, when those are all
 * accounts and one of them is local. True when it was one.
 */
export async function keepDirectNote(ctx: InboxContext<void>, parts: DirectMessageParts, note: Note, author: UserRow): Promise<boolean> {
  if (!note.id || note.id.origin !== new URL(author.remote!.actor_id).origin) return false
  const recipients = await directRecipients(ctx, parts, note, author)
  if (!recipients) return false
  const html = noteHtml(note)
  const { text, entities } = textAndEntities(html, await mentionedUsers(ctx, parts.store, note), await hashtagNames(note))
  if (text.trim() === '') return true
  await parts.pm.receiveRemote(author, recipients, {
    text,
    entities,
    remote: { object_id: note.id.href, server: new URL(author.remote!.actor_id).host },
    created_at: note.published ? new Date(note.published.epochMilliseconds).toISOString() : isoNow(),
  })
  return true
}

/** The id of message `messageId`'s Note: under svc's own addresses, served to nobody. */
const messageNoteUri = (site: FederationSite, messageId: number): URL => new URL(`${site.origin}/ap/messages/${messageId}`)

/** Local user `author`'s message `message` in pm channel `channel` as a direct Note to `members` (everyone else in the channel). */
function directNoteOf(ctx: Context<void>, site: FederationSite, message: MessageRow, author: UserRow, members: UserRow[]): Note {
  const addressed = members.map((m) => ({
    href: m.remote ? new URL(m.remote.actor_id) : ctx.getActorUri(String(m.id)),
    name: `@${m.username}${m.remote ? '' : `@${site.authority}`}`,
  }))
  return new Note({
    id: messageNoteUri(site, message.id),
    attribution: ctx.getActorUri(String(author.id)),
    content: renderHtml(message.text, message.entities),
    published: Temporal.Instant.from(message.created_at),
    tos: addressed.map((a) => a.href),
    tags: addressed.map((a) => new Mention(a)),
  })
}

/**
 * Sends local `author`'s message in pm channel `channel` (or, `deleted`,
 * its Delete) to the channel's members on other servers, each at its own
 * inbox. `members`: the channel's other members.
 */
export async function sendDirectMessage(
  ctx: Context<void>,
  site: FederationSite,
  message: MessageRow,
  author: UserRow,
  members: UserRow[],
  deleted: boolean,
): Promise<void> {
  const remote = members.filter((m) => m.remote && !isModerated(m))
  if (remote.length === 0) return
  const actor = ctx.getActorUri(String(author.id))
  const note = directNoteOf(ctx, site, message, author, members)
  const activity = deleted
    ? new Delete({ id: new URL(`${note.id!.href}#delete`), actor, object: new Tombstone({ id: note.id }), tos: note.toIds })
    : new Create({ id: new URL(`${note.id!.href}/activity`), actor, object: note, published: note.published, tos: note.toIds })
  await ctx.sendActivity({ identifier: String(author.id) }, remote.map(recipientOf), activity)
}

/**
 * A verified Create whose Note is not addressed to the public: a private
 * message when it is a direct one (`keepDirectNote`). True when it was one,
 * or when it is nobody's to keep (not its author's, a moderated author's),
 * so no post is made of it; false for a public Note or one addressed to
 * its author's followers, which remote-posts.ts takes.
 */
export async function onDirectCreate(ctx: InboxContext<void>, parts: DirectMessageParts, create: Create): Promise<boolean> {
  const note = await create.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }).catch(() => null)
  if (!(note instanceof Note) || isPublic(note)) return false
  // Only the author sends its Note.
  if (!create.actorId || note.attributionId?.href !== create.actorId.href) return true
  const author = await remoteUserByActor(ctx, parts.store, create.actorId, parts.blocks)
  if (!author?.remote || isModerated(author)) return true
  // Not a direct one (addressed to the author's followers, say): a post, if anything (remote-posts.ts).
  return keepDirectNote(ctx, parts, note, author)
}
