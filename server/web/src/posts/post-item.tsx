/** One post as a card: who, when, what it answers, the text with its entities, attached photos, and what the reader can do with it. */
import { useState } from 'react'
import { Link } from 'wouter'
import { Repeat2 } from 'lucide-react'
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
import { ReportDialog } from '../moderation/report-button'
import { PostActionButtons, PostMenu } from './post-actions'
import { ReplyContext } from './reply-context'

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
  /** Say what a reply answers (off in a thread, where the indent says it). */
  replyContext?: boolean
}

const message = (err: unknown): string => (err instanceof ApiError ? err.message : 'That did not work. Try again.')

export function PostItem({ post, actions, selected = false, current = false, inReplyTo, replyContext = true }: PostItemProps) {
  const { me } = useSession()
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [reporting, setReporting] = useState(false)
  const [reported, setReported] = useState(false)
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
  const copyLink = () => {
    const link = shown.canonical_url || new URL(paths.post(shown.id), location.origin).toString()
    navigator.clipboard.writeText(link).then(
      () => setStatus('Link copied.'),
      () => setStatus(`Copy this link: ${link}`),
    )
  }
  const className = `post${selected ? ' selected' : ''}${current ? ' current' : ''}`
  const theirs = me !== null && shown.user.id !== me.id
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
          <Repeat2 size={16} />
          Reposted by <Link href={paths.profile(post.user.username)}>@{post.user.username}</Link>
        </p>
      )}
      <Avatar user={shown.user} />
      <div className="post-body">
        <header>
          <Link href={paths.profile(shown.user.username)} className="name">
            {shown.user.name || shown.user.username}
          </Link>{' '}
          <span className="username">@{shown.user.username}</span>
          <span aria-hidden="true"> · </span>
          <Link href={paths.post(shown.id)} className="when">
            <TimeAgo iso={shown.created_at} />
          </Link>
        </header>
        <ReplyContext post={shown} parent={inReplyTo} show={replyContext} />
        <p className="text">
          <EntityText text={shown.text ?? ''} entities={shown.entities} />
        </p>
        <PostPhotos post={shown} />
        {me && (
          <footer className="actions">
            <PostActionButtons
              post={shown}
              own={!theirs}
              onReply={() => actions.onReply(shown)}
              onRepost={() => void toggle(Boolean(shown.you_reposted), `/posts/${shown.id}/repost`)}
              onStar={() => void toggle(Boolean(shown.you_starred), `/posts/${shown.id}/star`)}
            />
            <PostMenu
              username={shown.user.username}
              onCopyLink={copyLink}
              report={theirs ? { done: reported, onSelect: () => setReporting(true) } : undefined}
              remove={mine ? { label: post.repost_of ? 'Delete repost' : 'Delete', onSelect: () => setConfirming(true) } : undefined}
            />
            <span role="status" className="hint">
              {status}
            </span>
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
      {theirs && (
        <ReportDialog
          path={`/posts/${shown.id}/report`}
          what="post"
          username={shown.user.username}
          mutes
          open={reporting}
          onClose={() => setReporting(false)}
          onReported={() => setReported(true)}
        />
      )}
    </article>
  )
}
