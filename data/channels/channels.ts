/**
 * Channels: creation (the owner is auto-subscribed), retrieval by id, editing
 * by the owner, deactivation and the owner's list. PM channels are made by
 * messages (see messages.ts), never here.
 */
import type { AnnotationReplacer } from '../annotations/replacements.js'
import { DomainError, forbidden, invalid } from '../errors.js'
import type { Annotation } from '../model/entities.js'
import type { Acl, ChannelRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { paginate, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import { pair } from '../store/schema.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { aclLevel, atLeast, BROADCAST_TYPE, PM_TYPE, type ChannelAccess } from './channel-acl.js'
import { actingUser } from '../users/acting-user.js'
import { channelAnnotations, mergeChannelAnnotations } from './channel-annotations.js'
import { buildAcl, checkBroadcastAcls, checkChannelType, emptyAcl, type AclInput, type AclName } from './channel-input.js'
import type { ChannelFilter, ChannelViewService } from './channel-views.js'
import { addSubscription, autoSubscribe, removeSubscription, subscriberIdsAfter, subscriberIdsOf } from './subscriptions.js'
import type { UserService } from '../users/users.js'

export interface CreateChannelInput {
  type: string
  readers?: AclInput
  writers?: AclInput
  editors?: AclInput
  annotations?: Annotation[]
  /** Subscribe everyone named on the ACLs, as their preferences allow (never on broadcast channels). */
  auto_subscribe?: boolean
}

export interface UpdateChannelInput {
  readers?: AclInput
  writers?: AclInput
  /** Merged by type into the stored ones; a type without a value removes it. */
  annotations?: (Annotation | { type: string })[]
  /** As on create: subscribe everyone named on the ACLs, as their preferences allow. */
  auto_subscribe?: boolean
}

const sameAcl = (a: Acl, b: Acl): boolean =>
  a.any_user === b.any_user &&
  a.immutable === b.immutable &&
  a.public === b.public &&
  a.user_ids.length === b.user_ids.length &&
  a.user_ids.every((id) => b.user_ids.includes(id))

/** The users an `auto_subscribe` reaches: everyone named on the channel's ACLs. */
const aclUserIds = (channel: ChannelRow): number[] => [...new Set([...channel.readers.user_ids, ...channel.writers.user_ids, ...channel.editors.user_ids])]

/** `subscription.added` for each of `userIds` newly subscribed in `tx`. */
async function emitSubscribed(tx: Tx, channel: ChannelRow, userIds: readonly number[]): Promise<void> {
  for (const user of await tx.users.getMany(userIds)) tx.emit('subscription.added', { channel, user })
}

export class ChannelService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly views: ChannelViewService,
    private readonly users: UserService,
    /** Resolves replacement values; without it they are refused. */
    private readonly replacer?: AnnotationReplacer,
  ) {}

  /**
   * Creates a channel owned by the viewer, who is subscribed to it. Answers
   * the channel. Errors: `invalid` (type, ACLs, annotations, unknown users),
   * `forbidden` (a bot naming users who do not follow it). Emits
   * `channel.created`, then `subscription.added` for the owner and for
   * everyone `auto_subscribe` reached.
   */
  async create(viewer: Viewer, input: CreateChannelInput): Promise<ChannelRow> {
    const owner = actingUser(viewer)
    checkChannelType(input.type)
    const acls = {} as Record<AclName, Acl>
    for (const name of ['readers', 'writers', 'editors'] as const) {
      acls[name] = await buildAcl(name, input[name], emptyAcl(), owner.id, input.type, (ref) => this.member(ref, viewer))
    }
    const annotations = channelAnnotations((await this.replaced(input.annotations ?? [], owner.id, acls.readers)) as unknown[], input.type)
    if (input.type === BROADCAST_TYPE) checkBroadcastAcls(acls.writers, acls.editors)
    await this.checkBotReach(owner, acls)
    return this.store.transact(async (tx) => {
      const channel = tx.channels.insert({ type: input.type, owner_id: owner.id, ...acls, annotations, is_inactive: false, created_at: isoNow() })
      await addSubscription(tx, channel.id, owner.id)
      const added = input.auto_subscribe === true ? await this.autoSubscribeIn(tx, channel, owner) : []
      tx.emit('channel.created', { channel, subscribed_user_ids: [owner.id, ...added] })
      await emitSubscribed(tx, channel, [owner.id, ...added])
      return channel
    })
  }

  /** Annotations with their replacement values resolved; file addresses are permanent when anyone may read the channel. */
  private async replaced(input: unknown, userId: number, readers: Acl): Promise<unknown> {
    return this.replacer ? this.replacer.replace(input, { userId, publicParent: readers.public }) : input
  }

  /** `auto_subscribe` inside a transaction; a broadcast channel is opt-in, so it reaches nobody. */
  private autoSubscribeIn(tx: Tx, channel: ChannelRow, initiator: UserRow): Promise<number[]> {
    if (channel.type === BROADCAST_TYPE) return Promise.resolve([])
    return autoSubscribe(tx, channel, aclUserIds(channel), initiator)
  }

  /** A channel the viewer can read, inactive ones included. Errors: `not_found`. */
  get(viewer: Viewer, id: number): Promise<ChannelRow> {
    return this.access.readable(viewer, id)
  }

  /** The channels among `ids` the viewer can read, in the order asked; others are left out. */
  async getMany(viewer: Viewer, ids: readonly number[]): Promise<ChannelRow[]> {
    const out: ChannelRow[] = []
    for (const channel of await this.store.read.channels.getMany(ids)) {
      if (await this.access.canRead(viewer, channel)) out.push(channel)
    }
    return out
  }

  /**
   * Edits a channel: only its owner, only `annotations` (merged by type),
   * `readers` and `writers`, and an ACL only while it is not immutable (one
   * sent back unchanged is fine). A subscriber the new ACLs no longer let
   * read is unsubscribed. Answers the channel.
   * Errors: `not_found`, `forbidden` (not the owner), `invalid` (immutable
   * ACL, inactive channel, bad input). Emits `subscription.removed` per
   * subscriber who lost read access, then `channel.updated`, then
   * `subscription.added` for everyone `auto_subscribe` reached.
   */
  async update(viewer: Viewer, id: number, input: UpdateChannelInput): Promise<ChannelRow> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, id)
    if (channel.owner_id !== user.id) throw forbidden('only the owner can edit this channel')
    if (channel.is_inactive) throw invalid('the channel is inactive')
    const next: ChannelRow = { ...channel }
    for (const name of ['readers', 'writers'] as const) {
      if (input[name] === undefined) continue
      const acl = await buildAcl(name, input[name], channel[name], channel.owner_id, channel.type, (ref) => this.member(ref, viewer))
      // Clients PUT back the whole channel they fetched; an immutable ACL sent unchanged is not an attempt to change it.
      if (sameAcl(acl, channel[name])) continue
      if (channel[name].immutable) throw invalid(`${name} of this channel are immutable`)
      next[name] = acl
    }
    if (channel.type === BROADCAST_TYPE) checkBroadcastAcls(next.writers, next.editors)
    if (input.annotations !== undefined) {
      const given = (await this.replaced(input.annotations, user.id, next.readers)) as unknown[]
      next.annotations = mergeChannelAnnotations(channel.annotations, given, channel.type)
    }
    await this.checkBotReach(user, next)
    return this.store.transact(async (tx) => {
      const updated = tx.channels.put(next)
      const lost = await this.unsubscribeWhoLostAccess(tx, updated)
      const added = input.auto_subscribe === true ? await this.autoSubscribeIn(tx, updated, user) : []
      const subscribers = (await subscriberIdsAfter(tx, updated.id, added)).filter((id) => !lost.includes(id))
      tx.emit('channel.updated', { channel: updated, subscribed_user_ids: subscribers })
      await emitSubscribed(tx, updated, added)
      return updated
    })
  }

  /**
   * Deactivates a channel for good: only the owner, never a PM channel.
   * Everyone is unsubscribed; messages are kept. Answers the channel.
   * Errors: `not_found`, `forbidden` (not the owner), `invalid` (PM channel).
   * Emits `subscription.removed` per subscriber, then `channel.updated`.
   */
  async deactivate(viewer: Viewer, id: number): Promise<ChannelRow> {
    const user = actingUser(viewer)
    // The endpoint asks for no messaging scope, so the owner reaches her channel whatever the token's scopes.
    const own = await this.store.read.channels.get(id)
    const channel = own?.owner_id === user.id ? own : await this.access.readable(viewer, id)
    if (channel.owner_id !== user.id) throw forbidden('only the owner can deactivate this channel')
    if (channel.type === PM_TYPE) throw invalid('private message channels cannot be deactivated')
    if (channel.is_inactive) return channel
    return this.store.transact(async (tx) => {
      const subs = await tx.subscriptions.getMany(await tx.subscriptions.ids('channel', channel.id, { limit: 1_000_000 }))
      for (const s of subs) tx.subscriptions.remove(s.id)
      const updated = tx.channels.put({ ...channel, is_inactive: true })
      for (const u of await tx.users.getMany(subs.map((s) => s.user_id))) tx.emit('subscription.removed', { channel: updated, user: u })
      tx.emit('channel.updated', { channel: updated, subscribed_user_ids: [] })
      return updated
    })
  }

  /**
   * Inside the transaction that changed `channel`'s ACLs: unsubscribes every
   * subscriber the ACLs no longer let read (losing access ends the
   * subscription, so nothing of the channel reaches them any more), emitting
   * `subscription.removed` for each. Answers their ids.
   */
  private async unsubscribeWhoLostAccess(tx: Tx, channel: ChannelRow): Promise<number[]> {
    const lost = (await subscriberIdsOf(tx, channel.id)).filter((id) => !atLeast(aclLevel(channel, id), 'read'))
    for (const id of lost) await removeSubscription(tx, channel, id)
    for (const u of await tx.users.getMany(lost)) tx.emit('subscription.removed', { channel, user: u })
    return lost
  }

  /** A page of the channels the viewer created, newest first, filtered by the channel general parameters. */
  async owned(viewer: Viewer, query: PageInput, filter: ChannelFilter): Promise<Page<ChannelRow>> {
    const user = actingUser(viewer)
    const r = this.store.read
    return paginate(
      resolvePage(query),
      (range) => r.channels.ids('owner', user.id, range),
      (ids) => this.rows(ids),
      this.views.filter(viewer, filter),
    )
  }

  private async rows(ids: number[]): Promise<(ChannelRow | null)[]> {
    return Promise.all(ids.map((id) => this.store.read.channels.get(id)))
  }

  /** A user named in an ACL. Errors: `invalid` for unknown users (a typo must not silently drop someone). */
  private async member(ref: string | number, viewer: Viewer): Promise<UserRow> {
    const user = await this.users.find(ref, viewer).catch((err: unknown) => {
      if (err instanceof DomainError) throw invalid(`user_ids: ${err.message}`)
      throw err
    })
    if (!user) throw invalid(`user_ids: unknown user ${ref}`)
    return user
  }

  /** A bot initiates channels only with users who follow it. */
  private async checkBotReach(owner: UserRow, acls: Record<AclName, Acl>): Promise<void> {
    if (owner.type !== 'bot') return
    for (const id of new Set([...acls.readers.user_ids, ...acls.writers.user_ids, ...acls.editors.user_ids])) {
      if (!(await this.store.read.follows.one('pair', pair(id, owner.id)))) throw forbidden('a bot can only add users who follow it to a channel')
    }
  }
}
