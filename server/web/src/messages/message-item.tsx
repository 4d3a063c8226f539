/** One message in a conversation: who, when, the text with its entities. */
import { Link } from 'wouter'
import type { Message } from '../../../api'
import { paths } from '../paths'
import { Avatar } from '../ui/avatar'
import { EntityText } from '../ui/entity-text'
import { TimeAgo } from '../ui/time'
import { ReportButton } from '../moderation/report-button'

export function MessageItem({ message, mine }: { message: Message; mine: boolean }) {
  const user = message.user
  if (!user) return null
  return (
    <article className={mine ? 'message mine' : 'message'} aria-label={`Message from @${user.username}`} data-message-id={message.id}>
      <Avatar user={user} size={36} />
      <div className="message-body">
        <header>
          <Link href={paths.profile(user.username)} className="name">
            {user.name || user.username}
          </Link>{' '}
          <span className="when">
            <TimeAgo iso={message.created_at} />
          </span>
        </header>
        {message.is_deleted ? (
          <p className="text deleted">Message deleted.</p>
        ) : (
          <p className="text">
            <EntityText text={message.text ?? ''} entities={message.entities} />
          </p>
        )}
        {!mine && !message.is_deleted && (
          <ReportButton path={`/channels/${message.channel_id}/messages/${message.id}/report`} what="message" username={user.username} mutes={false} />
        )}
      </div>
    </article>
  )
}
