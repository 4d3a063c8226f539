import type { User } from '../../../api'

export function Avatar({ user, size = 48 }: { user: User; size?: number }) {
  return (
    <img className="avatar" src={`${user.avatar_image.url}${user.avatar_image.url.includes('?') ? '&' : '?'}w=${size * 2}`} width={size} height={size} alt="" />
  )
}
