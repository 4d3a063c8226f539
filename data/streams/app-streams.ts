/**
 * App streams as stored: what an app token asked for (object types, a
 * filter, a key) and where its queue stands in the event log. Delivery is
 * the app stream hub's (app-stream-hub.ts); this is what it reads.
 *
 * The stream's `endpoint` is itself a credential (the original API's
 * consumers connect with a bare GET): its secret part is a signature of the
 * stream's id and nonce under the instance's session secret, so nothing
 * secret is stored and the URL of a deleted stream never works again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { DomainError, invalid, notFound } from '../errors.js'
import { APP_STREAM_KEY_MAX_LENGTH, APP_STREAMS_PER_TOKEN } from '../limits.js'
import { APP_STREAM_OBJECT_TYPES, type AppStreamObjectType, type AppStreamRow } from '../model/app-stream.js'
import type { FilterInput } from '../filters/filter-input.js'
import type { FilterRow } from '../model/filter.js'
import { newSecret } from '../security/secrets.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { pair } from '../store/schema.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'

/** What a create or update reads from the request (the route has checked the shapes). */
export interface AppStreamInput {
  object_types?: readonly string[]
  type?: string
  /** An existing filter's id, `null` (or empty) for none. */
  filter_id?: string | number | null
  /** A filter given inline: made for this stream and deleted with it. */
  filter?: FilterInput | null
  key?: string | null
}

/** The filters an app stream may use, as the filter service offers them. */
export interface StreamFilters {
  byId(id: number): Promise<FilterRow | null>
  /** Validates and stores a filter of the app, in the stream's transaction. */
  createForApp(appId: number, input: FilterInput, tx: Tx): Promise<FilterRow>
  removeById(id: number, tx: Tx): Promise<FilterRow | null>
}

/** An app stream with the filter it uses, as the API shows it. */
export interface AppStreamView {
  stream: AppStreamRow
  filter: FilterRow | null
  /** The filter's owner, when a user made it and the account still exists. */
  owner: UserRow | null
  /** The secret part of the endpoint URL. */
  endpointKey: string
}

const OBJECT_TYPES: ReadonlySet<string> = new Set(APP_STREAM_OBJECT_TYPES)

export class AppStreamService {
  constructor(
    private readonly store: Store,
    private readonly filters: StreamFilters,
    /** The instance's session secret, which signs endpoints. */
    private readonly secret: string,
    /** The newest durable event: where a new stream's queue starts. */
    private readonly head: () => number,
  ) {}

  /** Creates a stream for the app token. Errors: `invalid`, `not_found` (filter), `conflict` (key), `rate_limited` (the limit). */
  async create(viewer: Viewer, input: AppStreamInput): Promise<AppStreamView> {
    const token = appToken(viewer)
    const objectTypes = objectTypesOf(input.object_types, true) as AppStreamObjectType[]
    checkType(input.type)
    const key = keyOf(input.key)
    const view = await this.store.transact(async (tx) => {
      if ((await tx.app_streams.count('token', token.id)) >= APP_STREAMS_PER_TOKEN) {
        throw new DomainError('rate_limited', `an app token may have at most ${APP_STREAMS_PER_TOKEN} app streams; delete one first`)
      }
      if (key !== undefined) await this.checkKeyFree(tx, token.id, key, null)
      const { filter, owned } = await this.filterFor(tx, token.app_id, input)
      const stream = tx.app_streams.insert({
        app_id: token.app_id,
        token_id: token.id,
        ...(key === undefined ? {} : { key }),
        object_types: objectTypes,
        type: 'long_poll',
        ...(filter ? { filter_id: filter.id } : {}),
        ...(owned ? { owns_filter: true } : {}),
        cursor: this.head(),
        dropped: 0,
        nonce: newSecret(16),
        created_at: isoNow(),
      })
      tx.emit('app_stream.created', { stream })
      return { stream, filter }
    })
    return this.viewOf(view.stream, view.filter)
  }

  /** The token's streams, oldest first; only the one named `key` when given. */
  async list(viewer: Viewer, key?: string): Promise<AppStreamView[]> {
    const token = appToken(viewer)
    const r = this.store.read.app_streams
    const rows =
      key === undefined
        ? await r.getMany(await r.ids('token', token.id, { limit: APP_STREAMS_PER_TOKEN * 4, order: 'asc' }))
        : [await r.one('token_key', pair(token.id, key))]
    return Promise.all(rows.filter((s): s is AppStreamRow => s !== null).map((s) => this.view(s)))
  }

  /** One of the token's streams. Errors: `not_found`. */
  async get(viewer: Viewer, id: number): Promise<AppStreamView> {
    return this.view(await this.own(viewer, id))
  }

