/**
 * The operator's blocks of other servers (`svc federation block`). A block
 * of a domain covers its subdomains, one of `host:port` that server alone.
 * Suspending (the default) takes effect at once: the inboxes refuse what
 * the domain sends (before and after the queue), no delivery goes there,
 * no account of it is looked up or kept, and the accounts already known
 * are suspended, so they leave every stream, list and search (unblocking
 * restores those the block suspended, not those an admin did). Silencing
 * keeps the accounts out of the global stream and hashtag streams for those
 * who do not follow them; `reject_media` drops their avatars and covers.
 *
 * The blocks are read from the store when the domain opens and kept
 * current by their events, so every node sees a block as soon as it is
 * committed.
 */
import { invalid, notFound } from '../errors.js'
import type { EventLog } from '../events/event-log.js'
import type { FederationDomainBlockRow } from '../model/federation.js'
import type { UserRow } from '../model/user.js'
import type { Readers, Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'

const ALL = { limit: Number.MAX_SAFE_INTEGER }
/** Accounts changed per transaction when a block suspends or restores them. */
const BATCH = 200

/**
 * `input` as a block's domain: a host name (any case, IDN allowed, a
 * trailing dot dropped) or `host:port`. Errors: `invalid`.
 */
export function blockDomainOf(input: string): string {
  const text = input
    .trim()
    .replace(/\.$/, '')
    .replace(/\.(?=:\d+$)/, '')
  let url: URL | null = null
  try {
    url = /^[^/?#@\s]+$/.test(text) ? new URL(`http://${text}`) : null
  } catch {
    url = null
  }
  if (!url || url.hostname === '' || url.username !== '' || !/^[a-z0-9.:[\]-]+$/.test(url.host)) {
    throw invalid(`"${input}" is not a domain: give a host name such as example.social (or host:port for one server)`)
  }
  return url.host
}

/** Does the block of `domain` cover the server at `authority` (`host[:port]`)? */
export function covers(domain: string, authority: string): boolean {
  const host = authority.toLowerCase()
  if (domain.includes(':') && !domain.endsWith(']')) return host === domain
  const name = host.replace(/:\d+$/, '')
  return name === domain || name.endsWith(`.${domain}`)
}

/** The authority (`host[:port]`) of `where`: a URL, or an authority already. */
const authorityOf = (where: string | URL): string | null => {
  if (where instanceof URL) return where.host
  try {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(where) ? new URL(where).host : where.toLowerCase()
  } catch {
    return null
  }
}

/** The block covering `where` among `blocks`, the most specific one (a `host:port`, then the longest domain); null when none does. */
export function blockAmong(blocks: Iterable<FederationDomainBlockRow>, where: string | URL): FederationDomainBlockRow | null {
  const authority = authorityOf(where)
  if (!authority) return null
  let found: FederationDomainBlockRow | null = null
  for (const block of blocks) {
    if (covers(block.domain, authority) && (!found || block.domain.length > found.domain.length)) found = block
  }
  return found
}

/** The block covering `where`, read from the store: for the code paths that have no DomainBlocks at hand. */
export async function storedBlockOf(read: Readers, where: string | URL): Promise<FederationDomainBlockRow | null> {
  const rows = await read.federation_domain_blocks.getMany(await read.federation_domain_blocks.scan(ALL))
  return blockAmong(rows, where)
}

/** The server of remote account `user`: its actor's authority. */
const serverOf = (user: UserRow): string => new URL(user.remote!.actor_id).host

/** `user` as a block of its server leaves it: suspended, limited, without images; or as it was, once unblocked. */
export function underBlock<U extends Omit<UserRow, 'id'>>(user: U, block: FederationDomainBlockRow | null): U {
  if (!user.remote) return user
  const { blocked_by: blockedBy, limited: _limited, ...remote } = user.remote
  let next: U = { ...user, remote }
  // What a block did is undone first; what an admin did stays.
  if (blockedBy !== undefined) {
    const { suspended_at: _suspended, ...rest } = next
    next = rest as U
  }
  if (!block) return next
  if (block.reject_media) {
    // Its images' addresses and svc's copies of them (the copies' files are litter the next start sweeps).
    const { avatar_url: _avatar, cover_url: _cover, ...bare } = next.remote!
    const { avatar: _avatarCopy, cover: _coverCopy, ...rest } = next
    next = { ...(rest as U), remote: bare }
  }
  if (block.silence) return { ...next, remote: { ...next.remote!, limited: true } }
  if (next.suspended_at !== undefined) return next
  // Suspended by the block since it first was: the same time again.
  return { ...next, suspended_at: blockedBy !== undefined ? user.suspended_at! : isoNow(), remote: { ...next.remote!, blocked_by: block.domain } }
}

/** What the code that fetches from other servers asks of the blocks (and the allow-list). */
export interface ServerBlocks {
  suspends(where: string | URL | null | undefined): boolean
}

/** What is asked of the blocks before fetching media (remote-media.ts). */
export interface MediaBlocks {
  rejectsMedia(where: string | URL): boolean
}

export interface BlockOptions {
  silence?: boolean
  reject_media?: boolean
}

export class DomainBlocks implements ServerBlocks, MediaBlocks {
  private readonly blocks = new Map<string, FederationDomainBlockRow>()
  /** The allow-list (`federation.allowed_domains`): when it lists any, every server it does not cover is refused. */
  private readonly allowed: readonly string[]

  constructor(
    private readonly store: Store,
    events: EventLog,
    allowedDomains: readonly string[] = [],
  ) {
    this.allowed = allowedDomains.map((domain) => {
      try {
        return blockDomainOf(domain)
      } catch {
        throw invalid(`federation.allowed_domains: "${domain}" is not a domain (example.social) or host:port`)
      }
    })
    events.on('federation.domain_blocked', (e) => this.blocks.set(e.payload.block.domain, e.payload.block))
    events.on('federation.domain_unblocked', (e) => this.blocks.delete(e.payload.block.domain))
  }

  /** Reads the blocks from the store; once, when the domain opens. */
  async load(): Promise<void> {
    const r = this.store.read.federation_domain_blocks
    for (const block of await r.getMany(await r.scan(ALL))) this.blocks.set(block.domain, block)
  }

  /** Is any server refused or limited: a block, or an allow-list? */
  active(): boolean {
    return this.blocks.size > 0 || this.allowed.length > 0
  }

  /** Every block, by domain. */
  list(): FederationDomainBlockRow[] {
    return [...this.blocks.values()].sort((a, b) => a.domain.localeCompare(b.domain))
  }

  /** The block covering `where` (a URL or an authority); null when none does. */
  of(where: string | URL): FederationDomainBlockRow | null {
    return this.blocks.size === 0 ? null : blockAmong(this.blocks.values(), where)
  }

  /** Does the allow-list (if there is one) leave out the server at `where`? */
  leavesOut(where: string | URL): boolean {
    if (this.allowed.length === 0) return false
    const authority = authorityOf(where)
    return authority === null || !this.allowed.some((domain) => covers(domain, authority))
  }

  /** Is the server at `where` suspended (by a block, or left out by the allow-list): nothing taken from it, nothing sent to it? */
  suspends(where: string | URL | null | undefined): boolean {
    if (!where) return false
    if (this.leavesOut(where)) return true
    const block = this.of(where)
    return block !== null && !block.silence
  }

  /** Is no media taken from the server at `where`: suspended, or blocked with `reject_media`? */
  rejectsMedia(where: string | URL): boolean {
    return this.suspends(where) || this.of(where)?.reject_media === true
  }

  /**
   * Blocks `input` (a domain, or `host:port`), or changes its block; the
   * known accounts it covers are suspended or limited at once. Answers the
   * block and how many accounts it changed. Errors: `invalid`. Emits
   * `federation.domain_blocked`, and `user.suspended` or `user.updated`
   * for each account.
   */
  async block(input: string, options: BlockOptions = {}): Promise<{ block: FederationDomainBlockRow; accounts: number }> {
    const domain = blockDomainOf(input)
    const block = await this.store.transact(async (tx) => {
      const known = await tx.federation_domain_blocks.one('domain', domain)
      const fields = { domain, silence: options.silence === true, reject_media: options.reject_media === true }
      const row = known ? tx.federation_domain_blocks.put({ ...known, ...fields }) : tx.federation_domain_blocks.insert({ ...fields, created_at: isoNow() })
      tx.emit('federation.domain_blocked', { block: row })
      return row
    })
    return { block, accounts: await this.reapply(domain) }
  }

  /** Lifts the block of `input`; the accounts it suspended are restored. Errors: `invalid`, `not_found`. Emits `federation.domain_unblocked`. */
  async unblock(input: string): Promise<{ block: FederationDomainBlockRow; accounts: number }> {
    const domain = blockDomainOf(input)
    const block = await this.store.transact(async (tx) => {
      const known = await tx.federation_domain_blocks.one('domain', domain)
      if (!known) throw notFound(`${domain} is not blocked`)
      tx.federation_domain_blocks.remove(known.id)
      tx.emit('federation.domain_unblocked', { block: known })
      return known
    })
    return { block, accounts: await this.reapply(domain) }
  }

  /** Brings the known accounts of the servers `domain` covers in line with the blocks now in force; answers how many changed. */
  private async reapply(domain: string): Promise<number> {
    const r = this.store.read
    const ids = await r.users.scan({ ...ALL, order: 'asc' }, (u) => u.remote !== undefined && u.deleted_at === undefined && covers(domain, serverOf(u)))
    let changed = 0
    for (let i = 0; i < ids.length; i += BATCH) {
      changed += await this.store.transact(async (tx) => {
        let n = 0
        for (const id of ids.slice(i, i + BATCH)) n += (await this.apply(tx, id)) ? 1 : 0
        return n
      })
    }
    return changed
  }

  /** Account `id` under the blocks now in force, in `tx`; true when it changed. */
  private async apply(tx: Tx, id: number): Promise<boolean> {
    const user = await tx.users.get(id)
    if (!user?.remote) return false
    const next = underBlock(user, this.of(serverOf(user)))
    if (JSON.stringify(next) === JSON.stringify(user)) return false
    const saved = tx.users.put(next)
    if (saved.suspended_at !== undefined && user.suspended_at === undefined) tx.emit('user.suspended', { user: saved })
    else if (saved.suspended_at === undefined && user.suspended_at !== undefined) tx.emit('user.unsuspended', { user: saved })
    else tx.emit('user.updated', { user: saved })
    return true
  }
}
