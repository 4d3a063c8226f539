/** A person's card: cover, avatar, name, description, counts, and whether they follow the reader. */
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import type { User } from '../../../api'
import { paths } from '../paths'
import { Avatar } from '../ui/avatar'
import { EntityText } from '../ui/entity-text'

const sized = (url: string, w: number): string => `${url}${url.includes('?') ? '&' : '?'}w=${w}`
const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

export function ProfileHeader({ user, children }: { user: User; children?: ReactNode }) {
  return (
    <header className="profile-header">
      <img className="cover" src={sized(user.cover_image.url, 1200)} alt="" />
      <div className="profile-id">
        <Avatar user={user} size={96} />
        <div>
          <h1>{user.name || user.username}</h1>
          <p className="username">
            @{user.username}
            {user.follows_you && <span className="badge">Follows you</span>}
          </p>
        </div>
      </div>
      {user.description?.text && (
        <p className="description">
          <EntityText text={user.description.text} entities={user.description.entities} />
        </p>
      )}
      <ul className="counts" aria-label="Counts" aria-live="polite">
        <li>{count(user.counts.posts, 'post', 'posts')}</li>
        <li>
          <Link href={paths.followers(user.username)}>{count(user.counts.followers, 'follower', 'followers')}</Link>
        </li>
        <li>
          <Link href={paths.following(user.username)}>{count(user.counts.following, 'following', 'following')}</Link>
        </li>
        <li>{count(user.counts.stars, 'star', 'stars')}</li>
      </ul>
      {children}
    </header>
  )
}