  /**
   * Changes what the stream carries: the fields given replace the stored
   * ones; its queue stays. Errors as `create`.
   */
  async update(viewer: Viewer, id: number, input: AppStreamInput): Promise<AppStreamView> {
    const token = appToken(viewer)
    const objectTypes = input.object_types === undefined ? undefined : (objectTypesOf(input.object_types, true) as AppStreamObjectType[])
    checkType(input.type)
    const key = input.key === undefined ? undefined : keyOf(input.key)
    const view = await this.store.transact(async (tx) => {
      const stream = await tx.app_streams.get(id)
      if (!stream || stream.token_id !== token.id) throw notFound(`app stream ${id} not found`)
      const next: AppStreamRow = { ...stream, ...(objectTypes ? { object_types: objectTypes } : {}) }
      if (input.key !== undefined) {
        if (key === undefined) delete next.key
        else {
          await this.checkKeyFree(tx, token.id, key, stream.id)
          next.key = key
        }
      }
      let filter = stream.filter_id === undefined ? null : await tx.filters.get(stream.filter_id)
      if (input.filter_id !== undefined || input.filter !== undefined) {
        const chosen = await this.filterFor(tx, token.app_id, input, stream)
        if (filter && stream.owns_filter && filter.id !== chosen.filter?.id) await this.filters.removeById(filter.id, tx)
        filter = chosen.filter
        delete next.filter_id
        delete next.owns_filter
        if (filter) next.filter_id = filter.id
        if (chosen.owned) next.owns_filter = true
      }
      tx.app_streams.put(next)
      tx.emit('app_stream.updated', { stream: next })
      return { stream: next, filter }
    })
    return this.viewOf(view.stream, view.filter)
  }

  /** Deletes one of the token's streams (a consumer is disconnected); answers it as it was. Errors: `not_found`. */
  async remove(viewer: Viewer, id: number): Promise<AppStreamView> {
    const stream = await this.own(viewer, id)
    const view = await this.view(stream)
    await this.store.transact(async (tx) => {
      const row = await tx.app_streams.get(stream.id)
      if (row) await this.removeInTx(tx, row)
    })
    return view
  }

  /** Deletes every stream of the token; answers them as they were. */
  async removeAll(viewer: Viewer): Promise<AppStreamView[]> {
    const views = await this.list(viewer)
    await this.store.transact(async (tx) => {
      for (const { stream } of views) {
        const row = await tx.app_streams.get(stream.id)
        if (row) await this.removeInTx(tx, row)
      }
    })
    return views
  }

  /** The stream whose endpoint key this is, or `null` (unknown, deleted, or a forged signature). */
  async byEndpointKey(endpointKey: string): Promise<AppStreamRow | null> {
    const match = /^(\d{1,15})-([A-Za-z0-9_-]{43})$/.exec(endpointKey)
    if (!match) return null
    const stream = await this.store.read.app_streams.get(Number(match[1]))
    if (!stream) return null
    const expected = Buffer.from(this.sign(stream))
    const given = Buffer.from(match[2])
    return expected.length === given.length && timingSafeEqual(expected, given) ? stream : null
  }

