/**
 * Stream markers: a user's read position in a named stream (`unified`,
 * `channel:<id>`, ...). `last_read_id` only moves forward unless a reset is
 * asked for; `version` changes on every update. Unread state of channels is
 * derived from the `channel:<id>` markers; sending a message never moves one.
 */
import { randomBytes } from 'node:crypto'
import { invalid, notFound } from '../errors.js'
import type { ChannelRow, MarkerRow } from '../model/channel.js'
import type { UserRow } from '../model/user.js'
import { pair } from '../store/schema.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import type { ChannelAccess } from './channel-acl.js'

export interface MarkerInput {
  name: string
  /** The item at the top of the viewport. */
  id?: number
  /** Scroll offset within that item, a percentage (clients send integers; the API calls it a number, so fractions are kept). */
  percentage?: number
}

/** `interactions`, svc's own: how far the user has read their interactions, by the list's pagination ids. */
const FIXED_NAMES = new Set(['unified', 'my_stream', 'global', 'interactions'])
const ID_NAME = /^(mentions|posts|channel):(\d{1,15})$/
const WORD_NAME = /^(tag|explore):([^\s:]{1,100})$/u

/** Is `name` one of the marker names streams answer with? */
export const isMarkerName = (name: string): boolean => FIXED_NAMES.has(name) || ID_NAME.test(name) || WORD_NAME.test(name)

/** The marker name of a channel's messages. */
export const channelMarkerName = (channelId: number): string => `channel:${channelId}`

const newVersion = (): string => randomBytes(8).toString('hex')

export class MarkerService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
  ) {}

  /** The user's marker called `name`, or null when never set. */
  find(userId: number, name: string): Promise<MarkerRow | null> {
    return this.store.read.markers.one('user_name', pair(userId, name))
  }

  /**
   * Sets markers for the viewer's user, answering them in the order given.
   * `last_read_id` becomes the highest id ever reported, or exactly the given
   * id with `resetReadId`. A `channel:<id>` marker needs a channel the viewer
   * can read. Errors: `invalid` (unknown name, bad percentage, no user),
   * `not_found` (unknown or unreadable channel). Emits `marker.set` per marker.
   */
  async set(viewer: Viewer, inputs: readonly MarkerInput[], options: { resetReadId?: boolean } = {}): Promise<MarkerRow[]> {
    const user = viewer.user
    if (!user) throw invalid('markers belong to a user; use a user token')
    const channels = new Map<string, ChannelRow>()
    for (const input of inputs) {
      if (!isMarkerName(input.name)) throw invalid(`${input.name} is not a stream marker name`)
      if (input.percentage !== undefined && (!Number.isFinite(input.percentage) || input.percentage < 0 || input.percentage > 100)) {
        throw invalid('percentage must be a number from 0 to 100')
      }
      const channel = await this.channelOf(viewer, input.name)
      if (channel) channels.set(input.name, channel)
    }
    return this.store.transact(async (tx) => {
      const written = new Map<string, MarkerRow>()
      for (const input of inputs) {
        const before = written.get(input.name) ?? (await tx.markers.one('user_name', pair(user.id, input.name)))
        const row = before ? tx.markers.put(this.updated(before, input, options)) : tx.markers.insert(this.fresh(user, input))
        written.set(input.name, row)
      }
      const rows = inputs.map((i) => written.get(i.name) as MarkerRow)
      for (const [i, marker] of rows.entries()) emitSet(tx, marker, user, channels.get(inputs[i].name))
      return rows
    })
  }

  /**
   * Moves the user's `channel:<id>` marker to `messageId` unless it is already
   * there or beyond (marking a channel read). Emits `marker.set` when it moved.
   */
  async markRead(user: UserRow, channel: ChannelRow, messageId: number): Promise<void> {
    const name = channelMarkerName(channel.id)
    await this.store.transact(async (tx) => {
      const before = await tx.markers.one('user_name', pair(user.id, name))
      if (before && (before.last_read_id ?? 0) >= messageId) return
      const input = { name, id: messageId }
      emitSet(tx, before ? tx.markers.put(this.updated(before, input, {})) : tx.markers.insert(this.fresh(user, input)), user, channel)
    })
  }

  private fresh(user: UserRow, input: MarkerInput): Omit<MarkerRow, 'id'> {
    return {
      user_id: user.id,
      name: input.name,
      ...(input.id === undefined ? {} : { item_id: input.id, last_read_id: input.id }),
      percentage: input.percentage ?? 0,
      version: newVersion(),
      updated_at: isoNow(),
    }
  }

  private updated(before: MarkerRow, input: MarkerInput, options: { resetReadId?: boolean }): MarkerRow {
    let last_read_id = before.last_read_id
    if (input.id !== undefined) {
      last_read_id = options.resetReadId ? input.id : Math.max(before.last_read_id ?? 0, input.id)
    }
    return {
      ...before,
      ...(input.id === undefined ? {} : { item_id: input.id }),
      ...(last_read_id === undefined ? {} : { last_read_id }),
      percentage: input.percentage ?? (input.id === undefined ? before.percentage : 0),
      version: newVersion(),
      updated_at: isoNow(),
    }
  }

  private async channelOf(viewer: Viewer, name: string): Promise<ChannelRow | null> {
    const m = ID_NAME.exec(name)
    if (!m || m[1] !== 'channel') return null
    const channel = await this.store.read.channels.get(Number(m[2]))
    if (!channel || !(await this.access.canRead(viewer, channel))) throw notFound(`channel ${m[2]} not found`)
    return channel
  }
}

function emitSet(tx: Tx, marker: MarkerRow, user: UserRow, channel: ChannelRow | undefined): void {
  tx.emit('marker.set', channel ? { marker, user, channel } : { marker, user })
}
