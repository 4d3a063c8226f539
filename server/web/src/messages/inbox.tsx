/** `/messages`: the reader's private conversations, unread ones marked, and a new message to anyone. */
import { useState } from 'react'
import { Link, useSearch } from 'wouter'
import type { Channel, User } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { Avatar } from '../ui/avatar'
import { OlderButton } from '../ui/older-button'
import { TimeAgo } from '../ui/time'
import { NewMessage } from './new-message'
import { namesOf, remember, useUsers } from './participants'
import { othersIn } from './pm'
import { useInbox } from './use-inbox'

function ConversationRow({ channel, people, meId }: { channel: Channel; people: User[]; meId?: string }) {
  const recent = channel.recent_message
  const unread = Boolean(channel.has_unread)
  const snippet = !recent ? 'No messages yet.' : recent.is_deleted ? 'Message deleted.' : (recent.text ?? '')
  return (
    <li className={unread ? 'conversation unread' : 'conversation'}>
      <Link href={paths.conversation(channel.id)} className="conversation-link">
        <span className="avatars">
          {people.slice(0, 3).map((u) => (
            <Avatar key={u.id} user={u} size={40} />
          ))}
        </span>
        <span className="conversation-body">
          <span className="conversation-head">
            <span className="names">{people.length ? namesOf(people) : 'Just you'}</span>
            {unread && (
              <>
                <span className="unread-dot" aria-hidden="true" />
                <span className="visually-hidden">unread</span>
              </>
            )}
            {recent && <TimeAgo iso={recent.created_at} />}
          </span>
          <span className="snippet">
            {recent && recent.user?.id === meId && 'You: '}
            {snippet}
          </span>
        </span>
      </Link>
    </li>
  )
}

export function Inbox() {
  const { me } = useSession()
  const inbox = useInbox()
  // A profile's "Message" button opens this with the person to write to (`?to=username`).
  const to = new URLSearchParams(useSearch()).get('to')
  const [writing, setWriting] = useState(to !== null)
  remember(inbox.channels.flatMap((c) => [c.owner, c.recent_message?.user]))
  const ids = [...new Set(inbox.channels.flatMap((c) => othersIn(c, me?.id)))].sort().join(',')
  const { users, error: peopleError } = useUsers(ids)

  return (
    <section className="inbox" aria-labelledby="inbox-title">
      <div className="inbox-head">
        <h1 id="inbox-title">Messages</h1>
        {!writing && (
          <button type="button" className="primary" onClick={() => setWriting(true)}>
            New message
          </button>
        )}
      </div>
      {writing && <NewMessage to={to ?? undefined} onCancel={() => setWriting(false)} />}
      {[inbox.error, peopleError].filter(Boolean).map((error) => (
        <p key={error} role="alert" className="error">
          {error}
        </p>
      ))}
      {inbox.loading && inbox.channels.length === 0 && <p className="loading">Loading…</p>}
      {!inbox.loading && !inbox.error && inbox.channels.length === 0 && <p className="empty">No conversations yet: write to someone.</p>}
      <ul className="conversations" aria-label="Conversations">
        {inbox.channels.map((channel) => (
          <ConversationRow key={channel.id} channel={channel} meId={me?.id} people={othersIn(channel, me?.id).flatMap((id) => users.get(id) ?? [])} />
        ))}
      </ul>
      <OlderButton more={inbox.more} loading={inbox.loadingMore} failed={Boolean(inbox.error)} onMore={inbox.loadMore} label="Older conversations" />
    </section>
  )
}
