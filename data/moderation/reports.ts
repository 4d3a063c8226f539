/**
 * Reports: a user tells the operator about a post (App.net's `POST
 * /posts/{id}/report`, which also mutes its author for the reporter), an
 * account (muted too) or a message of a channel they read; the operator
 * works through the open ones and closes each with a note. A report keeps
 * what was reported as it was when reported, so deleting it hides nothing
 * from the operator.
 */
import { invalid, notFound } from '../errors.js'
import type { MessageService } from '../channels/messages.js'
import type { MessageRow } from '../model/channel.js'
import type { PostRow } from '../model/post.js'
import type { ReportKind, ReportRow } from '../model/report.js'
import type { UserRow } from '../model/user.js'
import type { PostService } from '../posts/posts.js'
import type { RelationService } from '../relations/relations.js'
import type { Store, Tx } from '../store/port.js'
import { isoNow } from '../time.js'
import { actingUser } from '../users/acting-user.js'
import type { UserService } from '../users/users.js'
import type { Viewer } from '../viewer.js'

/** How long a reason may be. */
export const REPORT_REASON_MAX = 1000

const ALL = Number.MAX_SAFE_INTEGER

/**
 * A report as the operator reads it (the CLI, the console): what was
 * reported (`post_id`, `user_id`, or `message_id` with its `channel_id`;
 * the others null), whose it is (`author`: the reported account itself for
 * a user), who reported it, why, and what it said then.
 */
export interface ReportFacts {
  id: number
  kind: ReportKind
  post_id: number | null
  user_id: number | null
  message_id: number | null
  channel_id: number | null
  reporter: string
  author: string
  reason: string | null
  content: ReportRow['content']
  created_at: string
  resolved_at: string | null
  resolution: string | null
}

const contentOf = (item: PostRow | MessageRow): ReportRow['content'] => ({
  text: item.text,
  created_at: item.created_at,
  ...(item.annotations && item.annotations.length > 0 ? { annotations: item.annotations } : {}),
})

const profileOf = (user: UserRow): ReportRow['content'] => ({ text: user.description.text, created_at: user.created_at, name: user.name })

/** What a report of `kind` would carry besides its reporter, kind and reason. */
type Target = Pick<ReportRow, 'target_id' | 'target_user_id' | 'channel_id' | 'content'>

/**
 * Closes, in `tx`, the open reports of `kind` about `targetId` with
 * `resolution` (the operator acted on what they name). Answers how many.
 * Emits `report.resolved` per report.
 */
export async function resolveReportsOf(tx: Tx, kind: ReportKind, targetId: number, resolution: string, at = isoNow()): Promise<number> {
  let resolved = 0
  for (const report of await tx.reports.getMany(await tx.reports.ids('open', 1, { limit: ALL }))) {
    if (report.kind !== kind || report.target_id !== targetId) continue
    tx.emit('report.resolved', { report: tx.reports.put({ ...report, resolved_at: at, resolution }) })
    resolved++
  }
  return resolved
}

export class ReportService {
  constructor(
    private readonly store: Store,
    private readonly posts: Pick<PostService, 'find'>,
    private readonly relations: Pick<RelationService, 'mute'>,
    private readonly messages: Pick<MessageService, 'get'>,
    private readonly users: Pick<UserService, 'resolve'>,
  ) {}

  /**
   * The viewer reports post `postId` (one they can see, not deleted, not
   * their own) and mutes its author. Reporting it again changes nothing.
   * Answers the post. Errors: `not_found`, `invalid`. Emits
   * `report.created` (once) and `mute.added` (unless muted already).
   */
  async reportPost(viewer: Viewer, postId: number, reason?: string): Promise<PostRow> {
    const me = actingUser(viewer)
    const post = await this.posts.find(viewer, postId)
    if (post.is_deleted) throw notFound('post not found: it was deleted')
    if (post.user_id === me.id) throw invalid('you cannot report your own post')
    await this.file(me.id, 'post', { target_id: post.id, target_user_id: post.user_id, content: contentOf(post) }, reason)
    await this.relations.mute(viewer, String(post.user_id))
    return post
  }

