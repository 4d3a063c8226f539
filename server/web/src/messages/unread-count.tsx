/** A "2" badge on Messages in the navigation, read out as "2 unread conversations", and a status that announces changes. */
import { useUnread } from './unread'

const phrase = (n: number): string => (n === 1 ? '1 unread conversation' : `${n} unread conversations`)

/** Inside the Messages link: part of its name. */
export function UnreadCount() {
  const { count } = useUnread()
  if (!count) return null
  return (
    <span className="unread-count">
      <span aria-hidden="true" className="count-badge">
        {count}
      </span>
      <span className="visually-hidden">, {phrase(count)}</span>
    </span>
  )
}

/** Outside the link (a link's name is no place for a live region): says the new count when it changes. */
export function UnreadAnnouncement() {
  const { count } = useUnread()
  return (
    <span className="visually-hidden" role="status">
      {count ? phrase(count) : ''}
    </span>
  )
}
