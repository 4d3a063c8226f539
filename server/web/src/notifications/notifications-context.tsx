/**
 * The signed-in person's notifications, kept current for the whole tab:
 * the newest mentions and interactions, loaded with subscriptions on the
 * user stream (each event asks for both lists again: the interactions list
 * is rebuilt on every call), the read position from each list's stream
 * marker, and a desktop notification for each new unread one.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useLocation } from 'wouter'
import type { Envelope, Interaction, Paginated, Post, UserStreamEvent } from '../../../api'
import { api, ApiError, type Query } from '../api/client'
import { useSession } from '../auth/session'
import { VERBS } from '../interactions/interaction-item'
import { paths } from '../paths'
import { POST_QUERY } from '../posts/timeline'
import { useUserStream } from '../stream/stream-context'
import { notifyDesktop } from './desktop-notifications'
import { describe, NOTICE_ACTIONS, noticesOf, type Notice, type ReadUpTo } from './notices'
import { useCountInTitle, useScreenTitle } from './use-title'

export interface Notifications {
  notices: Notice[]
  unread: number
  loading: boolean
  error: string | null
  more: boolean
  loadOlder(): Promise<void>
  /** Moves both markers to the newest notice shown. */
  markRead(): void
}

const MENTIONS = '/users/me/mentions'
const INTERACTIONS = '/users/me/interactions'
const MENTION_QUERY: Query = { ...POST_QUERY, include_marker: 1 }
const INTERACTION_QUERY: Query = { count: 20, interaction_actions: NOTICE_ACTIONS }
/** Events come in bursts (a reply that mentions: a post and an interaction): one reload per burst. */
const SETTLE_MS = 150

const NotificationsContext = createContext<Notifications | null>(null)

export const useNotifications = (): Notifications | null => useContext(NotificationsContext)

interface Lists {
  mentions: Post[]
  interactions: Paginated<Interaction>[]
  mentionsMarker: string
  olderMentions: string | null
  olderInteractions: string | null
}

const lastRead = (envelope: Envelope<unknown>): number => Number(envelope.meta.marker?.last_read_id ?? 0)
const olderOf = (envelope: Envelope<unknown>): string | null => (envelope.meta.more && envelope.meta.min_id ? envelope.meta.min_id : null)

