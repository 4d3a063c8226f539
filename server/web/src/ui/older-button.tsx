/**
 * "Older" under a list that has more. It pages back by itself when it
 * scrolls into view (infinite scroll), and stays a button for keyboards,
 * for browsers without IntersectionObserver, and for whoever would rather
 * click. While a page loads it says so and stays where it is, so focus on
 * it is not lost. After a page failed (`failed`) it waits for a click
 * rather than asking again and again.
 */
import { useEffect, useRef } from 'react'

/** How far below the screen the button may still be when the next page is asked for, so it is there before the reader is. */
const AHEAD = '0px 0px 400px 0px'

interface OlderButtonProps {
  more: boolean
  loading?: boolean
  failed?: boolean
  onMore(): unknown
  label?: string
}

export function OlderButton({ more, loading = false, failed = false, onMore, label = 'Older' }: OlderButtonProps) {
  const button = useRef<HTMLButtonElement>(null)
  const latest = useRef(onMore)
  latest.current = onMore

  // Observed anew after each page: a button still in view after one page asks for the next.
  useEffect(() => {
    const element = button.current
    if (!element || !more || loading || failed || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return
        observer.disconnect()
        void latest.current()
      },
      { rootMargin: AHEAD },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [more, loading, failed])

  if (!more) return null
  return (
    <button type="button" className="more" ref={button} aria-busy={loading} onClick={() => !loading && void onMore()}>
      {loading ? 'Loading…' : label}
    </button>
  )
}