  /** Every app stream (the hub's start, the console). */
  async all(): Promise<AppStreamRow[]> {
    const r = this.store.read.app_streams
    return r.getMany(await r.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))
  }

  /** Deletes the streams of tokens that no longer exist (deauthorized, or their app deleted); answers how many went. */
  async removeOrphans(): Promise<number> {
    return this.store.transact(async (tx) => {
      let removed = 0
      for (const id of await tx.app_streams.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' })) {
        const stream = await tx.app_streams.get(id)
        if (stream && (await tx.tokens.get(stream.token_id)) === null) {
          await this.removeInTx(tx, stream)
          removed++
        }
      }
      return removed
    })
  }

  /** Deletes a stream whose consumer asked for `auto_delete` and left. */
  async removeById(id: number): Promise<void> {
    await this.store.transact(async (tx) => {
      const row = await tx.app_streams.get(id)
      if (row) await this.removeInTx(tx, row)
    })
  }

  /** Saves where queues stand (and what overflow dropped); streams deleted meanwhile are skipped. */
  async saveQueues(positions: ReadonlyMap<number, { cursor: number; dropped: number }>): Promise<void> {
    if (positions.size === 0) return
    await this.store.transact(async (tx) => {
      for (const [id, { cursor, dropped }] of positions) {
        const row = await tx.app_streams.get(id)
        if (row && (row.cursor !== cursor || row.dropped !== dropped)) tx.app_streams.put({ ...row, cursor, dropped })
      }
    })
  }

  async view(stream: AppStreamRow): Promise<AppStreamView> {
    return this.viewOf(stream, stream.filter_id === undefined ? null : await this.filters.byId(stream.filter_id))
  }

  private async viewOf(stream: AppStreamRow, filter: FilterRow | null): Promise<AppStreamView> {
    const user = filter?.user_id === undefined ? null : await this.store.read.users.get(filter.user_id)
    // A deleted account's filter keeps working; it just shows no owner.
    const owner = user?.deleted_at === undefined ? user : null
    return { stream, filter, owner, endpointKey: `${stream.id}-${this.sign(stream)}` }
  }

  private sign(stream: AppStreamRow): string {
    return createHmac('sha256', this.secret).update(`app-stream:${stream.id}:${stream.nonce}`).digest('base64url')
  }

  private async own(viewer: Viewer, id: number): Promise<AppStreamRow> {
    const token = appToken(viewer)
    const stream = await this.store.read.app_streams.get(id)
    if (!stream || stream.token_id !== token.id) throw notFound(`app stream ${id} not found`)
    return stream
  }

  private async removeInTx(tx: Tx, stream: AppStreamRow): Promise<void> {
    tx.app_streams.remove(stream.id)
    if (stream.owns_filter && stream.filter_id !== undefined && !(await this.filterUsedElsewhere(tx, stream)))
      await this.filters.removeById(stream.filter_id, tx)
    tx.emit('app_stream.deleted', { stream })
  }

  /** Another stream named this stream's inline filter (by its id): it stays for that one. */
  private async filterUsedElsewhere(tx: Tx, stream: AppStreamRow): Promise<boolean> {
    const ids = await tx.app_streams.scan({ limit: Number.MAX_SAFE_INTEGER }, (s) => s.id !== stream.id && s.filter_id === stream.filter_id)
    return ids.length > 0
  }

  private async checkKeyFree(tx: Tx, tokenId: number, key: string, self: number | null): Promise<void> {
    const other = await tx.app_streams.one('token_key', pair(tokenId, key))
    if (other && other.id !== self) throw new DomainError('conflict', `this token already has an app stream with key "${key}"`)
  }

  /**
   * The filter `input` names or defines: an inline one is made for the app;
   * a named one must be the app's or a user's who authorized it. A stream
   * sent back as it was received embeds its filter, id and all: that names
   * the filter (`current` keeps its own), it does not define a new one.
   */
  private async filterFor(
    tx: Tx,
    appId: number,
    input: AppStreamInput,
    current: AppStreamRow | null = null,
  ): Promise<{ filter: FilterRow | null; owned: boolean }> {
    const given = input.filter ?? undefined
    const embedded = (given as { id?: unknown } | undefined)?.id
    const named = input.filter_id !== undefined && input.filter_id !== null && input.filter_id !== ''
    if (given !== undefined && embedded === undefined) {
      if (named) throw invalid('give either filter_id or filter, not both')
      return { filter: await this.filters.createForApp(appId, given, tx), owned: true }
    }
    const ref = embedded ?? (named ? input.filter_id : undefined)
    if (ref === undefined || ref === null || ref === '') return { filter: null, owned: false }
    const id = Number(ref)
    const filter = Number.isSafeInteger(id) && id > 0 ? await tx.filters.get(id) : null
    if (filter && current?.filter_id === filter.id) return { filter, owned: current.owns_filter === true }
    const usable =
      filter !== null &&
      (filter.app_id === appId || (filter.user_id !== undefined && (await tx.tokens.ids('app_user', pair(appId, filter.user_id), { limit: 1 })).length > 0))
    if (!filter || !usable) throw notFound(`filter ${String(ref)} not found (a stream can use the app's own filters and those of users who authorized it)`)
    return { filter, owned: false }
  }
}

function appToken(viewer: Viewer) {
  const token = viewer.token
  if (!token || token.kind !== 'app') throw new DomainError('forbidden', 'app streams need an app token')
  return token
}

function objectTypesOf(given: readonly string[] | undefined, required: boolean): string[] {
  if (given === undefined || given.length === 0) {
    if (required) throw invalid(`object_types must list at least one of: ${APP_STREAM_OBJECT_TYPES.join(', ')}`)
    return []
  }
  const unknown = given.filter((t) => !OBJECT_TYPES.has(t))
  if (unknown.length > 0) throw invalid(`unknown object_types ${unknown.join(', ')}; known: ${APP_STREAM_OBJECT_TYPES.join(', ')}`)
  return [...new Set(given)]
}

function checkType(type: string | undefined): void {
  if (type !== undefined && type !== 'long_poll') throw invalid(`type must be "long_poll", the only kind of app stream`)
}

function keyOf(key: string | null | undefined): string | undefined {
  if (key === undefined || key === null || key === '') return undefined
  if (key.length > APP_STREAM_KEY_MAX_LENGTH) throw invalid(`key is longer than ${APP_STREAM_KEY_MAX_LENGTH} characters`)
  return key
}
