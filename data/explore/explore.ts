/**
 * Explore streams: curated lists of public posts that the instance's admins
 * define (a rule plus posts pinned by hand), and the posts each one shows.
 *
 * Pinned posts are merged into the stream by post id, not put on top: every
 * list of posts pages by post id (`since_id`, `before_id`, markers), and a
 * pinned post on top of the first page would break `min_id`/`before_id`
 * paging. Pinning selects a post the rule would not; it does not reorder.
 */
import { conflict, invalid, notFound } from '../errors.js'
import type { ExploreRule, ExploreStreamRow } from '../model/explore.js'
import type { MarkerRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import { paginate, resolvePage, type Page } from '../pagination/pagination.js'
import type { Range, Store, Tx } from '../store/port.js'
import { tableNames } from '../store/schema.js'
import { mergeWindows, windowIds } from '../store/sorted-ids.js'
import { isoNow } from '../time.js'
import type { Viewer } from '../viewer.js'
import { checkRule, matchesRule, ruleSource, starredRecently, type ExploreRulePatch } from './explore-rule.js'
import type { MarkerService } from '../channels/markers.js'
import { postVisibilityTest } from '../posts/post-filters.js'
import type { PostListInput } from '../posts/post-streams.js'
import { isListedPost, postsInOrder } from '../posts/post-traits.js'
import type { HiddenAuthors } from '../users/moderated-users.js'

/** What a request may name: App.net clients accept `-` too, and a stream made before slugs were alphanumeric keeps its address. */
export const EXPLORE_SLUG_PATTERN = /^[a-z0-9-]{1,255}$/
/** What a new or renamed stream is called: the spec's slug is lowercase alphanumeric. */
const NEW_SLUG_PATTERN = /^[a-z0-9]{1,255}$/
const MARKER_PATTERN = /^[a-z0-9_-]{1,255}$/

export interface ExploreStreamInput {
  slug: string
  title: string
  description: string
  /** Marker name suffix; default: the slug. */
  marker?: string
  rule?: ExploreRulePatch
}

export interface ExploreStreamChanges {
  slug?: string
  title?: string
  description?: string
  marker?: string
  /** Merged into the current rule; `null` clears a criterion. */
  rule?: ExploreRulePatch
  /** Start from an empty rule before applying `rule`. */
  replace_rule?: boolean
}

export interface ExplorePosts {
  stream: ExploreStreamRow
  page: Page<PostRow>
  /** `explore:<marker>` and the viewer's marker row once set. */
  marker: { name: string; row: MarkerRow | null }
}

/**
 * The streams App.net shipped; a fresh instance starts with them. App.net
 * named the posts stream's marker `explore:undirected`, but the spec names
 * every explore marker `explore:<slug>`, and the spec wins.
 */
export const DEFAULT_EXPLORE_STREAMS: readonly (Required<Omit<ExploreStreamInput, 'rule'>> & { rule: ExploreRule })[] = [
  { slug: 'posts', title: 'Posts', description: 'Posts not directed at any user', marker: 'posts', rule: { not_directed: true } },
  {
    slug: 'conversations',
    title: 'Conversations',
    description: 'New conversations just starting',
    marker: 'conversations',
    rule: { is_thread_root: true, has_replies: true },
  },
  { slug: 'photos', title: 'Photos', description: 'Photos uploaded by people here', marker: 'photos', rule: { has_photo: true } },
  { slug: 'trending', title: 'Trending', description: 'Posts trending here', marker: 'trending', rule: { min_stars: 2, star_window_hours: 24 } },
  { slug: 'checkins', title: 'Checkins', description: 'People in interesting places', marker: 'checkins', rule: { has_place: true } },
]

const checkText = (field: string, value: string, max: number): string => {
  const text = value.trim()
  if (text.length === 0 || [...text].length > max) throw invalid(`${field} must be 1 to ${max} characters`)
  return text
}

const checkSlug = (slug: string): string => {
  if (!NEW_SLUG_PATTERN.test(slug)) throw invalid('slug must be 1 to 255 characters of a-z and 0-9')
  return slug
}

const checkMarker = (marker: string): string => {
  if (!MARKER_PATTERN.test(marker)) throw invalid('marker must be 1 to 255 characters of a-z, 0-9, _ and -')
  return marker
}

export class ExploreService {
  constructor(
    private readonly store: Store,
    private readonly markers: MarkerService,
    private readonly hidden: HiddenAuthors,
  ) {}

  /** Every explore stream, oldest first. */
  async list(): Promise<ExploreStreamRow[]> {
    const r = this.store.read.explore_streams
    return r.getMany(await r.scan({ limit: 10_000, order: 'asc' }))
  }

  /** The stream with `slug`. Errors: `not_found`. */
  async bySlug(slug: string): Promise<ExploreStreamRow> {
    const stream = await this.store.read.explore_streams.one('slug', slug)
    if (!stream) throw notFound(`explore stream ${slug} not found`)
    return stream
  }

  /**
   * Defines a stream. Errors: `invalid` (slug, title, description, marker or
   * rule), `conflict` (slug taken). Emits `explore.changed`.
   */
  async create(input: ExploreStreamInput): Promise<ExploreStreamRow> {
    const slug = checkSlug(input.slug)
    const title = checkText('title', input.title, 100)
    const description = checkText('description', input.description, 256)
    const marker = checkMarker(input.marker ?? slug)
    const rule = await checkRule({}, input.rule ?? {}, this.store.read)
    return this.store.transact(async (tx) => {
      if (await tx.explore_streams.one('slug', slug)) throw conflict(`explore stream ${slug} already exists`)
      const stream = tx.explore_streams.insert({ slug, title, description, marker, rule, pinned: [], created_at: isoNow() })
      tx.emit('explore.changed', { stream })
      return stream
    })
  }

  /**
   * Changes a stream's slug, texts, marker or rule. Errors: `not_found`,
   * `invalid`, `conflict` (new slug taken). Emits `explore.changed`.
   */
  async update(slug: string, changes: ExploreStreamChanges): Promise<ExploreStreamRow> {
    return this.write(slug, async (current, tx) => {
      const next: ExploreStreamRow = {
        ...current,
        ...(changes.slug !== undefined ? { slug: checkSlug(changes.slug) } : {}),
        ...(changes.title !== undefined ? { title: checkText('title', changes.title, 100) } : {}),
        ...(changes.description !== undefined ? { description: checkText('description', changes.description, 256) } : {}),
        // A marker named for the slug (`explore:<slug>`) follows a new slug unless a marker is given.
        ...(changes.slug !== undefined && current.marker === current.slug ? { marker: changes.slug } : {}),
        ...(changes.marker !== undefined ? { marker: checkMarker(changes.marker) } : {}),
        rule: await checkRule(changes.replace_rule ? {} : current.rule, changes.rule ?? {}, tx),
        updated_at: isoNow(),
      }
      const taken = await tx.explore_streams.one('slug', next.slug)
      if (taken && taken.id !== current.id) throw conflict(`explore stream ${next.slug} already exists`)
      return next
    })
  }

  /** Deletes a stream. Errors: `not_found`. Emits `explore.changed` with `removed`. */
  async remove(slug: string): Promise<ExploreStreamRow> {
    return this.store.transact(async (tx) => {
      const stream = await tx.explore_streams.one('slug', slug)
      if (!stream) throw notFound(`explore stream ${slug} not found`)
      tx.explore_streams.remove(stream.id)
      tx.emit('explore.changed', { stream, removed: true })
      return stream
    })
  }

  /**
   * Pins a post to a stream (pinning twice is harmless). Errors: `not_found`
   * (stream or post), `invalid` (a deleted post, a repost or a machine-only
   * post). Emits `explore.changed`.
   */
  async pin(slug: string, postId: number): Promise<ExploreStreamRow> {
    return this.write(slug, async (row, tx) => {
      const post = await tx.posts.get(postId)
      if (!post) throw notFound(`post ${postId} not found`)
      if (!isListedPost(post)) throw invalid('only live, original, non machine-only posts can be pinned')
      return { ...row, pinned: [...new Set([...row.pinned, postId])].sort((a, b) => a - b), updated_at: isoNow() }
    })
  }

  /** Unpins a post (unpinning a post not pinned is harmless). Errors: `not_found` (stream). Emits `explore.changed`. */
  async unpin(slug: string, postId: number): Promise<ExploreStreamRow> {
    return this.write(slug, (row) => ({ ...row, pinned: row.pinned.filter((id) => id !== postId), updated_at: isoNow() }))
  }

  /**
   * The page of posts `slug` shows `viewer`: posts the rule selects plus the
   * pinned ones, newest first, as the post general parameters of `input`
   * allow (muted and blocked authors hidden by default), with the stream's
   * marker. Errors: `not_found` (stream), `invalid` (marker-relative ids
   * without a marker).
   */
  async posts(viewer: Viewer, slug: string, input: PostListInput): Promise<ExplorePosts> {
    const stream = await this.bySlug(slug)
    const read = this.store.read
    const markerName = `explore:${stream.marker}`
    const row = viewer.user ? await this.markers.find(viewer.user.id, markerName) : null
    const trending = stream.rule.min_stars === undefined ? null : await starredRecently(stream.rule, read)
    const trendingSet = trending ? new Set(trending) : undefined
    const fromRule = ruleSource(stream.rule, read, trending)
    const pinned = new Set(stream.pinned)
    const fetchIds = async (range: Range): Promise<number[]> => mergeWindows([await fromRule(range), windowIds(stream.pinned, range)], range)
    const visible = await postVisibilityTest(read, this.hidden, viewer, input)
    const page = await paginate(
      resolvePage(input, row),
      fetchIds,
      postsInOrder(read),
      async (post) => (await visible(post)) && isListedPost(post) && (pinned.has(post.id) || (await matchesRule(stream.rule, post, read, trendingSet))),
    )
    return { stream, page, marker: { name: markerName, row } }
  }

  /**
   * Defines the default streams on a fresh store (every table empty), so an
   * admin who later deletes them does not see them come back.
   * Answers whether it seeded. Emits `explore.changed` per stream.
   */
  async seedDefaults(): Promise<boolean> {
    for (const name of tableNames) if ((await this.store.read[name].size()) > 0) return false
    return this.store.transact(async (tx) => {
      if ((await tx.explore_streams.size()) > 0) return false
      const created = DEFAULT_EXPLORE_STREAMS.map((s) => tx.explore_streams.insert({ ...s, rule: { ...s.rule }, pinned: [], created_at: isoNow() }))
      for (const stream of created) tx.emit('explore.changed', { stream })
      return created.length > 0
    })
  }

  /** Replaces the row of `slug` with what `change` makes of it and announces it, in one transaction. */
  private async write(slug: string, change: (row: ExploreStreamRow, tx: Tx) => ExploreStreamRow | Promise<ExploreStreamRow>): Promise<ExploreStreamRow> {
    return this.store.transact(async (tx) => {
      const row = await tx.explore_streams.one('slug', slug)
      if (!row) throw notFound(`explore stream ${slug} not found`)
      const stream = tx.explore_streams.put(await change(row, tx))
      tx.emit('explore.changed', { stream })
      return stream
    })
  }
}
