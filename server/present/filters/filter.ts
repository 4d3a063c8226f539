/** The API shape of a Filter: its clauses as the client gave them, and its owner as a User. */
import type { FilterRow, UserRow } from '../../../data/index.js'
import type { Filter, User } from '../../api/index.js'
import type { PresentContext } from '../context.js'
import { presentUser } from '../users/user.js'

const filterJson = (filter: FilterRow, owner: User | undefined): Filter => ({
  id: String(filter.id),
  ...(filter.name !== undefined ? { name: filter.name } : {}),
  match_policy: filter.match_policy,
  clauses: filter.clauses.map(({ object_type, operator, field, value }) => ({ object_type, operator, field, value })),
  ...(owner ? { owner } : {}),
})

/**
 * Filters of one owner (the user they belong to; `null` for an app stream's
 * inline filter, or an account gone): the spec lets `owner` be omitted then.
 */
export async function presentFilters(ctx: PresentContext, filters: readonly FilterRow[], owner: UserRow | null): Promise<Filter[]> {
  const ownerJson = owner && filters.length > 0 ? await presentUser(ctx, owner) : undefined
  return filters.map((filter) => filterJson(filter, filter.user_id === owner?.id ? ownerJson : undefined))
}

export const presentFilter = async (ctx: PresentContext, filter: FilterRow, owner: UserRow | null): Promise<Filter> =>
  (await presentFilters(ctx, [filter], owner))[0]
