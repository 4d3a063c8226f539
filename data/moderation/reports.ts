/**
 * Reports: a user tells the operator about a post (App.net's `POST
 * /posts/{id}/report`, which also mutes its author for the reporter); the
 * operator works through the open ones and closes each with a note. A
 * report keeps what the post said when it was made, so deleting the post
 * hides nothing from the operator.
 */
import { invalid, notFound } from '../errors.js'
import type { PostRow } from '../model/post.js'
import type { ReportRow } from '../model/report.js'
import type { PostService } from '../posts/posts.js'
import type { RelationService } from '../relations/relations.js'
import type { Store } from '../store/port.js'
import { isoNow } from '../time.js'
import { actingUser } from '../users/acting-user.js'
import type { Viewer } from '../viewer.js'

/** How long a reason may be. */
export const REPORT_REASON_MAX = 1000

const ALL = Number.MAX_SAFE_INTEGER

/** A report as the operator reads it (the CLI, the console): who reported whose post, why, and what it said then. */
export interface ReportFacts {
  id: number
  kind: 'post'
  post_id: number
  reporter: string
  author: string
  reason: string | null
  content: ReportRow['content']
  created_at: string
  resolved_at: string | null
  resolution: string | null
}

const contentOf = (post: PostRow): ReportRow['content'] => ({
  text: post.text,
  created_at: post.created_at,
  ...(post.annotations && post.annotations.length > 0 ? { annotations: post.annotations } : {}),
})

export class ReportService {
  constructor(
    private readonly store: Store,
    private readonly posts: Pick<PostService, 'find'>,
    private readonly relations: Pick<RelationService, 'mute'>,
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
    const why = reason?.trim()
    if (why !== undefined && why.length > REPORT_REASON_MAX) throw invalid(`reason must be at most ${REPORT_REASON_MAX} characters`)
    await this.store.transact(async (tx) => {
      if (await tx.reports.one('reporter_target', `${me.id}:post:${post.id}`)) return
      const report = tx.reports.insert({
        reporter_id: me.id,
        kind: 'post',
        target_id: post.id,
        target_user_id: post.user_id,
        ...(why ? { reason: why } : {}),
        content: contentOf(post),
        created_at: isoNow(),
      })
      tx.emit('report.created', { report })
    })
    await this.relations.mute(viewer, String(post.user_id))
    return post
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
      post_id: report.target_id,
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
