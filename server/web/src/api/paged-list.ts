/**
 * A paginated API list read once and paged back with "older" (no live
 * updates): user lists and interactions, whose items are told apart by
 * their `pagination_id` rather than an id of their own.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { api, ApiError, type Query } from './client'
import type { Meta, Paginated } from '../../../api'

export interface PagedList<T> {
  items: T[]
  loading: boolean
  error: string | null
  more: boolean
  loadMore(): Promise<void>
  /** Changes items in place (a follow button's answer). */
  update(change: (items: T[]) => T[]): void
}

const messageOf = (err: unknown): string => (err instanceof ApiError ? err.message : 'Something went wrong.')

/** `path` with `query` (compared by value, so an inline object is fine). */
export function usePagedList<T extends object>(path: string, query: Query = {}): PagedList<Paginated<T>> {
  const [items, setItems] = useState<Paginated<T>[]>([])
  const [meta, setMeta] = useState<Meta | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const queryKey = JSON.stringify(query)
  // A click and the scroll that brought the button into view may both ask for the same page.
  const paging = useRef(false)

  useEffect(() => {
    let cancelled = false
    setLoading(true)
    setError(null)
    setItems([])
    api
      .get<Paginated<T>[]>(path, JSON.parse(queryKey) as Query)
      .then((answer) => {
        if (cancelled) return
        setItems(answer.data)
        setMeta(answer.meta)
      })
      .catch((err: unknown) => !cancelled && setError(messageOf(err)))
      .finally(() => !cancelled && setLoading(false))
    return () => {
      cancelled = true
    }
  }, [path, queryKey])

  const loadMore = useCallback(async () => {
    if (!meta?.min_id || paging.current) return
    paging.current = true
    setLoading(true)
    setError(null)
    try {
      const answer = await api.get<Paginated<T>[]>(path, { ...(JSON.parse(queryKey) as Query), before_id: meta.min_id })
      setItems((list) => [...list, ...answer.data.filter((i) => !list.some((l) => l.pagination_id === i.pagination_id))])
      setMeta(answer.meta)
    } catch (err) {
      setError(messageOf(err))
    } finally {
      paging.current = false
      setLoading(false)
    }
  }, [path, queryKey, meta])

  return { items, loading, error, more: Boolean(meta?.more), loadMore, update: setItems }
}
