/**
 * A user's data, as App.net's export handed it over: their profile, posts,
 * stars, follows both ways, mutes and blocks, the channels they belong to
 * with the messages they can read there, their files and markers. Lists are
 * read a page at a time, oldest first, through the same services and rules
 * as the API's own lists, so an account of any size is walked, never held,
 * and nothing shows that the API would not show this user. Presenting and
 * packing it (the ZIP) are the server's.
 */
import { forbidden } from '../errors.js'
import type { ChannelRow, MarkerRow, MessageRow } from '../model/channel.js'
import type { FileRow } from '../model/file.js'
import type { PostRow } from '../model/post.js'
import type { UserRow } from '../model/user.js'
import type { Page, PageQuery } from '../pagination/pagination.js'
import type { Store } from '../store/port.js'
import type { Scope } from '../auth/tokens.js'
import { actingUser } from '../users/acting-user.js'
import type { ChannelAccess } from '../channels/channel-acl.js'
import { channelMarkerName, type MarkerService } from '../channels/markers.js'
import type { MessageService } from '../channels/messages.js'
import type { FileService } from '../files/files.js'
import type { PostStreamService } from '../posts/post-streams.js'
import type { StarService } from '../posts/stars.js'
import type { PostFilterFlags } from '../posts/post-filters.js'
import type { RelationListService } from '../relations/relation-lists.js'
import { hasScope, type Viewer } from '../viewer.js'

/** How many rows one read of a list takes: the API's largest page. */
const PAGE = 200
const ALL = Number.MAX_SAFE_INTEGER

/**
 * What `export` reaches: every read of the user's own data, whatever else
 * the token holds (App.net: "bulk export of all user data"). Reads only: an
 * export never writes.
 */
const EXPORT_READS: readonly Scope[] = ['basic', 'stream', 'public_messages', 'messages', 'files', 'export']

/** All of one's own, deleted ones aside: what is gone is not exported. */
const EVERYTHING_LIVE: PostFilterFlags = { include_deleted: false, include_machine: true, include_muted: true, include_directed_posts: true }

/** The bytes of a file's root content on disk. */
export interface ExportedContent {
  path: string
  size: number
  sha1: string
}

/**
 * Walks a list forward from its oldest item, a page at a time: the API's
 * negative `count`, whose pages come back newest first, so each is turned
 * around. Yields each page's items, oldest first.
 */
async function* forward<T>(pageAfter: (page: PageQuery) => Promise<Page<T>>): AsyncGenerator<T[]> {
  let since: number | undefined
  for (;;) {
    const { items, more } = await pageAfter({ since_id: since, count: -PAGE })
    if (items.length === 0) return
    const oldestFirst = [...items].reverse()
    yield oldestFirst.map((i) => i.item)
    since = oldestFirst[oldestFirst.length - 1].pagination_id
    if (!more) return
  }
}

export interface ExportReaders {
  store: Store
  postStreams: PostStreamService
  stars: StarService
  relationLists: RelationListService
  access: ChannelAccess
  messages: MessageService
  markers: MarkerService
  files: FileService
}

/** One user's export: what it holds, read as it is asked for. */
export class AccountExport {
  constructor(
    /** The user's viewer as the export reads with it (`EXPORT_READS`); presenters show the data as this user sees it. */
    readonly viewer: Viewer,
    readonly user: UserRow,
    private readonly r: ExportReaders,
  ) {}

  /** Their posts, replies and reposts included, oldest first. */
  posts(): AsyncGenerator<PostRow[]> {
    return forward(async (page) => (await this.r.postStreams.ofUser(this.viewer, 'me', { ...page, ...EVERYTHING_LIVE })).page)
  }

  /** The posts they starred that they can still see, oldest star first. */
  stars(): AsyncGenerator<PostRow[]> {
    return forward((page) => this.r.stars.ofUser(this.viewer, 'me', { ...page, ...EVERYTHING_LIVE }))
  }

  /** Whom they follow (`following`) or who follows them (`followers`), oldest follow first. */
  follows(side: 'following' | 'followers'): AsyncGenerator<UserRow[]> {
    return forward((page) => this.r.relationLists.follows(this.viewer, 'me', side, page))
  }

  /** Whom they muted or blocked, most recent first (lists short enough to read at once). */
  hidden(table: 'mutes' | 'blocks'): Promise<UserRow[]> {
    return this.r.relationLists.hidden(this.viewer, 'me', table)
  }

  /** The channels they are subscribed to or own and can read now, private conversations included, oldest first. */
  async channels(): Promise<ChannelRow[]> {
    const read = this.r.store.read
    const subscriptions = await read.subscriptions.getMany(await read.subscriptions.ids('user', this.user.id, { limit: ALL }))
    const owned = await read.channels.ids('owner', this.user.id, { limit: ALL })
    const ids = [...new Set([...subscriptions.map((s) => s.channel_id), ...owned])].sort((a, b) => a - b)
    const out: ChannelRow[] = []
    for (const channel of await read.channels.getMany(ids)) if (await this.r.access.canRead(this.viewer, channel)) out.push(channel)
    return out
  }

  /** The messages of one of `channels()` they can read, oldest first, deleted ones left out. Errors: `not_found` (no longer readable). */
  messages(channel: ChannelRow): AsyncGenerator<MessageRow[]> {
    const filter = { include_deleted: false, include_machine: true, include_muted: true }
    return forward(async (page) => (await this.r.messages.inChannel(this.viewer, channel.id, page, filter)).page)
  }

  /** Their files, complete or not, oldest first. */
  files(): AsyncGenerator<FileRow[]> {
    return forward((page) => this.r.files.list(this.viewer, page))
  }

  /** Where the root content of one of their files is, or null while it has none. */
  contentOf(file: FileRow): ExportedContent | null {
    if (file.user_id !== this.user.id || !file.complete || !file.content) return null
    const path = this.r.files.bytes.pathOf(file.content.stored)
    return path === null ? null : { path, size: file.content.size, sha1: file.content.sha1 }
  }

  /** Their markers that are set: the streams' and those of `channels`. */
  async markers(channels: readonly ChannelRow[]): Promise<MarkerRow[]> {
    const me = this.user.id
    const names = ['unified', 'my_stream', 'global', `mentions:${me}`, `posts:${me}`, ...channels.map((c) => channelMarkerName(c.id))]
    const rows = await Promise.all(names.map((name) => this.r.markers.find(me, name)))
    return rows.filter((row): row is MarkerRow => row !== null)
  }
}

export class ExportService {
  constructor(private readonly readers: ExportReaders) {}

  /**
   * The export of the viewer's own account, read with every read their data
   * needs. Errors: `forbidden` (not a user token, or one without `export`).
   */
  open(viewer: Viewer): AccountExport {
    const user = actingUser(viewer)
    if (!viewer.token || viewer.token.kind !== 'user' || !hasScope(viewer, 'export')) {
      throw forbidden('This endpoint requires one of these scopes: export', 'insufficient-scope')
    }
    const reads: Viewer = { ...viewer, token: { ...viewer.token, scopes: [...EXPORT_READS] } }
    return new AccountExport(reads, user, this.readers)
  }
}
