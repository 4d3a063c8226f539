/**
 * A stream of posts: the list, a "new posts" bar for what arrived live,
 * paging back as the reader scrolls (or clicks "Older posts"), replies written in place, the keyboard (see post-keys.ts),
 * and for streams with a marker, the place where the person stopped reading.
 */
import { useMemo, useRef, useState } from 'react'
import type { Query } from '../api/client'
import type { Post } from '../../../api'
import { useSession } from '../auth/session'
import { useLiveList } from '../stream/live-list'
import { Compose } from './compose'
import { PostItem } from './post-item'
import { usePostKeys } from './post-keys'
import { useReadMarker } from './read-marker'
import { ShortcutsHelp } from './shortcuts-help'
import { OlderButton } from '../ui/older-button'

export const POST_QUERY: Query = { include_post_annotations: 1, count: 20 }

interface TimelineProps {
  path: string
  title: string
  query?: Query
  live?: boolean
  empty?: string
  /** A compose box above the list; what it posts shows at once. */
  compose?: boolean
  /** The title's heading level: 2 under a screen's own heading (a profile's posts). */
  level?: 1 | 2
  /** Remember where the person read (the stream's marker) and reopen there. */
  marker?: boolean
}

export function Timeline({ path, title, query, live = true, empty = 'Nothing here yet.', compose = false, level = 1, marker = false }: TimelineProps) {
  const Heading = level === 2 ? 'h2' : 'h1'
  const { me } = useSession()
  const merged = useMemo(() => ({ ...POST_QUERY, ...(marker ? { include_marker: 1 } : {}), ...query }), [query, marker])
  const list = useLiveList<Post>(path, merged, live)
  const [replyTo, setReplyTo] = useState<Post | null>(null)
  const keys = usePostKeys({ items: list.items, onReply: setReplyTo, onShowPending: list.showPending })
  const posts = useRef<HTMLDivElement>(null)
  const read = useReadMarker(list, posts, marker && Boolean(me))

  const actions = {
    onChange: list.replace,
    onDelete: list.remove,
    onReply: (post: Post) => setReplyTo(post),
  }
  return (
    <section className="timeline" aria-labelledby="timeline-title">
      <Heading id="timeline-title">{title}</Heading>
      {compose && me && <Compose onPosted={list.add} />}
      {list.pending.length > 0 && (
        <button type="button" className="new-posts" onClick={list.showPending}>
          {list.pending.length === 1 ? '1 new post' : `${list.pending.length} new posts`}
        </button>
      )}
      <div aria-live="polite" className="read-position">
        {read.newer !== null && read.newer > 0 && (
          <p>
            You were here: {read.newer === 1 ? '1 newer post' : `${read.newer} newer posts`} above.{' '}
            <button type="button" onClick={read.backToNewest}>
              Go to the newest
            </button>
          </p>
        )}
      </div>
      {(list.error ?? read.error) && (
        <p role="alert" className="error">
          {list.error ?? read.error}
        </p>
      )}
      {list.loading && list.items.length === 0 && <p className="loading">Loading…</p>}
      {!list.loading && !list.error && list.items.length === 0 && <p className="empty">{empty}</p>}
      <div className="posts" ref={posts}>
        {list.items.map((post, i) => (
          <div key={post.id}>
            <PostItem post={post} actions={actions} selected={i === keys.selected} />
            {replyTo && replyTo.id === (post.repost_of ?? post).id && (
              <Compose
                replyTo={replyTo}
                onPosted={(reply) => {
                  setReplyTo(null)
                  if (compose) list.add(reply)
                }}
                onCancel={() => setReplyTo(null)}
              />
            )}
          </div>
        ))}
      </div>
      <OlderButton more={list.more} loading={list.loadingMore} failed={Boolean(list.error)} onMore={list.loadMore} label="Older posts" />
      <ShortcutsHelp open={keys.helpOpen} onClose={keys.closeHelp} />
    </section>
  )
}
