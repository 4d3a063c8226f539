/**
 * Filters: named sets of clauses a user keeps to restrict streams with, and
 * the inline filters app streams define for themselves. A user sees and
 * changes only their own; another user's filter, or an app's inline one, is
 * not found for them. Streams compile a filter with `compileFilter`.
 */
import { conflict, forbidden, notFound } from '../errors.js'
import { FILTERS_PER_USER } from '../limits.js'
import type { FilterRow } from '../model/filter.js'
import type { UserRow } from '../model/user.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { checkFilter, type FilterInput } from './filter-input.js'

/** Every filter of a user in one window: the per-user cap keeps it small (a cap lowered later leaves more than it). */
const ALL = { limit: 10_000, order: 'asc' } as const

const userOf = (viewer: Viewer): UserRow => {
  if (!viewer.user) throw forbidden('filters belong to a user; use a user token')
  return viewer.user
}

export class FilterService {
  constructor(private readonly store: Store) {}

  /**
   * Saves a new filter of the viewer's. Errors: `forbidden` (no user),
   * `invalid` (see `checkFilter`), `conflict` (the user holds as many
   * filters as allowed). Emits `filter.created`.
   */
  async create(viewer: Viewer, input: FilterInput): Promise<FilterRow> {
    const user = userOf(viewer)
    const checked = checkFilter(input)
    return this.store.transact(async (tx) => {
      if ((await tx.filters.count('user', user.id)) >= FILTERS_PER_USER) throw conflict(`a user may keep at most ${FILTERS_PER_USER} filters; delete one first`)
      const filter = tx.filters.insert({ user_id: user.id, ...checked, created_at: isoNow() })
      tx.emit('filter.created', { filter })
      return filter
    })
  }

  /**
   * Saves the inline filter of an app stream: it belongs to the app, in no
   * user's list. Inside the caller's transaction when one is given (the
   * stream and its filter written together). Errors: `invalid`. Emits `filter.created`.
   */
  async createForApp(appId: number, input: FilterInput, tx?: Tx): Promise<FilterRow> {
    const checked = checkFilter(input)
    const work = (tx: Tx): FilterRow => {
      const filter = tx.filters.insert({ app_id: appId, ...checked, created_at: isoNow() })
      tx.emit('filter.created', { filter })
      return filter
    }
    return tx ? work(tx) : this.store.transact(work)
  }

  /** The viewer's filters, oldest first. Errors: `forbidden` (no user). */
  async list(viewer: Viewer): Promise<FilterRow[]> {
    const user = userOf(viewer)
    const r = this.store.read.filters
    return r.getMany(await r.ids('user', user.id, ALL))
  }

  /** One of the viewer's filters. Errors: `forbidden` (no user), `not_found` (no such filter of theirs). */
  async get(viewer: Viewer, id: number): Promise<FilterRow> {
    return ownFilter(await this.store.read.filters.get(id), userOf(viewer), id)
  }

  /** Any filter by id, whoever holds it, for other services (app streams); `null` when there is none. */
  byId(id: number): Promise<FilterRow | null> {
    return this.store.read.filters.get(id)
  }

  /** Every filter, users' and apps' inline ones, oldest first (the admin's list). */
  async all(): Promise<FilterRow[]> {
    const r = this.store.read.filters
    return r.getMany(await r.scan({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' }))
  }

  /**
   * Replaces every field of one of the viewer's filters; the id stays, and a
   * name left out is gone. Errors: `forbidden`, `invalid`, `not_found`.
   * Emits `filter.updated`.
   */
  async replace(viewer: Viewer, id: number, input: FilterInput): Promise<FilterRow> {
    const user = userOf(viewer)
    const checked = checkFilter(input)
    return this.store.transact(async (tx) => {
      const current = ownFilter(await tx.filters.get(id), user, id)
      const filter = tx.filters.put({ id: current.id, user_id: current.user_id, ...checked, created_at: current.created_at, updated_at: isoNow() })
      tx.emit('filter.updated', { filter })
      return filter
    })
  }

  /** Deletes one of the viewer's filters and answers it. Errors: `forbidden`, `not_found`. Emits `filter.deleted`. */
  async remove(viewer: Viewer, id: number): Promise<FilterRow> {
    const user = userOf(viewer)
    return this.store.transact(async (tx) => {
      const filter = ownFilter(await tx.filters.get(id), user, id)
      removeFilter(tx, filter)
      return filter
    })
  }

  /** Deletes every filter of the viewer's and answers them, oldest first. Errors: `forbidden`. Emits `filter.deleted` per filter. */
  async removeAll(viewer: Viewer): Promise<FilterRow[]> {
    const user = userOf(viewer)
    return this.store.transact(async (tx) => {
      const filters = await tx.filters.getMany(await tx.filters.ids('user', user.id, ALL))
      for (const filter of filters) removeFilter(tx, filter)
      return filters
    })
  }

  /**
   * Deletes a filter by id, whoever holds it, inside the caller's transaction
   * when one is given (an app stream deleting its inline filter with itself).
   * Answers the deleted row, or `null` when there was none. Emits `filter.deleted`.
   */
  async removeById(id: number, tx?: Tx): Promise<FilterRow | null> {
    const work = async (tx: Tx): Promise<FilterRow | null> => {
      const filter = await tx.filters.get(id)
      if (filter) removeFilter(tx, filter)
      return filter
    }
    return tx ? work(tx) : this.store.transact(work)
  }
}

const ownFilter = (filter: FilterRow | null, user: UserRow, id: number): FilterRow => {
  if (!filter || filter.user_id !== user.id) throw notFound(`filter ${id} not found`)
  return filter
}

const removeFilter = (tx: Tx, filter: FilterRow): void => {
  tx.filters.remove(filter.id)
  tx.emit('filter.deleted', { filter })
}