export function NotificationsProvider({ children }: { children: ReactNode }) {
  const { token } = useSession()
  const stream = useUserStream()
  const [, navigate] = useLocation()
  const [lists, setLists] = useState<Lists | null>(null)
  const [read, setRead] = useState<ReadUpTo>({ mentions: 0, interactions: 0 })
  const [error, setError] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const known = useRef<Set<string> | null>(null)

  const apply = useCallback((m: Envelope<Post[]>, i: Envelope<Paginated<Interaction>[]>) => {
    setLists({
      mentions: m.data,
      interactions: i.data,
      mentionsMarker: m.meta.marker?.name ?? 'mentions',
      olderMentions: olderOf(m),
      olderInteractions: olderOf(i),
    })
    setRead({ mentions: lastRead(m), interactions: lastRead(i) })
    setError(null)
  }, [])

  const load = useCallback(
    async (subscribe?: { connection_id: string; mentions: string; interactions: string }) => {
      const [m, i] = await Promise.all([
        api.get<Post[]>(
          MENTIONS,
          subscribe ? { ...MENTION_QUERY, connection_id: subscribe.connection_id, subscription_id: subscribe.mentions } : MENTION_QUERY,
        ),
        api.get<Paginated<Interaction>[]>(
          INTERACTIONS,
          subscribe ? { ...INTERACTION_QUERY, connection_id: subscribe.connection_id, subscription_id: subscribe.interactions } : INTERACTION_QUERY,
        ),
      ])
      apply(m, i)
    },
    [apply],
  )

  const reload = useCallback(() => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => {
      load().catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'Notifications could not be loaded.'))
    }, SETTLE_MS)
  }, [load])

  useEffect(() => {
    setLists(null)
    known.current = null
    if (!token || !stream) return
    let stopListening = () => {}
    let cancelled = false
    const onEvent = (event: UserStreamEvent) => {
      const marker = event.meta.marker
      if (event.meta.type === 'stream_marker' && marker) {
        const kind = marker.name === 'interactions' ? 'interactions' : 'mentions'
        setRead((r) => ({ ...r, [kind]: Math.max(r[kind], Number(marker.last_read_id ?? 0)) }))
        return
      }
      reload()
    }
    const subscribe = async () => {
      const connection_id = await stream.connection()
      if (cancelled) return
      const ids = { connection_id, mentions: crypto.randomUUID(), interactions: crypto.randomUUID() }
      const stops = [stream.listen(ids.mentions, onEvent), stream.listen(ids.interactions, onEvent)]
      stopListening = () => stops.forEach((stop) => stop())
      await load(ids)
    }
    const start = () => void subscribe().catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'Notifications could not be loaded.'))
    start()
    const stopReset = stream.onReset(() => {
      stopListening()
      start()
    })
    return () => {
      cancelled = true
      clearTimeout(timer.current)
      stopListening()
      stopReset()
    }
  }, [token, stream, load, reload])

  const notices = useMemo(() => (lists ? noticesOf(lists.mentions, lists.interactions, read) : []), [lists, read])
  const unread = notices.filter((n) => n.unread).length
  useScreenTitle()
  useCountInTitle(unread)

  // A desktop notification for each unread notice this tab had not seen (none for those there when it opened).
  useEffect(() => {
    if (!lists) return
    const first = known.current === null
    known.current ??= new Set()
    for (const notice of notices) {
      if (known.current.has(notice.key)) continue
      known.current.add(notice.key)
      // Someone looking at the list sees it arrive there.
      const watching = document.visibilityState === 'visible' && location.pathname === paths.notifications
      if (first || !notice.unread || watching) continue
      const { title, body } = describe(notice, VERBS)
      notifyDesktop(title, body, notice.key, () => navigate(paths.notifications))
    }
  }, [lists, notices, navigate])

  const markRead = useCallback(() => {
    if (!lists) return
    const markers: { name: string; id: string }[] = []
    const newestMention = lists.mentions[0]?.id
    const newestInteraction = lists.interactions[0]?.pagination_id
    if (newestMention && Number(newestMention) > read.mentions) markers.push({ name: lists.mentionsMarker, id: newestMention })
    if (newestInteraction && Number(newestInteraction) > read.interactions) markers.push({ name: 'interactions', id: newestInteraction })
    if (markers.length === 0) return
    setRead((r) => ({
      mentions: Math.max(r.mentions, Number(newestMention ?? 0)),
      interactions: Math.max(r.interactions, Number(newestInteraction ?? 0)),
    }))
    api.post('/posts/marker', markers).catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'What you read was not saved.'))
  }, [lists, read])

  const loadOlder = useCallback(async () => {
    if (!lists) return
    try {
      const [m, i] = await Promise.all([
        lists.olderMentions ? api.get<Post[]>(MENTIONS, { ...POST_QUERY, before_id: lists.olderMentions }) : null,
        lists.olderInteractions ? api.get<Paginated<Interaction>[]>(INTERACTIONS, { ...INTERACTION_QUERY, before_id: lists.olderInteractions }) : null,
      ])
      setLists(
        (l) =>
          l && {
            ...l,
            mentions: m ? [...l.mentions, ...m.data.filter((p) => !l.mentions.some((o) => o.id === p.id))] : l.mentions,
            interactions: i ? [...l.interactions, ...i.data] : l.interactions,
            olderMentions: m ? olderOf(m) : l.olderMentions,
            olderInteractions: i ? olderOf(i) : l.olderInteractions,
          },
      )
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Older notifications could not be loaded.')
    }
  }, [lists])

  const value = useMemo<Notifications>(
    () => ({
      notices,
      unread,
      loading: lists === null && !error,
      error,
      more: Boolean(lists?.olderMentions ?? lists?.olderInteractions),
      loadOlder,
      markRead,
    }),
    [notices, unread, lists, error, loadOlder, markRead],
  )
  return <NotificationsContext.Provider value={value}>{children}</NotificationsContext.Provider>
}
