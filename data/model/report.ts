/** A user's report of a post to the operator, with what the post said then: kept whatever happens to the post. */
export interface ReportRow {
  readonly id: number
  reporter_id: number
  kind: 'post'
  target_id: number
  /** Whose post it is. */
  target_user_id: number
  /** Why, in the reporter's words (App.net's call had none; svc's takes one). */
  reason?: string
  /** The post as it was when reported: its text, and its annotations when it had them. */
  content: { text: string; created_at: string; annotations?: unknown[] }
  created_at: string
  resolved_at?: string
  /** The operator's note on what was done. */
  resolution?: string
}
