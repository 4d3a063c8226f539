/** A "3" badge on Notifications in the navigation, read out as "3 new notifications", and a status that announces changes. */
import { useNotifications } from './notifications-context'

const phrase = (n: number): string => (n === 1 ? '1 new notification' : `${n} new notifications`)

/** Inside the Notifications link: part of its name. */
export function NotificationCount() {
  const unread = useNotifications()?.unread ?? 0
  if (!unread) return null
  return (
    <span className="unread-count" data-testid="notification-count">
      <span aria-hidden="true" className="count-badge">
        {unread}
      </span>
      <span className="visually-hidden">, {phrase(unread)}</span>
    </span>
  )
}

/** Outside the link (a link's name is no place for a live region): says the new count when it changes. */
export function NotificationAnnouncement() {
  const unread = useNotifications()?.unread ?? 0
  return (
    <span className="visually-hidden" role="status">
      {unread ? phrase(unread) : ''}
    </span>
  )
}
