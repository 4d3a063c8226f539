/**
 * The reader's private conversations, latest activity first, each with its
 * most recent message. The inbox is ordered by activity, so anything the
 * user stream says about it (a message, a new conversation, a marker moved)
 * reads the shown part again rather than patching it.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, ApiError, type Query } from '../api/client'
import type { Channel, Meta } from '../../../api'
import { useUserStream } from '../stream/stream-context'
import { PM_TYPE } from './pm'

const PAGE = 20
const QUERY: Query = { channel_types: PM_TYPE, include_recent_message: 1 }
const SETTLE_MS = 150

export interface Inbox {
  channels: Channel[]
  loading: boolean
  error: string | null
  more: boolean
  /** Older conversations are on their way. */
  loadingMore: boolean
  loadMore(): Promise<void>
}

const messageOf = (err: unknown): string => (err instanceof ApiError ? err.message : 'Your conversations could not be loaded.')

export function useInbox(): Inbox {
  const stream = useUserStream()
  const [channels, setChannels] = useState<Channel[]>([])
  const [meta, setMeta] = useState<Meta | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const shown = useRef(PAGE)
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const [loadingMore, setLoadingMore] = useState(false)
  // A click and the scroll that brought the button into view may both ask for the same page.
  const paging = useRef(false)

  const read = useCallback(async (extra: Query = {}) => {
    const answer = await api.get<Channel[]>('/channels', { ...QUERY, count: shown.current, ...extra })
    setChannels(answer.data)
    setMeta(answer.meta)
    setError(null)
  }, [])

  const reread = useCallback(() => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => void read().catch((err: unknown) => setError(messageOf(err))), SETTLE_MS)
  }, [read])

  useEffect(() => {
    let cancelled = false
    let stopListening = () => {}
    const load = async () => {
      const extra: Query = {}
      if (stream) {
        const subscriptionId = crypto.randomUUID()
        extra.connection_id = await stream.connection()
        extra.subscription_id = subscriptionId
        if (cancelled) return
        stopListening = stream.listen(subscriptionId, reread)
      }
      await read(extra)
    }
    setLoading(true)
    load()
      .catch((err: unknown) => !cancelled && setError(messageOf(err)))
      .finally(() => !cancelled && setLoading(false))
    const stopReset = stream?.onReset(() => {
      stopListening()
      void load().catch((err: unknown) => !cancelled && setError(messageOf(err)))
    })
    return () => {
      cancelled = true
      clearTimeout(timer.current)
      stopListening()
      stopReset?.()
    }
  }, [stream, read, reread])

  const loadMore = useCallback(async () => {
    if (!meta?.min_id || paging.current) return
    paging.current = true
    setLoadingMore(true)
    try {
      const answer = await api.get<Channel[]>('/channels', { ...QUERY, count: PAGE, before_id: meta.min_id })
      setChannels((list) => [...list, ...answer.data.filter((c) => !list.some((l) => l.id === c.id))])
      setMeta((old) => ({ ...answer.meta, max_id: old?.max_id ?? answer.meta.max_id }))
      shown.current += answer.data.length
    } catch (err) {
      setError(messageOf(err))
    } finally {
      paging.current = false
      setLoadingMore(false)
    }
  }, [meta])

  return { channels, loading, error, more: Boolean(meta?.more), loadingMore, loadMore }
}
