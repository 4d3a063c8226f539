/**
 * A post's thread (`/thread/:id`): every post of the conversation in order,
 * replies indented under what they answer, the chosen post highlighted,
 * deleted ones kept as a line so the structure holds; replies are written
 * in place and new ones arrive live, counted at once in what they answer.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { Post } from '../../../api'
import { useSession } from '../auth/session'
import { useLiveList } from '../stream/live-list'
import { Compose } from './compose'
import { PostItem } from './post-item'
import { usePostKeys } from './post-keys'
import { scrollToPost } from './read-marker'
import { ShortcutsHelp } from './shortcuts-help'
import { threadOrder } from './thread-order'
import { ErrorLine } from '../ui/error-line'

const THREAD_QUERY = { include_post_annotations: 1, include_deleted: 1, count: 200 }
/** Deeper replies stay at this indent (a phone has no room for more). */
const MAX_INDENT = 4

/** The posts among `items` that `replies` answer, each with its reply count moved on by as many. */
function answered(items: Post[], replies: Post[]): Post[] {
  const added = new Map<string, number>()
  for (const reply of replies) if (reply.reply_to && !reply.is_deleted) added.set(reply.reply_to, (added.get(reply.reply_to) ?? 0) + 1)
  return items.flatMap((post) => {
    const more = added.get(post.id)
    return more ? [{ ...post, num_replies: post.num_replies + more }] : []
  })
}

export function Thread({ id }: { id: string }) {
  const { me } = useSession()
  const list = useLiveList<Post>(`/posts/${encodeURIComponent(id)}/replies`, THREAD_QUERY)
  const [replyTo, setReplyTo] = useState<Post | null>(null)
  const entries = useMemo(() => threadOrder(list.items), [list.items])
  const readable = useMemo(() => entries.map((e) => e.post).filter((p) => !p.is_deleted), [entries])
  const keys = usePostKeys({ items: readable, onReply: setReplyTo })
  const scrolled = useRef<string | null>(null)
  const { pending, showPending, items, replace } = list
  // Replies already counted in their parent: one written here also comes back on the stream.
  const counted = useRef(new Set<string>())

  // The server counted a parent's replies when it was read; each reply joining since moves its count on.
  const countReplies = useCallback(
    (replies: Post[]) => {
      const fresh = replies.filter((r) => !counted.current.has(r.id) && !items.some((i) => i.id === r.id))
      for (const reply of fresh) counted.current.add(reply.id)
      for (const parent of answered(items, fresh)) replace(parent)
    },
    [items, replace],
  )

  // A thread is read as a whole: what arrives joins it in its place at once.
  useEffect(() => {
    if (!pending.length) return
    countReplies(pending)
    showPending()
  }, [pending, showPending, countReplies])
  useEffect(() => {
    if (scrolled.current === id || !list.items.some((p) => p.id === id)) return
    scrolled.current = id
    scrollToPost(id)
  }, [id, list.items])

  const actions = { onChange: list.replace, onDelete: list.remove, onReply: setReplyTo }
  return (
    <section className="thread" aria-labelledby="thread-title">
      <h1 id="thread-title">Thread</h1>
      <ErrorLine message={list.error} />
      {list.loading && list.items.length === 0 && <p className="loading">Loading…</p>}
      <ol className="thread-posts" aria-live="polite" aria-relevant="additions">
        {entries.map(({ post, depth, parent }) => (
          <li key={post.id} style={{ marginInlineStart: `${Math.min(depth, MAX_INDENT) * 1.25}rem` }} className={depth ? 'reply' : undefined}>
            {post.is_deleted ? (
              <p className="deleted-post" id={`post-${post.id}`}>
                This post was deleted.
              </p>
            ) : (
              <PostItem
                post={post}
                actions={actions}
                current={post.id === id}
                selected={keys.selected >= 0 && readable[keys.selected]?.id === post.id}
                inReplyTo={depth > MAX_INDENT ? parent : undefined}
                replyContext={false}
              />
            )}
            {me && replyTo?.id === post.id && (
              <Compose
                replyTo={replyTo}
                onPosted={(reply) => {
                  setReplyTo(null)
                  countReplies([reply])
                  list.add(reply)
                }}
                onCancel={() => setReplyTo(null)}
              />
            )}
          </li>
        ))}
      </ol>
      {list.more && (
        <button type="button" className="more" onClick={() => void list.loadMore()}>
          Earlier posts of the thread
        </button>
      )}
      <ShortcutsHelp open={keys.helpOpen} onClose={keys.closeHelp} />
    </section>
  )
}
