/** `user_id` follows `target_id`; the row id is the pagination id of follower lists. */
export interface FollowRow {
  readonly id: number
  user_id: number
  target_id: number
  created_at: string
}
export interface MuteRow {
  readonly id: number
  user_id: number
  target_id: number
  created_at: string
}
export interface BlockRow {
  readonly id: number
  user_id: number
  target_id: number
  created_at: string
}
