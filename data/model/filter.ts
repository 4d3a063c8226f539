/** The object types a clause may name: `meta.type` of a streamed message. */
export const FILTER_OBJECT_TYPES = [
  'post',
  'star',
  'user_follow',
  'mute',
  'block',
  'stream_marker',
  'message',
  'channel',
  'channel_subscription',
  'token',
  'file',
] as const

export type FilterObjectType = (typeof FILTER_OBJECT_TYPES)[number]

/** How a clause compares its field with its value (the 2012 draft's `contains` is not one of them). */
export const FILTER_OPERATORS = ['equals', 'matches', 'lt', 'le', 'gt', 'ge', 'one_of'] as const

export type FilterOperator = (typeof FILTER_OPERATORS)[number]

/** How the clauses' results make the filter's: include or exclude a message matching any or all of them. */
export const MATCH_POLICIES = ['include_any', 'include_all', 'exclude_any', 'exclude_all'] as const

export type MatchPolicy = (typeof MATCH_POLICIES)[number]

/** The variable a `one_of` clause may take as its value: the ids of the users who authorized the streaming app. */
export const AUTHORIZED_USER_IDS = '$authorized_userids'

export interface FilterClause {
  object_type: FilterObjectType
  operator: FilterOperator
  /** A JSON Pointer into the streamed message (`/data/user/id`); a `*` segment stands for every element of a list. */
  field: string
  /** As the client gave it: a scalar, a list (`one_of`), or `$authorized_userids`. */
  value: string | number | (string | number)[]
}

export interface FilterRow {
  readonly id: number
  /** The user who made it through the API; absent on a filter an app stream defines inline. */
  user_id?: number
  /** The app whose stream defines it inline; such a filter is in no user's list. */
  app_id?: number
  name?: string
  match_policy: MatchPolicy
  clauses: FilterClause[]
  created_at: string
  updated_at?: string
}
