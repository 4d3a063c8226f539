/**
 * How many private conversations have unread messages, for the navigation.
 * Kept current through the user stream: a subscription to the pm inbox
 * (`/channels`) brings new messages, new conversations and marker moves, and
 * each of those asks the server for the count again.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { api } from '../api/client'
import { useSession } from '../auth/session'
import { useUserStream } from '../stream/stream-context'
import { PM_TYPE } from './pm'

interface Unread {
  /** Unread private conversations, or null until known. */
  count: number | null
  /** Asks the server again (after marking a conversation read). */
  refresh(): void
}

const UnreadContext = createContext<Unread>({ count: null, refresh: () => undefined })

export const useUnread = (): Unread => useContext(UnreadContext)

/** Events come in bursts (a new conversation brings its channel, subscription and message): one count per burst. */
const SETTLE_MS = 150

export function UnreadProvider({ children }: { children: ReactNode }) {
  const { token } = useSession()
  const stream = useUserStream()
  const [count, setCount] = useState<number | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)

  const refresh = useCallback(() => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      // A failed count keeps the last one shown: the navigation is no place for an error.
      api
        .get<number>('/users/me/channels/pm/num_unread')
        .then((a) => setCount(a.data))
        .catch(() => undefined)
    }, SETTLE_MS)
  }, [])

  useEffect(() => {
    if (!token) return setCount(null)
    refresh()
    if (!stream) return
    let stopListening = () => {}
    let cancelled = false
    const subscribe = async () => {
      const subscriptionId = crypto.randomUUID()
      const connectionId = await stream.connection()
      if (cancelled) return
      stopListening = stream.listen(subscriptionId, refresh)
      await api.get('/channels', { channel_types: PM_TYPE, count: 1, connection_id: connectionId, subscription_id: subscriptionId })
    }
    void subscribe().catch(() => undefined)
    const stopReset = stream.onReset(() => {
      stopListening()
      refresh()
      void subscribe().catch(() => undefined)
    })
    return () => {
      cancelled = true
      clearTimeout(timer.current)
      stopListening()
      stopReset()
    }
  }, [token, stream, refresh])

  const value = useMemo(() => ({ count, refresh }), [count, refresh])
  return <UnreadContext.Provider value={value}>{children}</UnreadContext.Provider>
}
