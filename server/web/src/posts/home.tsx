/** The signed-in person's screens of posts: home (with the compose box), mentions, global, a hashtag. */
import { useEffect, useRef } from 'react'
import { useSession } from '../auth/session'
import { notAShortcut } from './post-keys'
import { Timeline } from './timeline'

export function Home() {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'n' || notAShortcut(e)) return
      e.preventDefault()
      box.current?.querySelector('textarea')?.focus()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])
  return (
    <div ref={box}>
      <Timeline path="/posts/stream/unified" title="Home" empty="Follow people to see their posts here." compose marker />
    </div>
  )
}

export function Mentions() {
  return <Timeline path="/users/me/mentions" title="Mentions" empty="Nobody has mentioned you yet." marker />
}

export function Global() {
  const { token } = useSession()
  return <Timeline path="/posts/stream/global" title="Global" live={false} empty={token ? 'Nobody has posted yet: be the first.' : 'Nobody has posted yet.'} />
}

export function Hashtag({ tag }: { tag: string }) {
  return <Timeline path={`/posts/tag/${encodeURIComponent(tag)}`} title={`#${tag}`} live={false} />
}
