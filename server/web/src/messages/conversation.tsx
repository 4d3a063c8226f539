/**
 * `/messages/:channelId`: one conversation, oldest at the top, live; what
 * arrives is shown at once and, while the page is in view, marked read (so
 * the unread count drops); a send box at the bottom.
 */
import { useEffect, useRef, useState } from 'react'
import { Link } from 'wouter'
import { api, ApiError, type Query } from '../api/client'
import type { Channel, Message } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { useLiveList } from '../stream/live-list'
import { namesOf, remember, useUsers } from './participants'
import { markRead, othersIn } from './pm'
import { MessageItem } from './message-item'
import { SendBox } from './send-box'
import { useUnread } from './unread'

const QUERY: Query = { count: 30 }

function useChannel(channelId: string): { channel: Channel | null; error: string | null } {
  const [channel, setChannel] = useState<Channel | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let cancelled = false
    setChannel(null)
    setError(null)
    api
      .get<Channel>(`/channels/${encodeURIComponent(channelId)}`)
      .then((a) => !cancelled && setChannel(a.data))
      .catch((err: unknown) => !cancelled && setError(err instanceof ApiError ? err.message : 'This conversation could not be loaded.'))
    return () => {
      cancelled = true
    }
  }, [channelId])
  return { channel, error }
}

/** Marks the newest message read whenever it changes while the page is visible, and once more when the page comes back into view. */
function useReadMarker(channelId: string, newestId: string | undefined): string | null {
  const { refresh } = useUnread()
  const [error, setError] = useState<string | null>(null)
  const marked = useRef<string | undefined>(undefined)
  useEffect(() => {
    const mark = () => {
      if (!newestId || marked.current === newestId || document.visibilityState !== 'visible') return
      marked.current = newestId
      markRead(channelId, newestId)
        .then(() => {
          setError(null)
          refresh()
        })
        .catch((err: unknown) => {
          marked.current = undefined
          setError(err instanceof ApiError ? err.message : 'This conversation could not be marked read.')
        })
    }
    mark()
    document.addEventListener('visibilitychange', mark)
    return () => document.removeEventListener('visibilitychange', mark)
  }, [channelId, newestId, refresh])
  return error
}

export function Conversation({ channelId }: { channelId: string }) {
  const { me } = useSession()
  const { channel, error: channelError } = useChannel(channelId)
  const list = useLiveList<Message>(`/channels/${encodeURIComponent(channelId)}/messages`, QUERY)
  const { pending, showPending } = list
  // A conversation has no "new messages" bar: what arrives joins it.
  useEffect(() => {
    if (pending.length) showPending()
  }, [pending, showPending])
  const newest = list.items[0]
  const markerError = useReadMarker(channelId, newest?.id)
  const end = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (newest) end.current?.scrollIntoView({ block: 'end' })
  }, [newest])

  remember([channel?.owner, ...list.items.map((m) => m.user)])
  const others = channel ? othersIn(channel, me?.id) : []
  const { users } = useUsers(others.join(','))
  const people = others.flatMap((id) => users.get(id) ?? [])
  // Until the others' names have arrived the title names nobody, rather than saying it is a note to oneself.
  const title = !channel
    ? 'Conversation'
    : others.length === 0
      ? 'Conversation with yourself'
      : people.length
        ? `Conversation with ${namesOf(people)}`
        : 'Conversation'

  const send = async (text: string) => {
    const { data } = await api.post<Message>(`/channels/${encodeURIComponent(channelId)}/messages`, { text })
    list.add(data)
  }

  const errors = [channelError, list.error, markerError].filter(Boolean) as string[]
  return (
    <section className="conversation-screen" aria-labelledby="conversation-title">
      <p className="back">
        <Link href={paths.messages}>← All messages</Link>
      </p>
      <h1 id="conversation-title">{title}</h1>
      {errors.map((error) => (
        <p key={error} role="alert" className="error">
          {error}
        </p>
      ))}
      {list.more && (
        <button type="button" className="more" onClick={() => void list.loadMore()}>
          Earlier messages
        </button>
      )}
      {list.loading && list.items.length === 0 && <p className="loading">Loading…</p>}
      {!list.loading && !list.error && list.items.length === 0 && <p className="empty">No messages yet.</p>}
      <div className="messages" role="log" aria-label="Messages">
        {[...list.items].reverse().map((message) => (
          <MessageItem key={message.id} message={message} mine={message.user?.id === me?.id} />
        ))}
      </div>
      <div ref={end} />
      {!channelError && <SendBox label={people.length ? `Message to ${namesOf(people)}` : 'Message'} onSend={send} autoFocus className="docked" />}
    </section>
  )
}
