/**
 * Where the person stopped reading a stream (its stream marker, from
 * `meta.marker`): when the list opens it scrolls to the marked post and
 * counts the newer ones above it; when scrolling stops for a while the
 * topmost fully visible post becomes the marker (`POST /posts/marker`).
 */
import { useEffect, useRef, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { Post } from '../../../api'
import type { LiveList } from '../stream/live-list'

/** How long scrolling must have stopped before the position is saved (the API asks not to sync every scroll). */
export const MARKER_DELAY_MS = 1500
/** How many older pages are loaded to reach a marked post. */
const MAX_PAGES_TO_MARKER = 5

const headerBottom = (): number => document.querySelector('header.top')?.getBoundingClientRect().bottom ?? 0

/** The first post wholly in view below the sticky header. */
function topmostVisible(container: HTMLElement): string | null {
  const top = headerBottom()
  for (const node of container.querySelectorAll<HTMLElement>('article[data-post-id]')) {
    const rect = node.getBoundingClientRect()
    if (rect.top >= top - 1 && rect.bottom <= window.innerHeight) return node.dataset.postId ?? null
  }
  return null
}

export function scrollToPost(id: string): void {
  const node = document.querySelector<HTMLElement>(`article[data-post-id="${id}"]`)
  if (!node) return
  window.scrollTo({ top: window.scrollY + node.getBoundingClientRect().top - headerBottom() - 4 })
}

export interface ReadMarker {
  /** Posts newer than the marked one, when the list opened there (null: it opened at the top). */
  newer: number | null
  error: string | null
  backToNewest(): void
}

export function useReadMarker(list: LiveList<Post>, container: React.RefObject<HTMLElement | null>, enabled: boolean): ReadMarker {
  const [newer, setNewer] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)
  const restored = useRef(false)
  const pagesLoaded = useRef(0)
  const [fetching, setFetching] = useState(false)
  const saved = useRef<string | null>(null)
  const marker = list.meta?.marker

  // Reopening: go to the marked post, loading older pages while it is further down.
  useEffect(() => {
    if (!enabled || restored.current || fetching || list.loading || !marker) return
    saved.current = marker.id ?? null
    const index = marker.id ? list.items.findIndex((p) => p.id === marker.id) : -1
    if (index > 0) {
      scrollToPost(marker.id as string)
      setNewer(index)
    } else if (marker.id && index < 0 && list.more && pagesLoaded.current < MAX_PAGES_TO_MARKER) {
      pagesLoaded.current += 1
      setFetching(true)
      list
        .loadMore()
        .catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'Older posts could not be loaded.'))
        .finally(() => setFetching(false))
      return
    }
    restored.current = true
  }, [enabled, list, marker, fetching])

  // Reading: save the position once scrolling has stopped.
  useEffect(() => {
    const name = marker?.name
    if (!enabled || !name) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const save = () => {
      const id = container.current && topmostVisible(container.current)
      if (!id || id === saved.current) return
      saved.current = id
      api.post('/posts/marker', { name, id }).then(
        () => setError(null),
        (err: unknown) => setError(err instanceof ApiError ? err.message : 'Your reading position was not saved.'),
      )
    }
    const onScroll = () => {
      clearTimeout(timer)
      timer = setTimeout(save, MARKER_DELAY_MS)
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      clearTimeout(timer)
      window.removeEventListener('scroll', onScroll)
    }
  }, [enabled, marker?.name, container])

  return { newer, error, backToNewest: () => window.scrollTo({ top: 0 }) }
}
