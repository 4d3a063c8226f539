/** One person in a list: avatar, name, description, and a follow button for the signed-in reader. */
import { Link } from 'wouter'
import type { User } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { Avatar } from '../ui/avatar'
import { EntityText } from '../ui/entity-text'
import { RelationButtons } from './relation-buttons'

export function UserRow({ user, onChange }: { user: User; onChange(user: User): void }) {
  const { me } = useSession()
  return (
    <li className="user-row">
      <Avatar user={user} />
      <div>
        <Link href={paths.profile(user.username)} className="name">
          {user.name || user.username}
        </Link>{' '}
        <span className="username">@{user.username}</span>
        {user.follows_you && <span className="badge">Follows you</span>}
        {user.description?.text && (
          <p className="description">
            <EntityText text={user.description.text} entities={user.description.entities} />
          </p>
        )}
      </div>
      {me && me.id !== user.id && <RelationButtons user={user} onChange={onChange} only="follow" />}
    </li>
  )
}
