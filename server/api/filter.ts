/** The API's Filter object and its clauses (spec: Filter). */
import type { User } from './user.js'

export type FilterObjectType =
  'post' | 'star' | 'user_follow' | 'mute' | 'block' | 'stream_marker' | 'message' | 'channel' | 'channel_subscription' | 'token' | 'file'

export type FilterOperator = 'equals' | 'matches' | 'lt' | 'le' | 'gt' | 'ge' | 'one_of'

export type MatchPolicy = 'include_any' | 'include_all' | 'exclude_any' | 'exclude_all'

export interface FilterClause {
  object_type: FilterObjectType
  operator: FilterOperator
  /** A JSON Pointer into the streamed message; a `*` segment stands for every element of a list. */
  field: string
  /** As the client gave it: a scalar, a list (`one_of`), or `$authorized_userids`. */
  value: string | number | (string | number)[]
}

export interface Filter {
  id: string
  name?: string
  match_policy: MatchPolicy
  clauses: FilterClause[]
  /** Left out for an app stream's own filter, and when the account is gone. */
  owner?: User
}