  /**
   * The viewer reports the account `ref` names (an id or `@username`, as
   * they see it) and mutes it, as a post's report mutes its author.
   * Reporting it again changes nothing. Answers the account. Errors:
   * `not_found`, `invalid` (their own account). Emits `report.created`
   * (once) and `mute.added` (unless muted already).
   */
  async reportUser(viewer: Viewer, ref: string, reason?: string): Promise<UserRow> {
    const me = actingUser(viewer)
    const user = await this.users.resolve(ref, viewer)
    if (user.id === me.id) throw invalid('you cannot report your own account')
    await this.file(me.id, 'user', { target_id: user.id, target_user_id: user.id, content: profileOf(user) }, reason)
    await this.relations.mute(viewer, String(user.id))
    return user
  }

  /**
   * The viewer reports message `messageId` of channel `channelId` (one they
   * can read, not deleted, not their own). Reporting it again changes
   * nothing; nobody is muted (a channel's members are chosen). Answers the
   * message. Errors: `not_found`, `invalid`. Emits `report.created` (once).
   */
  async reportMessage(viewer: Viewer, channelId: number, messageId: number, reason?: string): Promise<MessageRow> {
    const me = actingUser(viewer)
    const message = await this.messages.get(viewer, channelId, messageId)
    if (message.is_deleted) throw notFound('message not found: it was deleted')
    if (message.user_id === me.id) throw invalid('you cannot report your own message')
    await this.file(
      me.id,
      'message',
      { target_id: message.id, target_user_id: message.user_id, channel_id: message.channel_id, content: contentOf(message) },
      reason,
    )
    return message
  }

  /** Keeps reporter `reporterId`'s report of `kind` about `target`, unless they reported it already. */
  private async file(reporterId: number, kind: ReportKind, target: Target, reason: string | undefined): Promise<void> {
    const why = reason?.trim()
    if (why !== undefined && why.length > REPORT_REASON_MAX) throw invalid(`reason must be at most ${REPORT_REASON_MAX} characters`)
    await this.store.transact(async (tx) => {
      if (await tx.reports.one('reporter_target', `${reporterId}:${kind}:${target.target_id}`)) return
      const report = tx.reports.insert({ reporter_id: reporterId, kind, ...target, ...(why ? { reason: why } : {}), created_at: isoNow() })
      tx.emit('report.created', { report })
    })
  }

  /** The reports, oldest first: the open ones, or every one with `all`. */
  async list({ all = false }: { all?: boolean } = {}): Promise<ReportFacts[]> {
    const ids = all
      ? await this.store.read.reports.scan({ limit: ALL, order: 'asc' })
      : await this.store.read.reports.ids('open', 1, { limit: ALL, order: 'asc' })
    return Promise.all((await this.store.read.reports.getMany(ids)).map((r) => this.factsOf(r)))
  }

  /** `report` with the usernames of its reporter and of the post's author. */
  async factsOf(report: ReportRow): Promise<ReportFacts> {
    const name = async (id: number) => (await this.store.read.users.get(id))?.username ?? `#${id}`
    return {
      id: report.id,
      kind: report.kind,
      post_id: report.kind === 'post' ? report.target_id : null,
      user_id: report.kind === 'user' ? report.target_id : null,
      message_id: report.kind === 'message' ? report.target_id : null,
      channel_id: report.channel_id ?? null,
      reporter: await name(report.reporter_id),
      author: await name(report.target_user_id),
      reason: report.reason ?? null,
      content: report.content,
      created_at: report.created_at,
      resolved_at: report.resolved_at ?? null,
      resolution: report.resolution ?? null,
    }
  }

  /**
   * The operator closes report `id` with a note on what was done. Closing a
   * closed report answers it unchanged. Errors: `not_found`, `invalid`.
   * Emits `report.resolved`.
   */
  async resolve(id: number, note?: string): Promise<ReportRow> {
    const text = note?.trim()
    if (text !== undefined && text.length > REPORT_REASON_MAX) throw invalid(`the note must be at most ${REPORT_REASON_MAX} characters`)
    return this.store.transact(async (tx) => {
      const report = await tx.reports.get(id)
      if (!report) throw notFound(`report ${id} not found`)
      if (report.resolved_at !== undefined) return report
      const resolved = tx.reports.put({ ...report, resolved_at: isoNow(), ...(text ? { resolution: text } : {}) })
      tx.emit('report.resolved', { report: resolved })
      return resolved
    })
  }
}
