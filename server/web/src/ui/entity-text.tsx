/** A post's or message's text with its entities as links: mentions to profiles, hashtags to their stream, links out. */
import { Link } from 'wouter'
import type { Entities } from '../../../api'
import { paths } from '../paths'

interface Span {
  pos: number
  len: number
  node: (text: string, key: number) => React.ReactNode
}

export function EntityText({ text, entities }: { text: string; entities?: Entities }) {
  const spans: Span[] = [
    ...(entities?.mentions ?? []).map((m) => ({
      ...m,
      node: (t: string, k: number) => (
        <Link key={k} href={paths.profile(m.name)} className="mention">
          {t}
        </Link>
      ),
    })),
    ...(entities?.hashtags ?? []).map((h) => ({
      ...h,
      node: (t: string, k: number) => (
        <Link key={k} href={paths.hashtag(h.name)} className="hashtag">
          {t}
        </Link>
      ),
    })),
    ...(entities?.links ?? []).map((l) => ({
      ...l,
      node: (t: string, k: number) => (
        <a key={k} href={l.url} rel="noopener noreferrer nofollow" target="_blank">
          {t}
        </a>
      ),
    })),
  ].sort((a, b) => a.pos - b.pos)
  // Positions count code points, as the API does.
  const chars = Array.from(text)
  const out: React.ReactNode[] = []
  let at = 0
  spans.forEach((span, i) => {
    if (span.pos < at) return
    if (span.pos > at) out.push(chars.slice(at, span.pos).join(''))
    out.push(span.node(chars.slice(span.pos, span.pos + span.len).join(''), i))
    at = span.pos + span.len
  })
  if (at < chars.length) out.push(chars.slice(at).join(''))
  return <>{out}</>
}
