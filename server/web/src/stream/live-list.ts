/**
 * A paginated API list that stays current: loaded with a subscription on
 * the user stream (when signed in), newest first. New items wait in
 * `pending` until the reader asks for them (the "new posts" bar), changed
 * items are replaced where they are, deleted ones leave.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, ApiError, type Query } from '../api/client'
import type { Meta, UserStreamEvent } from '../../../api'
import { useUserStream } from './stream-context'

export interface LiveList<T> {
  items: T[]
  pending: T[]
  loading: boolean
  error: string | null
  more: boolean
  /** A page of older items is on its way. */
  loadingMore: boolean
  meta: Meta | null
  showPending(): void
  loadMore(): Promise<void>
  reload(): void
  /** Puts an item the reader just made (a post, a message) in place at once. */
  add(item: T): void
  /** Replaces an item changed by the reader (a star, a repost). */
  replace(item: T): void
  remove(id: string): void
}

interface Identified {
  id: string
}

const asList = <T>(data: unknown): T[] => (Array.isArray(data) ? (data as T[]) : data ? [data as T] : [])
const newerFirst = (a: Identified, b: Identified): number => Number(b.id) - Number(a.id)

/** `path` with `query` (stable across renders: pass a memoised or constant object), live when `live` and signed in. */
export function useLiveList<T extends Identified>(path: string | null, query: Query = {}, live = true): LiveList<T> {
  const stream = useUserStream()
  const [items, setItems] = useState<T[]>([])
  const [pending, setPending] = useState<T[]>([])
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [meta, setMeta] = useState<Meta | null>(null)
  const [generation, setGeneration] = useState(0)
  const [loadingMore, setLoadingMore] = useState(false)
  // A click and the scroll that brought the button into view may both ask for the same page.
  const paging = useRef(false)
  const shown = useRef(new Set<string>())
  const queryKey = JSON.stringify(query)

  const onEvent = useCallback((event: UserStreamEvent) => {
    if (event.meta.is_deleted) {
      const ids = new Set([event.meta.deleted_id, ...asList<Identified>(event.data).map((d) => d.id)].filter(Boolean) as string[])
      setItems((list) => list.filter((i) => !ids.has(i.id)))
      setPending((list) => list.filter((i) => !ids.has(i.id)))
      return
    }
    for (const item of asList<T>(event.data)) {
      if (shown.current.has(item.id)) setItems((list) => list.map((i) => (i.id === item.id ? item : i)))
      else setPending((list) => [item, ...list.filter((i) => i.id !== item.id)].sort(newerFirst))
    }
  }, [])

  useEffect(() => {
    if (path === null) return
    let cancelled = false
    let stopListening = () => {}
    setLoading(true)
    setError(null)
    setPending([])
    const load = async () => {
      const q: Query = { ...JSON.parse(queryKey) }
      if (stream && live) {
        const subscriptionId = crypto.randomUUID()
        q.connection_id = await stream.connection()
        q.subscription_id = subscriptionId
        stopListening = stream.listen(subscriptionId, onEvent)
      }
      const answer = await api.get<T[]>(path, q)
      if (cancelled) return
      shown.current = new Set(answer.data.map((i) => i.id))
      setItems(answer.data)
      setMeta(answer.meta)
    }
    load()
      .catch((err: unknown) => !cancelled && setError(err instanceof ApiError ? err.message : 'Something went wrong.'))
      .finally(() => !cancelled && setLoading(false))
    const stopReset = stream?.onReset(() => setGeneration((g) => g + 1))
    return () => {
      cancelled = true
      stopListening()
      stopReset?.()
    }
  }, [path, queryKey, stream, live, onEvent, generation])

  const showPending = useCallback(() => {
    setPending((waiting) => {
      for (const item of waiting) shown.current.add(item.id)
      setItems((list) => [...waiting, ...list.filter((i) => !waiting.some((w) => w.id === i.id))])
      return []
    })
  }, [])

  const loadMore = useCallback(async () => {
    if (path === null || !meta?.min_id || paging.current) return
    paging.current = true
    setLoadingMore(true)
    setError(null)
    try {
      const answer = await api.get<T[]>(path, { ...JSON.parse(queryKey), before_id: meta.min_id })
      for (const item of answer.data) shown.current.add(item.id)
      setItems((list) => [...list, ...answer.data.filter((i) => !list.some((l) => l.id === i.id))])
      setMeta((old) => ({ ...answer.meta, max_id: old?.max_id ?? answer.meta.max_id }))
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Older items could not be loaded.')
    } finally {
      paging.current = false
      setLoadingMore(false)
    }
  }, [path, queryKey, meta])

  const add = useCallback((item: T) => {
    shown.current.add(item.id)
    setPending((list) => list.filter((i) => i.id !== item.id))
    setItems((list) => [item, ...list.filter((i) => i.id !== item.id)])
  }, [])
  const replace = useCallback((item: T) => setItems((list) => list.map((i) => (i.id === item.id ? item : i))), [])
  const remove = useCallback((id: string) => setItems((list) => list.filter((i) => i.id !== id)), [])

  return {
    items,
    pending,
    loading,
    error,
    more: Boolean(meta?.more),
    loadingMore,
    meta,
    showPending,
    loadMore,
    reload: () => setGeneration((g) => g + 1),
    add,
    replace,
    remove,
  }
}
