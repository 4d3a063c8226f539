/**
 * Channel search (`GET /channels/search`): text from the well-known channel
 * metadata annotations, filters by type, creator, tags and privacy, ordered
 * by popularity (subscribers), id or activity (latest message). Results
 * respect the ACLs and the token's scope like every other channel read.
 */
import type { ChannelRow } from '../model/channel.js'
import { paginate, paginateRanked, resolvePage, type Page, type PageInput, type PageQuery } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import type { ScanGate } from './scan-gate.js'
import { scanMatching } from '../store/scan-rows.js'
import type { Viewer } from '../viewer.js'
import type { ChannelAccess } from '../channels/channel-acl.js'
import type { ChannelFilter, ChannelViewService } from '../channels/channel-views.js'

const ALL = Number.MAX_SAFE_INTEGER

/** Annotation types whose values describe a channel, and the keys holding its text. */
const METADATA: Record<string, string[]> = {
  'net.patter-app.settings': ['name', 'blurb'],
  'svc.core.channel.metadata': ['title', 'description'],
  'svc.core.broadcast.metadata': ['title', 'description'],
}

export interface ChannelSearchQuery {
  q?: string
  order?: 'popularity' | 'id' | 'activity'
  type?: string
  creator_id?: number
  tags?: readonly string[]
  /** Readers and writers have neither `any_user` nor `public`. */
  is_private?: boolean
  is_public?: boolean
}

const tagsOf = (channel: ChannelRow): string[] =>
  channel.annotations
    .filter((a) => a.type in METADATA)
    .flatMap((a) => (Array.isArray(a.value.tags) ? a.value.tags.filter((t): t is string => typeof t === 'string') : []))

const textOf = (channel: ChannelRow): string =>
  channel.annotations
    .flatMap((a) => (METADATA[a.type] ?? []).map((k) => a.value[k]))
    .concat(tagsOf(channel))
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase()

const isPrivate = (c: ChannelRow): boolean => !c.readers.any_user && !c.readers.public && !c.writers.any_user && !c.writers.public

export class ChannelSearchService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly views: ChannelViewService,
    /** Bounds how many searches scan at once. */
    private readonly gate: ScanGate,
  ) {}

  /**
   * A page of the channels matching `search` that the viewer can read. The
   * channels are scanned a chunk at a time while the scan gate has room.
   * Errors: `rate_limited` (as many searches running as the gate allows).
   */
  async search(viewer: Viewer, search: ChannelSearchQuery, input: PageInput, filter: ChannelFilter): Promise<Page<ChannelRow>> {
    const words = (search.q ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 0)
    const tags = (search.tags ?? []).map((t) => t.toLowerCase())
    const matches = (c: ChannelRow): boolean =>
      (search.type === undefined || c.type === search.type) &&
      (search.creator_id === undefined || c.owner_id === search.creator_id) &&
      (search.is_private === undefined || isPrivate(c) === search.is_private) &&
      (search.is_public === undefined || c.readers.public === search.is_public) &&
      (tags.length === 0 ||
        tags.every((t) =>
          tagsOf(c)
            .map((x) => x.toLowerCase())
            .includes(t),
        )) &&
      words.every((w) => textOf(c).includes(w))
    const listFilter = this.views.filter(viewer, filter)
    const keep = async (c: ChannelRow): Promise<boolean> => (await this.access.canRead(viewer, c)) && (await listFilter(c))
    const r = this.store.read
    const query = resolvePage(input)
    return this.gate.run(async () => {
      const scan = scanMatching(r.channels, matches)
      if (search.order === 'id') return paginate(query, scan, (ids) => Promise.all(ids.map((id) => r.channels.get(id))), keep)
      return this.ranked(query, await r.channels.getMany(await scan({ limit: ALL, order: 'asc' })), search.order, keep)
    })
  }

  /** The found channels by popularity (subscribers) or activity (latest message), paged. */
  private async ranked(
    query: PageQuery,
    found: ChannelRow[],
    order: ChannelSearchQuery['order'],
    keep: (c: ChannelRow) => Promise<boolean>,
  ): Promise<Page<ChannelRow>> {
    const r = this.store.read
    const score = new Map<number, number>()
    for (const c of found) {
      const [latest] = order === 'activity' ? await r.messages.ids('channel', c.id, { limit: 1 }) : [await r.subscriptions.count('channel', c.id)]
      score.set(c.id, latest ?? 0)
    }
    const ranked = found.sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0) || b.id - a.id)
    return paginateRanked(query, ranked, keep)
  }
}
