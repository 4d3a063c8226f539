/**
 * Messages in channels: creation (the text pipeline, replies threaded within
 * the channel, machine-only rules), deletion by the creator, and reads as a
 * viewer may see them. Sending to channel `pm` goes through private-messages.ts.
 */
import type { AnnotationReplacer } from '../annotations/replacements.js'
import { forbidden, invalid, notFound } from '../errors.js'
import { MESSAGE_MAX_LENGTH } from '../limits.js'
import type { ChannelRow, MarkerRow, MessageRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { paginate, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Store, Tx } from '../store/port.js'
import { checkMachineOnly, fillTemplates, processText, type EntitiesInput } from '../text/process.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { messageAnnotations } from './channel-annotations.js'
import { namedMembers, PM_TYPE, type ChannelAccess } from './channel-acl.js'
import { actingUser } from '../users/acting-user.js'
import { channelMarkerName, type MarkerService } from './markers.js'
import { blockedEitherWay, hasRelation } from '../relations/relation-reads.js'
import { autoSubscribe, subscriberIdsAfter, subscriberIdsOf } from './subscriptions.js'
import type { UserService } from '../users/users.js'

export interface CreateMessageInput {
  text?: string
  reply_to?: number | string
  annotations?: unknown
  entities?: EntitiesInput
  machine_only?: boolean
}

/** The message general parameters that filter lists. */
export interface MessageFilter {
  /** Default true. */
  include_deleted?: boolean
  /** Default false. */
  include_machine?: boolean
  /** Messages by users the viewer muted; default false. */
  include_muted?: boolean
}

/** A message ready to insert, its text processed and its parent checked. */
export type PreparedMessage = Omit<MessageRow, 'id' | 'channel_id' | 'thread_id'> & { parent?: MessageRow }

export class MessageService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly users: UserService,
    private readonly markers: MarkerService,
    /** Resolves replacement values; without it they are refused. */
    private readonly replacer?: AnnotationReplacer,
  ) {}

  /**
   * Sends a message to a channel the viewer can write to. Answers the message.
   * Errors: `not_found` (unknown or unreadable channel), `forbidden` (no
   * write access, a block between the sender and another member of a PM
   * channel, a reply across a block), `invalid` (inactive channel, text,
   * entities, annotations, machine-only in a PM channel, a reply outside the
   * channel). In a PM channel the members are auto-subscribed as their
   * preferences allow.
   * Emits `subscription.added` per member subscribed, then `message.created`.
   * The sender's own marker does not move.
   */
  async create(viewer: Viewer, channelId: number, input: CreateMessageInput): Promise<MessageRow> {
    const sender = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    if (!(await this.access.canWrite(viewer, channel))) throw forbidden('you cannot write to this channel')
    if (channel.type === PM_TYPE) await this.checkNoBlock(sender, channel)
    const prepared = await this.prepare(viewer, channel, input)
    return this.store.transact(async (tx) => {
      const { message, subscribed } = await this.deliver(tx, channel, prepared, sender)
      await this.emitDelivered(tx, channel, message, subscribed)
      return message
    })
  }

  /**
   * Inserts a prepared message inside a transaction; in a PM channel also
   * auto-subscribes its members. Answers the message and who was subscribed.
   */
  async deliver(tx: Tx, channel: ChannelRow, prepared: PreparedMessage, sender: UserRow): Promise<{ message: MessageRow; subscribed: number[] }> {
    const subscribed = channel.type === PM_TYPE ? await autoSubscribe(tx, channel, namedMembers(channel), sender) : []
    return { message: this.insert(tx, channel, prepared), subscribed }
  }

  /**
   * In the transaction that delivered `message`: `subscription.added` per
   * newly subscribed member, then `message.created` with the subscribers as
   * they are once it commits (`subscribed` included).
   */
  async emitDelivered(tx: Tx, channel: ChannelRow, message: MessageRow, subscribed: readonly number[]): Promise<void> {
    for (const user of await tx.users.getMany(subscribed)) tx.emit('subscription.added', { channel, user })
    tx.emit('message.created', { message, channel, subscribed_user_ids: await subscriberIdsAfter(tx, channel.id, subscribed) })
  }

  /**
   * Checks and processes a message for `channel` (which may still be unsaved
   * for a new PM group: `id` 0). Errors: `invalid` as for `create`.
   */
  async prepare(viewer: Viewer, channel: Pick<ChannelRow, 'id' | 'type' | 'is_inactive'>, input: CreateMessageInput): Promise<PreparedMessage> {
    const sender = actingUser(viewer)
    if (channel.is_inactive) throw invalid('the channel is inactive; it takes no new messages')
    const machineOnly = input.machine_only === true
    if (machineOnly && channel.type === PM_TYPE) throw invalid('private messages cannot be machine_only')
    // Messages are not public objects: their file addresses are short-lived.
    const given = this.replacer ? await this.replacer.replace(input.annotations, { userId: sender.id, publicParent: false }) : input.annotations
    const annotations = messageAnnotations(given, channel.type)
    if (machineOnly) checkMachineOnly('message', input.text, annotations.length)
    const parent = input.reply_to === undefined ? undefined : await this.replyParent(sender, channel.id, input.reply_to)
    const processed = await processText(input.text ?? '', input.entities, {
      maxLength: MESSAGE_MAX_LENGTH,
      findUser: (username) => this.mentionable(sender, username),
      findUserById: (id) => this.users.get(id),
      allowEmpty: machineOnly,
      allowUserMentions: machineOnly,
    })
    if (!machineOnly && processed.text.trim() === '') throw invalid('text is required')
    return {
      user_id: sender.id,
      text: processed.text,
      entities: processed.entities,
      annotations,
      machine_only: machineOnly,
      ...(parent ? { reply_to: parent.id, parent } : {}),
      app_id: viewer.app?.id ?? 0,
      created_at: isoNow(),
    }
  }

  private insert(tx: Tx, channel: ChannelRow, prepared: PreparedMessage): MessageRow {
    const { parent, ...fields } = prepared
    const row = tx.messages.insert({ ...fields, channel_id: channel.id, thread_id: parent ? parent.thread_id : 0 })
    // The id is known only now: it roots a new thread and fills `{message_id}` templates.
    return tx.messages.put({ ...row, thread_id: parent ? parent.thread_id : row.id, entities: fillTemplates(row.entities, { message_id: String(row.id) }) })
  }

  /**
   * Deletes one of the viewer's messages, even from a channel they can no
   * longer read. Its text and entities are wiped; the row stays. Answers the
   * deleted message (again on a second delete). Errors: `not_found`,
   * `forbidden` (not the creator). Emits `message.deleted`.
   */
  async delete(viewer: Viewer, channelId: number, messageId: number): Promise<MessageRow> {
    const me = actingUser(viewer)
    const { message, channel } = await this.located(channelId, messageId)
    if (message.user_id !== me.id) {
      if (await this.visible(viewer, message, channel)) throw forbidden('only the creator of a message can delete it')
      throw notFound(`message ${messageId} not found`)
    }
    if (!this.access.tokenMaySee(viewer, channel)) throw notFound(`message ${messageId} not found`)
    if (message.is_deleted) return message
    return this.store.transact(async (tx) => {
      const deleted = tx.messages.put({ ...message, is_deleted: true, text: '', entities: { mentions: [], hashtags: [], links: [] } })
      tx.emit('message.deleted', { message: deleted, channel, subscribed_user_ids: await subscriberIdsOf(tx, channel.id) })
      return deleted
    })
  }

  /** One message of a channel as the viewer may see it (deleted ones too). Errors: `not_found`. */
  async get(viewer: Viewer, channelId: number, messageId: number): Promise<MessageRow> {
    const { message, channel } = await this.located(channelId, messageId)
    if (!(await this.visible(viewer, message, channel))) throw notFound(`message ${messageId} not found`)
    return message
  }

  /** The messages among `ids`, across channels, the viewer may see; others are left out. */
  async getMany(viewer: Viewer, ids: readonly number[]): Promise<MessageRow[]> {
    const out: MessageRow[] = []
    for (const message of await this.store.read.messages.getMany(ids)) {
      const channel = await this.store.read.channels.get(message.channel_id)
      if (channel && (await this.visible(viewer, message, channel))) out.push(message)
    }
    return out
  }

  /**
   * A page of a readable channel's messages, newest first, with the viewer's
   * `channel:<id>` marker (null while unset; `since_id=last_read` and the
   * like page from it). Errors: `not_found`, `invalid` (marker words without a marker).
   */
  async inChannel(
    viewer: Viewer,
    channelId: number,
    input: PageInput,
    filter: MessageFilter,
  ): Promise<{ page: Page<MessageRow>; marker: MarkerRow | null; marker_name: string }> {
    const user = actingUser(viewer)
    const channel = await this.access.readable(viewer, channelId)
    const r = this.store.read
    const marker_name = channelMarkerName(channel.id)
    const marker = await this.markers.find(user.id, marker_name)
    const keep = await this.listFilter(viewer, filter)
    const page = await paginate(
      resolvePage(input, marker),
      (range) => r.messages.ids('channel', channel.id, range),
      (ids) => Promise.all(ids.map((id) => r.messages.get(id))),
      keep,
    )
    return { page, marker, marker_name }
  }

  /** A page of the viewer's own messages across channels their token reaches, newest first. */
  async mine(viewer: Viewer, query: PageInput, filter: MessageFilter): Promise<Page<MessageRow>> {
    const me = actingUser(viewer)
    const r = this.store.read
    const keep = await this.listFilter(viewer, filter)
    const reachable = async (m: MessageRow): Promise<boolean> => {
      const channel = await r.channels.get(m.channel_id)
      return channel !== null && this.access.tokenMaySee(viewer, channel) && (await keep(m))
    }
    return paginate(
      resolvePage(query),
      (range) => r.messages.ids('user', me.id, range),
      (ids) => Promise.all(ids.map((id) => r.messages.get(id))),
      reachable,
    )
  }

  /** The creator always sees their own message (if the token reaches the channel); others need read access. */
  private async visible(viewer: Viewer, message: MessageRow, channel: ChannelRow): Promise<boolean> {
    if (viewer.user?.id === message.user_id && this.access.tokenMaySee(viewer, channel)) return true
    return this.access.canRead(viewer, channel)
  }

  /**
   * Would `message` be listed in its channel for `viewer` with `filter`: the
   * channel readable (as the event had it and as it is now) and the message
   * through the list's flags (a user stream asks this of each new or deleted
   * message when it delivers it).
   */
  async listable(viewer: Viewer, channel: ChannelRow, message: MessageRow, filter: MessageFilter): Promise<boolean> {
    if (!(await this.access.canStillRead(viewer, channel))) return false
    return (await this.listFilter(viewer, filter))(message)
  }

  private async located(channelId: number, messageId: number): Promise<{ message: MessageRow; channel: ChannelRow }> {
    const message = await this.store.read.messages.get(messageId)
    const channel = message && message.channel_id === channelId ? await this.store.read.channels.get(channelId) : null
    if (!message || !channel) throw notFound(`message ${messageId} not found`)
    return { message, channel }
  }

  private async listFilter(viewer: Viewer, filter: MessageFilter): Promise<(m: MessageRow) => Promise<boolean>> {
    const me = viewer.user
    return async (m) => {
      if (m.is_deleted && filter.include_deleted === false) return false
      if (m.machine_only && !filter.include_machine) return false
      if (me && !filter.include_muted && m.user_id !== me.id && (await hasRelation(this.store.read, 'mutes', me.id, m.user_id))) return false
      return true
    }
  }

  private async replyParent(sender: UserRow, channelId: number, ref: number | string): Promise<MessageRow> {
    const id = Number(ref)
    const parent = Number.isSafeInteger(id) && id > 0 ? await this.store.read.messages.get(id) : null
    if (!parent || parent.channel_id !== channelId) throw invalid(`reply_to ${ref} is not a message of this channel`)
    if (parent.is_deleted) throw invalid('you cannot reply to a deleted message')
    // As with posts: nobody replies across a block.
    if (parent.user_id !== sender.id && (await blockedEitherWay(this.store.read, sender.id, parent.user_id)))
      throw forbidden('you cannot reply to this message')
    return parent
  }

  /**
   * A private conversation ends at a block: as a new `pm` to someone blocked
   * (or blocking) is refused, so is a message into an existing PM channel
   * with them, whichever of the two writes. Errors: `forbidden`.
   */
  private async checkNoBlock(sender: UserRow, channel: ChannelRow): Promise<void> {
    for (const id of namedMembers(channel)) {
      if (id !== sender.id && (await blockedEitherWay(this.store.read, sender.id, id))) {
        const other = await this.store.read.users.get(id)
        throw forbidden(`you cannot message ${other?.username ?? 'this user'}`)
      }
    }
  }

  /** Mentions link existing users; a bot's link only its followers. */
  private async mentionable(sender: UserRow, username: string): Promise<UserRow | null> {
    const user = await this.users.byUsername(username)
    if (!user || sender.type !== 'bot' || user.id === sender.id) return user
    return (await hasRelation(this.store.read, 'follows', user.id, sender.id)) ? user : null
  }
}
