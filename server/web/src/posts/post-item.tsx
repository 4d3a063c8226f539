/** One post in a list: who, when, the text with its entities, attached photos, and what the reader can do with it. */
import { useState } from 'react'
import { Link } from 'wouter'
import { api, ApiError } from '../api/client'
import type { Post } from '../../../api'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { Avatar } from '../ui/avatar'
import { ConfirmDialog } from '../ui/dialog'
import { EntityText } from '../ui/entity-text'
import { TimeAgo } from '../ui/time'
import { PostPhotos } from './post-photos'
import { ErrorLine } from '../ui/error-line'
import { ReportButton } from '../moderation/report-button'

export interface PostActions {
  onChange(post: Post): void
  onDelete(id: string): void
  onReply(post: Post): void
}

interface PostItemProps {
  post: Post
  actions: PostActions
  selected?: boolean
  /** The post a thread page is about. */
  current?: boolean
  /** Shown as "in reply to @someone" (threads, where the parent is not right above). */
  inReplyTo?: Post
}

const message = (err: unknown): string => (err instanceof ApiError ? err.message : 'That did not work. Try again.')

export function PostItem({ post, actions, selected = false, current = false, inReplyTo }: PostItemProps) {
  const { me } = useSession()
  const [error, setError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const shown = post.repost_of ?? post
  if (!shown.user || shown.is_deleted) return null
  const mine = me?.id === post.user?.id
  const toggle = async (on: boolean, path: string) => {
    setError(null)
    try {
      const { data } = on ? await api.delete<Post>(path) : await api.post<Post>(path)
      // Star and repost answer the post acted on (a repost: the new repost, whose repost_of is it); a repost's row keeps showing the repost.
      const acted = data.repost_of ?? data
      // Taking back a repost from the row that is that repost: the row goes.
      if (on && mine && post.repost_of && path.endsWith('/repost')) return actions.onDelete(post.id)
      actions.onChange(post.repost_of ? { ...post, repost_of: acted } : acted)
    } catch (err) {
      setError(message(err))
    }
  }
  const remove = async () => {
    setError(null)
    try {
      await api.delete(`/posts/${post.id}`)
      actions.onDelete(post.id)
    } catch (err) {
      setError(message(err))
    }
  }
  const className = `post${selected ? ' selected' : ''}${current ? ' current' : ''}`
  return (
    <article
      className={className}
      aria-label={`Post by @${shown.user.username}`}
      aria-current={current ? 'true' : undefined}
      tabIndex={-1}
      id={`post-${post.id}`}
      data-post-id={post.id}
    >
      {post.repost_of && post.user && (
        <p className="reposted-by">
          Reposted by <Link href={paths.profile(post.user.username)}>@{post.user.username}</Link>
        </p>
      )}
      <Avatar user={shown.user} />
      <div className="post-body">
        <header>
          <Link href={paths.profile(shown.user.username)} className="name">
            {shown.user.name || shown.user.username}
          </Link>{' '}
          <span className="username">@{shown.user.username}</span> ·{' '}
          <Link href={paths.post(shown.id)} className="when">
            <TimeAgo iso={shown.created_at} />
          </Link>
        </header>
        {inReplyTo?.user && (
          <p className="in-reply-to">
            In reply to <a href={`#post-${inReplyTo.id}`}>@{inReplyTo.user.username}</a>
          </p>
        )}
        <p className="text">
          <EntityText text={shown.text ?? ''} entities={shown.entities} />
        </p>
        <PostPhotos post={shown} />
        {me && (
          <footer className="actions">
            <button type="button" data-action="reply" onClick={() => actions.onReply(shown)}>
              Reply{shown.num_replies ? ` ${shown.num_replies}` : ''}
              <span className="visually-hidden">, to @{shown.user.username}</span>
            </button>
            {shown.user.id !== me.id && (
              <button
                type="button"
                data-action="repost"
                aria-pressed={Boolean(shown.you_reposted)}
                onClick={() => void toggle(Boolean(shown.you_reposted), `/posts/${shown.id}/repost`)}
              >
                {shown.you_reposted ? 'Reposted' : 'Repost'}
                {shown.num_reposts ? ` ${shown.num_reposts}` : ''}
              </button>
            )}
            <button
              type="button"
              data-action="star"
              aria-pressed={Boolean(shown.you_starred)}
              onClick={() => void toggle(Boolean(shown.you_starred), `/posts/${shown.id}/star`)}
            >
              {shown.you_starred ? 'Starred' : 'Star'}
              {shown.num_stars ? ` ${shown.num_stars}` : ''}
            </button>
            {mine && (
              <button type="button" data-action="delete" className="danger" onClick={() => setConfirming(true)}>
                {post.repost_of ? 'Delete repost' : 'Delete'}
              </button>
            )}
            {shown.user.id !== me.id && <ReportButton path={`/posts/${shown.id}/report`} what="post" username={shown.user.username} mutes />}
          </footer>
        )}
        <ErrorLine message={error} />
      </div>
      {confirming && (
        <ConfirmDialog
          title={post.repost_of ? 'Delete your repost?' : 'Delete this post?'}
          action="Delete"
          open={confirming}
          onConfirm={() => void remove()}
          onClose={() => setConfirming(false)}
        />
      )}
    </article>
  )
}
