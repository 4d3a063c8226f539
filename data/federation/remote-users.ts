/**
 * Remote accounts as App.net users: an ActivityPub actor of another server
 * becomes a user row named `name@AUTHORITY` (AUTHORITY the host of the
 * actor's id, so a server names accounts only under its own host), with its
 * name, its description as sanitised html and as text, its images' URLs,
 * its profile page and its inboxes, marked `remote`: it cannot sign in and
 * holds no token. Found by handle through WebFinger and the actor's
 * document (Fedify's `lookupObject`, which refuses private addresses unless
 * allowed), kept by the actor's id, updated when the actor changes.
 */
import { Application, Image, isActor, Link, PropertyValue, Service, type Actor, type Context } from '@fedify/fedify'
import { NAME_MAX_LENGTH } from '../limits.js'
import type { RemoteAccount, UserRow, UserType } from '../model/user.js'
import type { Store } from '../store/port.js'
import { escapeText } from '../text/html.js'
import { remoteHtmlText, sanitizeRemoteHtml } from '../text/remote-html.js'
import { isoNow } from '../time.js'
import { REMOTE_HANDLE_PATTERN } from '../users/users.js'
import { storedBlockOf, underBlock, type ServerBlocks } from './domain-blocks.js'

/** How long finding a remote account may take, WebFinger and the actor's document together. */
export const LOOKUP_TIMEOUT_MS = 10_000

/** Longest description text kept of a remote account (App.net's own limit is 256; remote ones run longer). */
const DESCRIPTION_MAX = 5000

/** What a remote name may hold: Mastodon's and most servers' usernames. */
const REMOTE_NAME = /^[\w.-]{1,64}$/

const typeOf = (actor: Actor): UserType => (actor instanceof Service ? 'bot' : actor instanceof Application ? 'feed' : 'human')

/** An http(s) URL as text, or undefined. */
const webUrl = (url: URL | null | undefined): string | undefined => (url && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : undefined)

const hrefOf = (value: URL | Link | null | undefined): URL | null | undefined => (value instanceof Link ? value.href : value)

/** An image's URL (an Image's `url`, a Link's `href`), or undefined; never throws (a remote image may be a document to fetch that fails). */
async function imageUrl(get: () => Promise<Image | null>): Promise<string | undefined> {
  try {
    const image = await get()
    return image ? webUrl(hrefOf(image.url)) : undefined
  } catch {
    return undefined
  }
}

/** Answers `promise`, or null once `ms` passed. */
export async function withinTime<T>(promise: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms)
  })
  try {
    return await Promise.race([promise.catch(() => null), late])
  } finally {
    clearTimeout(timer)
  }
}

/** Profile fields shown at most. */
const MAX_FIELDS = 8

/**
 * The profile fields of `actor` (Mastodon's `PropertyValue` attachments:
 * a name, an html value) as paragraphs `name: value`, after the bio: App.net
 * users have a description only. Fields not embedded are not fetched.
 */
async function profileFieldsHtml(actor: Actor, ctx: Context<void>): Promise<string> {
  const paragraphs: string[] = []
  try {
    for await (const item of actor.getAttachments({ documentLoader: noFetch, contextLoader: ctx.contextLoader })) {
      if (!(item instanceof PropertyValue) || !item.name || !item.value) continue
      const name = remoteHtmlText(item.name.toString()).text.trim()
      if (name !== '') paragraphs.push(`<p>${escapeText(name)}: ${sanitizeRemoteHtml(item.value.toString())}</p>`)
      if (paragraphs.length >= MAX_FIELDS) break
    }
  } catch {
    // An attachment given by address only: the fields before it are kept.
  }
  return paragraphs.join('')
}

const noFetch = (): Promise<never> => Promise.reject(new Error('not fetched'))

/** What a user row of `actor` holds, or null when the actor lacks what an account needs (an id, a name, an inbox). */
export async function remoteProfileOf(ctx: Context<void>, actor: Actor): Promise<Omit<UserRow, 'id'> | null> {
  const id = actor.id
  const name = actor.preferredUsername?.toString() ?? ''
  const inbox = webUrl(actor.inboxId)
  if (!webUrl(id) || !REMOTE_NAME.test(name) || !inbox) return null
  const username = `${name}@${id!.host}`
  const loader = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader }
  const html = sanitizeRemoteHtml((actor.summary?.toString() ?? '') + (await profileFieldsHtml(actor, ctx)))
  const text = [...remoteHtmlText(html).text].slice(0, DESCRIPTION_MAX).join('')
  const displayName = [...remoteHtmlText(actor.name?.toString() ?? '').text.replace(/\s+/g, ' ')].slice(0, NAME_MAX_LENGTH).join('') || name
  const remote: RemoteAccount = {
    actor_id: id!.href,
    inbox,
    url: webUrl(hrefOf(actor.url)) ?? id!.href,
    html,
    fetched_at: isoNow(),
  }
  const sharedInbox = webUrl(actor.endpoints?.sharedInbox)
  if (sharedInbox) remote.shared_inbox = sharedInbox
  const followers = webUrl(actor.followersId)
  if (followers) remote.followers = followers
  const avatar = await imageUrl(() => actor.getIcon(loader))
  if (avatar) remote.avatar_url = avatar
  const cover = await imageUrl(() => actor.getImage(loader))
  if (cover) remote.cover_url = cover
  return {
    username,
    username_key: username.toLowerCase(),
    name: displayName,
    type: typeOf(actor),
    locale: 'en_US',
    timezone: 'UTC',
    description: { text, entities: { mentions: [], hashtags: [], links: [] } },
    annotations: [],
    created_at: actor.published ? new Date(actor.published.epochMilliseconds).toISOString() : isoNow(),
    remote,
  }
}

