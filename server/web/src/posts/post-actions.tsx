/**
 * What can be done with a post, under it: reply, repost and star (an icon
 * each, the count beside it, the words as the button's name), and a More
 * menu to copy its link, report it (someone else's) or delete it (one's own).
 */
import type { ReactNode } from 'react'
import { Ellipsis, Flag, Link as LinkIcon, MessageCircle, Repeat2, Star, Trash2 } from 'lucide-react'
import type { Post } from '../../../api'
import { LazyMenu } from '../ui/lazy-menu'
import type { MenuEntry } from '../ui/menu'

interface ActionButtonProps {
  action: string
  icon: ReactNode
  /** The button's name (read out, not shown). */
  label: string
  count: number
  pressed?: boolean
  disabled?: boolean
  onClick(): void
}

function ActionButton({ action, icon, label, count, pressed, disabled, onClick }: ActionButtonProps) {
  return (
    <button type="button" className="action" data-action={action} aria-pressed={pressed} disabled={disabled} onClick={onClick}>
      {icon}
      <span className="visually-hidden">{label}</span>
      {count > 0 && <span className="count"> {count}</span>}
    </button>
  )
}

interface PostActionButtonsProps {
  post: Post
  /** A post of one's own cannot be reposted (the button stays, disabled, so the row keeps its shape). */
  own: boolean
  onReply(): void
  onRepost(): void
  onStar(): void
}

export function PostActionButtons({ post, own, onReply, onRepost, onStar }: PostActionButtonsProps) {
  const username = post.user?.username ?? ''
  return (
    <>
      <ActionButton action="reply" icon={<MessageCircle />} label={`Reply to @${username}`} count={post.num_replies} onClick={onReply} />
      {own ? (
        <ActionButton action="repost" icon={<Repeat2 />} label="Your own post cannot be reposted" count={post.num_reposts} disabled onClick={onRepost} />
      ) : (
        <ActionButton
          action="repost"
          icon={<Repeat2 />}
          label={post.you_reposted ? 'Reposted' : 'Repost'}
          count={post.num_reposts}
          pressed={Boolean(post.you_reposted)}
          onClick={onRepost}
        />
      )}
      <ActionButton
        action="star"
        icon={<Star />}
        label={post.you_starred ? 'Starred' : 'Star'}
        count={post.num_stars}
        pressed={Boolean(post.you_starred)}
        onClick={onStar}
      />
    </>
  )
}

interface PostMenuProps {
  username: string
  onCopyLink(): void
  /** Someone else's post: reporting it (done once; then the entry says so). */
  report?: { done: boolean; onSelect(): void }
  /** One's own post or repost: deleting it, after asking. */
  remove?: { label: string; onSelect(): void }
}

export function PostMenu({ username, onCopyLink, report, remove }: PostMenuProps) {
  const entries: MenuEntry[] = [{ label: 'Copy link', icon: <LinkIcon />, onSelect: onCopyLink, action: 'copy-link' }]
  if (report)
    entries.push({ label: report.done ? 'Reported' : 'Report post', icon: <Flag />, onSelect: report.onSelect, disabled: report.done, action: 'report' })
  if (remove) entries.push({ label: remove.label, icon: <Trash2 />, onSelect: remove.onSelect, danger: true, action: 'delete' })
  return (
    <LazyMenu
      triggerClass="action"
      triggerAction="more"
      trigger={
        <>
          <Ellipsis />
          <span className="visually-hidden">More for the post by @{username}</span>
        </>
      }
      entries={entries}
    />
  )
}
