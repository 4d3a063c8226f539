/** What a report is about: a post, an account, or a message in a channel. */
export type ReportKind = 'post' | 'user' | 'message'

/** A user's report to the operator, with what was reported as it was then: kept whatever happens to it. */
export interface ReportRow {
  readonly id: number
  reporter_id: number
  kind: ReportKind
  /** The post's, the account's or the message's id. */
  target_id: number
  /** Whose post or message it is; the reported account itself for `user`. */
  target_user_id: number
  /** The message's channel, on a `message` report. */
  channel_id?: number
  /** Why, in the reporter's words (App.net's call had none; svc's takes one). */
  reason?: string
  /**
   * What was reported as it was then: a post's or message's text (and its
   * annotations), or an account's name and description.
   */
  content: { text: string; created_at: string; annotations?: unknown[]; name?: string }
  created_at: string
  resolved_at?: string
  /** The operator's note on what was done. */
  resolution?: string
}
