/**
 * Message search (`GET /channels/messages/search`, App.net's from 2014): the
 * same free text and filters as post search but the crosspost ones, over the
 * live messages of the channels named, of which only those the viewer may
 * read are searched (a channel it may not read is left out, as multi-get
 * leaves it out); `pm` and `broadcast` name the viewer's subscribed channels
 * of that type. Like post search, it looks at the newest `windowMessages`
 * messages only and runs through the scan gate.
 */
import { invalid } from '../errors.js'
import type { ChannelRow, MessageRow } from '../model/channel.js'
import { paginate, paginateSorted, resolvePage, type Page, type PageInput } from '../pagination/pagination.js'
import type { Range, Store } from '../store/port.js'
import { scanMatching } from '../store/scan-rows.js'
import type { Viewer } from '../viewer.js'
import { BROADCAST_TYPE, PM_TYPE, type ChannelAccess } from '../channels/channel-acl.js'
import type { MessageFilter } from '../channels/messages.js'
import { targetsOf } from '../relations/relation-reads.js'
import type { ScanGate } from './scan-gate.js'
import { compileSearch, type SearchFilters } from './search-filters.js'

/** The subscribed channels of a type, by the word naming them. */
const SUBSCRIBED: Record<string, string> = { pm: PM_TYPE, broadcast: BROADCAST_TYPE }

/** How many subscribed channels `pm` or `broadcast` searches at most (the most recently subscribed). */
const MAX_SUBSCRIBED = 1000

const SCORE_STEP = 10_000_000_000

export interface MessageSearchInput extends Omit<SearchFilters, 'crosspost_url' | 'crosspost_domain' | 'is_crosspost'> {
  /** Channel ids, or `['pm']` / `['broadcast']`. */
  channel_ids: readonly string[]
  query?: string
  text?: string
  order?: 'id' | 'score'
}

export class MessageSearchService {
  constructor(
    private readonly store: Store,
    private readonly access: ChannelAccess,
    private readonly gate: ScanGate,
    /** How many of the newest messages (by id) a search looks at. */
    private readonly windowMessages: number,
  ) {}

  /**
   * The page of readable channels' live messages among the newest
   * `windowMessages` matching `input`, newest first (`order=id`) or most
   * relevant first (`order=score`); machine-only messages and those of
   * muted users only with their flags. Errors: `invalid` (no query and no
   * filter, `order=score` without a query, `pm`/`broadcast` without a user,
   * marker-relative ids), `rate_limited` (the scan gate is full).
   */
  async search(viewer: Viewer, input: MessageSearchInput, page: PageInput & MessageFilter): Promise<Page<MessageRow>> {
    const { filters, textScore } = await compileSearch(this.store.read, input)
    const query = resolvePage(page)
    const channels = await this.channels(viewer, input.channel_ids)
    const muted = viewer.user && !page.include_muted ? await targetsOf(this.store.read, 'mutes', viewer.user.id) : new Set<number>()
    const score = (m: MessageRow): number => {
      if (m.is_deleted || (m.machine_only && !page.include_machine)) return 0
      if ((muted.has(m.user_id) && m.user_id !== viewer.user?.id) || !filters.match(m)) return 0
      return textScore(m)
    }
    const r = this.store.read
    const load = async (ids: number[]) => {
      const rows = new Map((await r.messages.getMany(ids)).map((m) => [m.id, m]))
      return ids.map((id) => rows.get(id) ?? null)
    }
    if (channels.length === 0) return { more: false, items: [] }
    return this.gate.run(async () => {
      const window = await this.window(channels.map((c) => c.id))
      if (input.order !== 'score')
        return paginate(
          query,
          scanMatching(r.messages, (m) => score(m) > 0, window),
          load,
        )
      const ranked: number[] = []
      const scored = (m: MessageRow): boolean => {
        const s = score(m)
        if (s > 0) ranked.push(s * SCORE_STEP + m.id)
        return false
      }
      await scanMatching(r.messages, scored, window)({ limit: Number.MAX_SAFE_INTEGER, order: 'asc' })
      ranked.sort((a, b) => a - b)
      return paginateSorted(query, ranked, (keys) => load(keys.map((k) => k % SCORE_STEP)))
    })
  }

  /** The channels `ids` names that the viewer may read. */
  private async channels(viewer: Viewer, ids: readonly string[]): Promise<ChannelRow[]> {
    const r = this.store.read
    const type = ids.length === 1 ? SUBSCRIBED[ids[0]] : undefined
    let found: ChannelRow[]
    if (type !== undefined) {
      if (!viewer.user) throw invalid(`channel_ids=${ids[0]} needs a user token: it names the user's subscribed channels`)
      const subscriptions = await r.subscriptions.getMany(await r.subscriptions.ids('user', viewer.user.id, { limit: MAX_SUBSCRIBED }))
      found = (await r.channels.getMany(subscriptions.map((s) => s.channel_id))).filter((c) => c.type === type)
    } else {
      if (ids.some((id) => !/^\d{1,15}$/.test(id))) throw invalid('channel_ids must be channel ids, or pm, or broadcast')
      found = await r.channels.getMany([...new Set(ids.map(Number))])
    }
    const readable = await Promise.all(found.map((c) => this.access.canRead(viewer, c)))
    return found.filter((_, i) => readable[i])
  }

  /** Candidate ids: the channels' live messages, limited to the newest `windowMessages` message ids. */
  private async window(channelIds: number[]): Promise<(range: Range) => Promise<number[]>> {
    const r = this.store.read
    const [newest = 0] = await r.messages.scan({ limit: 1, order: 'desc' })
    const floor = Math.max(0, newest - this.windowMessages)
    return async (range) => {
      if (range.before !== undefined && range.before <= floor + 1) return []
      return r.messages.idsAny('channel_live', channelIds, { ...range, since: Math.max(range.since ?? 0, floor) })
    }
  }
}
