/** `/people/:username/followers` and `/following`: the people on either side of someone's follows, paged back. */
import { Link } from 'wouter'
import { usePagedList } from '../api/paged-list'
import type { User } from '../../../api'
import { paths } from '../paths'
import { UserTrouble } from './profile'
import { UserRow } from './user-row'
import { useUser } from './use-user'
import { ErrorLine } from '../ui/error-line'
import { OlderButton } from '../ui/older-button'

type Side = 'followers' | 'following'

const TITLES: Record<Side, (name: string) => string> = {
  followers: (name) => `People following @${name}`,
  following: (name) => `People @${name} follows`,
}

function FollowList({ user, side }: { user: User; side: Side }) {
  const list = usePagedList<User>(`/users/${user.id}/${side}`, { count: 20 })
  const replace = (changed: User) => list.update((items) => items.map((u) => (u.id === changed.id ? { ...changed, pagination_id: u.pagination_id } : u)))
  return (
    <section aria-labelledby="follow-list-title">
      <h1 id="follow-list-title">{TITLES[side](user.username)}</h1>
      <p>
        <Link href={paths.profile(user.username)}>Back to @{user.username}</Link>
      </p>
      <ErrorLine message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && (
        <p className="empty">{side === 'followers' ? 'No followers yet.' : 'Not following anyone yet.'}</p>
      )}
      <ul className="user-list" aria-live="polite">
        {list.items.map((u) => (
          <UserRow key={u.id} user={u} onChange={replace} />
        ))}
      </ul>
      {list.loading && <p className="loading">Loading…</p>}
      <OlderButton more={list.more} loading={list.loading} failed={Boolean(list.error)} onMore={list.loadMore} />
    </section>
  )
}

export function FollowPeople({ username, side }: { username: string; side: Side }) {
  const { user, error, missing } = useUser(username)
  if (!user) return <UserTrouble username={username} missing={missing} error={error} />
  return <FollowList user={user} side={side} />
}
