/**
 * Who on other servers a local post or profile goes to: the remote
 * followers of its author, the remote accounts a post mentions and the
 * author of the remote post it replies to. Read from the store alone, so
 * an instance with no remote peer never loads Fedify to find that out.
 */
import type { PostRow } from '../../model/post.js'
import type { UserRow } from '../../model/user.js'
import type { Store } from '../../store/port.js'
import { isModerated } from '../../users/moderated-users.js'

/** Follows read per page of followers. */
const PAGE = 500

/** The live remote accounts following `user`. */
export async function remoteFollowersOf(store: Store, user: UserRow): Promise<UserRow[]> {
  const r = store.read
  const found: UserRow[] = []
  let before: number | undefined
  for (;;) {
    const ids = await r.follows.ids('target', user.id, { limit: PAGE, ...(before === undefined ? {} : { before }) })
    if (ids.length === 0) return found
    before = ids[ids.length - 1]
    const follows = await r.follows.getMany(ids)
    const users = await r.users.getMany(follows.map((f) => f.user_id))
    found.push(...users.filter((u) => u.remote && !isModerated(u)))
    if (ids.length < PAGE) return found
  }
}

/** Where local post `post` by `author` goes on other servers: remote followers, remote accounts mentioned, a remote parent's author; each once. */
export async function remoteAudienceOf(store: Store, post: PostRow, author: UserRow): Promise<UserRow[]> {
  if (post.remote || post.machine_only || post.repost_of !== undefined || author.remote) return []
  const r = store.read
  const mentioned = await r.users.getMany(post.entities.mentions.map((m) => Number(m.id)))
  const parent = post.reply_to === undefined ? null : await r.posts.get(post.reply_to)
  const parentAuthor = parent?.remote ? await r.users.get(parent.user_id) : null
  const all = [...(await remoteFollowersOf(store, author)), ...mentioned, ...(parentAuthor ? [parentAuthor] : [])]
  const seen = new Set<number>()
  return all.filter((u) => u.remote && !isModerated(u) && !seen.has(u.id) && seen.add(u.id))
}

/** Remote accounts read per page while looking for every server svc knows of. */
const KNOWN_PAGE = 1000

/**
 * One live remote account per server svc knows of (its inbox stands for the
 * server's shared inbox, which Fedify prefers): the audience of what every
 * server should hear, such as a local account's deletion.
 */
export async function knownRemoteAccounts(store: Store): Promise<UserRow[]> {
  const r = store.read
  const byServer = new Map<string, UserRow>()
  let since = 0
  for (;;) {
    const ids = await r.users.scan({ since, limit: KNOWN_PAGE, order: 'asc' }, (u) => u.remote !== undefined && !isModerated(u))
    if (ids.length === 0) return [...byServer.values()]
    since = ids[ids.length - 1]
    for (const user of await r.users.getMany(ids)) {
      const server = user.remote!.shared_inbox ?? new URL(user.remote!.inbox).host
      if (!byServer.has(server)) byServer.set(server, user)
    }
    if (ids.length < KNOWN_PAGE) return [...byServer.values()]
  }
}