/**
 * The user row of `actor`, made or brought up to date: null when the actor
 * lacks what an account needs, or when its name on its host is another
 * actor's already (the first keeps it). Emits `user.created` or `user.updated`.
 */
export async function keepRemoteUser(ctx: Context<void>, store: Store, actor: Actor): Promise<UserRow | null> {
  const fetched = await remoteProfileOf(ctx, actor)
  if (!fetched) return null
  const block = await storedBlockOf(store.read, fetched.remote!.actor_id)
  // A suspended server's accounts are neither made nor brought up to date.
  if (block && !block.silence) return null
  const profile = underBlock(fetched, block)
  return store.transact(async (tx) => {
    const known = await tx.users.one('actor', profile.remote!.actor_id)
    if (known) {
      if (known.deleted_at !== undefined) return null
      const holder = await tx.users.one('username', profile.username_key)
      // A rename onto a name another actor holds keeps the old name.
      const named = holder && holder.id !== known.id ? { username: known.username, username_key: known.username_key } : {}
      const user = tx.users.put({ ...known, ...profile, ...named, created_at: known.created_at })
      tx.emit('user.updated', { user })
      return user
    }
    if (await tx.users.one('username', profile.username_key)) return null
    const user = tx.users.insert(profile)
    tx.emit('user.created', { user })
    return user
  })
}

/**
 * The remote user of actor id `actorId`, from the store, or fetched and
 * kept the first time (unless `blocks` refuse its server); null when it
 * cannot be had.
 */
export async function remoteUserByActor(ctx: Context<void>, store: Store, actorId: URL, blocks?: ServerBlocks): Promise<UserRow | null> {
  const known = await store.read.users.one('actor', actorId.href)
  if (known) return known.deleted_at === undefined ? known : null
  if (blocks?.suspends(actorId)) return null
  const actor = await withinTime(ctx.lookupObject(actorId), LOOKUP_TIMEOUT_MS)
  return isActor(actor) && actor.id?.href === actorId.href ? keepRemoteUser(ctx, store, actor) : null
}

/**
 * Finds the account of `handle` (`name@authority`) on its server: WebFinger
 * over https, and, where private addresses are allowed (instances on one
 * machine, tests), over plain http when https finds nothing; then the
 * actor's document. Null when nothing answers in time, the answer is no
 * actor, or the handle is this instance's own.
 */
export async function lookUpRemoteUser(
  ctx: Context<void>,
  store: Store,
  handle: string,
  options: { localAuthority: string; allowPrivateAddress: boolean },
): Promise<UserRow | null> {
  const match = REMOTE_HANDLE_PATTERN.exec(handle)
  if (!match) return null
  const [, name, authority] = match
  if (authority.toLowerCase() === options.localAuthority.toLowerCase()) return null
  const find = async (): Promise<Actor | null> => {
    const found = await ctx.lookupObject(`acct:${name}@${authority}`).catch(() => null)
    if (isActor(found)) return found
    if (!options.allowPrivateAddress) return null
    const self = await plainWebFinger(name, authority)
    const actor = self ? await ctx.lookupObject(self).catch(() => null) : null
    return isActor(actor) ? actor : null
  }
  const actor = await withinTime(find(), LOOKUP_TIMEOUT_MS)
  return actor ? keepRemoteUser(ctx, store, actor) : null
}

/** The `self` link of `acct:name@authority` by WebFinger over http, or null. */
async function plainWebFinger(name: string, authority: string): Promise<URL | null> {
  try {
    const url = new URL(`http://${authority}/.well-known/webfinger`)
    url.searchParams.set('resource', `acct:${name}@${authority}`)
    const res = await fetch(url, { headers: { accept: 'application/jrd+json' }, redirect: 'error', signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) })
    if (!res.ok) return null
    const jrd = (await res.json()) as { links?: { rel?: unknown; type?: unknown; href?: unknown }[] }
    const self = (Array.isArray(jrd.links) ? jrd.links : []).find(
      (l) => l.rel === 'self' && typeof l.href === 'string' && (l.type === 'application/activity+json' || String(l.type).startsWith('application/ld+json')),
    )
    return self ? new URL(self.href as string) : null
  } catch {
    return null
  }
}
