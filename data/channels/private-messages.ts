/**
 * Private messages: sending to channel `pm` with `destinations`. The group
 * (sender plus destinations) finds its one `svc.core.pm` channel through the
 * unique `pm_key` index, whatever order or spelling the destinations come
 * in; a new group gets a new channel. Members are auto-subscribed as their
 * preferences allow and may all write.
 */
import { DomainError, forbidden, invalid } from '../errors.js'
import { MAX_DESTINATIONS } from '../limits.js'
import type { ChannelRow, MessageRow, RemoteMessage } from '../model/channel.js'
import type { Entities } from '../model/entities.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import { hasScope, type Viewer } from '../viewer.js'
import { PM_TYPE } from './channel-acl.js'
import { actingUser } from '../users/acting-user.js'
import { type CreateMessageInput, type MessageService } from './messages.js'
import { blockedEitherWay, hasRelation } from '../relations/relation-reads.js'
import type { UserService } from '../users/users.js'

/** The key of a PM group: its member ids, sorted, joined by `,`. */
export const pmKey = (memberIds: readonly number[]): string => [...new Set(memberIds)].sort((a, b) => a - b).join(',')

/** How many of a channel's latest messages are looked through for a Note that came already. */
const RECENT = 200

export class PrivateMessageService {
  constructor(
    private readonly store: Store,
    private readonly messages: MessageService,
    private readonly users: UserService,
  ) {}

  /**
   * Sends a private message to `destinations` (ids or `@name`). Answers the
   * message and its channel. Errors: `forbidden` (token without `messages`,
   * a block between sender and a destination, a bot starting a group with
   * someone who does not follow it), `invalid` (no or unknown destinations,
   * message rules as for any message). Emits `channel.created` for a new
   * group, `subscription.added` per member subscribed, `message.created`.
   */
  async send(
    viewer: Viewer,
    destinations: readonly (string | number)[] | undefined,
    input: CreateMessageInput,
  ): Promise<{ message: MessageRow; channel: ChannelRow }> {
    const sender = actingUser(viewer)
    if (!hasScope(viewer, 'messages')) throw new DomainError('forbidden', 'private messages need the messages scope', { slug: 'insufficient-scope' })
    const members = await this.members(viewer, sender, destinations)
    const key = pmKey(members.map((m) => m.id))
    const existing = await this.store.read.channels.one('pm_key', key)
    if (!existing) await this.checkBotReach(sender, members)
    const prepared = await this.messages.prepare(viewer, existing ?? { id: 0, type: PM_TYPE, is_inactive: false }, input)
    return this.store.transact(async (tx) => {
      const found = await tx.channels.one('pm_key', key)
      const channel = found ?? this.createChannel(tx, sender, members, key)
      const { message, subscribed } = await this.messages.deliver(tx, channel, prepared, sender)
      if (!found) tx.emit('channel.created', { channel, subscribed_user_ids: subscribed })
      await this.messages.emitDelivered(tx, channel, message, subscribed)
      return { message, channel }
    })
  }

  /**
   * A direct Note from remote account `author` to `recipients` (federation
   * read and vetted it): a message in the pm channel of the author and the
   * recipients, as a local sender's would be, made when the group has none.
   * Recipients who block the author (or whom the author blocks) are left
   * out; with no local recipient left, nothing is kept. The same Note again
   * answers the message it made. Emits as `send` does.
   */
  async receiveRemote(
    author: UserRow,
    recipients: readonly UserRow[],
    input: { text: string; entities: Entities; remote: RemoteMessage; created_at: string },
  ): Promise<{ message: MessageRow; channel: ChannelRow } | null> {
    if (!author.remote) throw invalid('only a remote account sends from another server')
    const members = new Map<number, UserRow>([[author.id, author]])
    for (const user of recipients) {
      if (user.id !== author.id && !(await blockedEitherWay(this.store.read, author.id, user.id))) members.set(user.id, user)
    }
    let key = pmKey([...members.keys()])
    // A remote bot keeps the App.net bot rule: it starts conversations only with its followers.
    if (author.type === 'bot' && !(await this.store.read.channels.one('pm_key', key))) {
      for (const user of [...members.values()])
        if (user.id !== author.id && !(await hasRelation(this.store.read, 'follows', user.id, author.id))) members.delete(user.id)
      key = pmKey([...members.keys()])
    }
    if (![...members.values()].some((m) => !m.remote)) return null
    return this.store.transact(async (tx) => {
      const found = await tx.channels.one('pm_key', key)
      if (found) {
        // A Note sent again (under another activity) is the message it made.
        for (const known of await tx.messages.getMany(await tx.messages.ids('channel', found.id, { limit: RECENT }))) {
          if (known.remote?.object_id === input.remote.object_id) return { message: known, channel: found }
        }
      }
      const channel = found ?? this.createChannel(tx, author, [...members.values()], key)
      const prepared = {
        user_id: author.id,
        text: input.text,
        entities: input.entities,
        annotations: [],
        machine_only: false,
        app_id: 0,
        created_at: input.created_at,
        remote: input.remote,
      }
      const { message, subscribed } = await this.messages.deliver(tx, channel, prepared, author)
      if (!found) tx.emit('channel.created', { channel, subscribed_user_ids: subscribed })
      await this.messages.emitDelivered(tx, channel, message, subscribed)
      return { message, channel }
    })
  }

  private createChannel(tx: Tx, sender: UserRow, members: readonly UserRow[], key: string): ChannelRow {
    const others = members.filter((m) => m.id !== sender.id).map((m) => m.id)
    return tx.channels.insert({
      type: PM_TYPE,
      owner_id: sender.id,
      // Reading follows from writing; every member writes, nobody may change who.
      readers: { any_user: false, immutable: true, public: false, user_ids: [] },
      writers: { any_user: false, immutable: true, public: false, user_ids: others },
      editors: { any_user: false, immutable: true, public: false, user_ids: [] },
      annotations: [],
      is_inactive: false,
      pm_key: key,
      created_at: isoNow(),
    })
  }

  /** The sender plus each destination once. */
  private async members(viewer: Viewer, sender: UserRow, destinations: readonly (string | number)[] | undefined): Promise<UserRow[]> {
    if (!destinations || destinations.length === 0) throw invalid('destinations must list at least one user')
    if (destinations.length > MAX_DESTINATIONS) throw invalid(`destinations lists at most ${MAX_DESTINATIONS} users`)
    const members = new Map<number, UserRow>([[sender.id, sender]])
    for (const ref of destinations) {
      const user = await this.users.find(ref, viewer).catch(() => null)
      if (!user) throw invalid(`destinations: unknown user ${ref}`)
      if (user.id !== sender.id && (await blockedEitherWay(this.store.read, sender.id, user.id))) throw forbidden(`you cannot message ${user.username}`)
      members.set(user.id, user)
    }
    if (members.size < 2) throw invalid('destinations must name someone besides you')
    return [...members.values()]
  }

  /** A bot initiates channels only with users who follow it. */
  private async checkBotReach(sender: UserRow, members: readonly UserRow[]): Promise<void> {
    if (sender.type !== 'bot') return
    for (const m of members) {
      if (m.id !== sender.id && !(await hasRelation(this.store.read, 'follows', m.id, sender.id)))
        throw forbidden(`a bot can only start conversations with its followers; ${m.username} does not follow it`)
    }
  }
}
