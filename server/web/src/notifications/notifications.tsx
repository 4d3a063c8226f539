/**
 * `/notifications`: mentions, replies, follows, stars and reposts, newest
 * first. Opening it (with the tab in view) reads them: both markers move to
 * the newest, and what was new stays marked as such while the page is open.
 */
import { useEffect, useRef, useState } from 'react'
import { useLocation } from 'wouter'
import type { Post } from '../../../api'
import { InteractionItem } from '../interactions/interaction-item'
import { paths } from '../paths'
import { PostItem, type PostActions } from '../posts/post-item'
import { ErrorLine } from '../ui/error-line'
import { OlderButton } from '../ui/older-button'
import { useDesktopPermission } from './desktop-notifications'
import { useNotifications } from './notifications-context'
import type { Notice } from './notices'
import { useTitle } from './use-title'
import './notifications.css'

function useTabVisible(): boolean {
  const [visible, setVisible] = useState(() => document.visibilityState === 'visible')
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState === 'visible')
    document.addEventListener('visibilitychange', onChange)
    return () => document.removeEventListener('visibilitychange', onChange)
  }, [])
  return visible
}

function DesktopButton() {
  const { permission, ask } = useDesktopPermission()
  if (permission === 'unsupported' || permission === 'granted') return null
  if (permission === 'denied') return <p className="when">Desktop notifications are blocked for this site in your browser’s settings.</p>
  return (
    <button type="button" onClick={() => void ask()}>
      Notify me on this computer
    </button>
  )
}

function NoticeItem({ notice, fresh, actions }: { notice: Notice; fresh: boolean; actions: PostActions }) {
  return (
    <li className={fresh ? 'notice fresh' : 'notice'}>
      {fresh && <span className="badge">New</span>}
      {notice.kind === 'mention' ? (
        <>
          <p className="notice-line">@{notice.post.user?.username} mentioned you</p>
          <PostItem post={notice.post} actions={actions} />
        </>
      ) : (
        <ul className="interactions">
          <InteractionItem interaction={notice.interaction} />
        </ul>
      )}
    </li>
  )
}

export function NotificationsView() {
  useTitle('Notifications')
  const list = useNotifications()
  const [, navigate] = useLocation()
  const visible = useTabVisible()
  const fresh = useRef(new Set<string>())
  // A mention starred or reposted from here, as the answer has it, until the list comes again.
  const [changed, setChanged] = useState<Record<string, Post>>({})
  const unread = list?.unread ?? 0
  const markRead = list?.markRead

  // What is unread when it shows here is read by being shown, and stays marked "New" until the page closes.
  for (const n of list?.notices ?? []) if (n.unread) fresh.current.add(n.key)
  useEffect(() => {
    if (visible && unread > 0) markRead?.()
  }, [visible, unread, markRead])

  if (!list) return null
  const actions: PostActions = {
    onChange: (post) => setChanged((c) => ({ ...c, [post.id]: post })),
    onDelete: () => undefined,
    onReply: (post) => navigate(paths.post(post.id)),
  }
  return (
    <section aria-labelledby="notifications-title" className="notifications">
      <div className="notifications-head">
        <h1 id="notifications-title">Notifications</h1>
        <DesktopButton />
      </div>
      <ErrorLine message={list.error} />
      {list.loading && <p className="loading">Loading…</p>}
      {!list.loading && list.notices.length === 0 && (
        <p className="empty">Nothing yet. When people mention you, reply, follow you, or star or repost your posts, you will see it here.</p>
      )}
      <ul className="notice-list" aria-live="polite">
        {list.notices.map((n) => {
          const shown = n.kind === 'mention' && changed[n.post.id] ? { ...n, post: changed[n.post.id] } : n
          return <NoticeItem key={n.key} notice={shown} fresh={fresh.current.has(n.key)} actions={actions} />
        })}
      </ul>
      <OlderButton more={list.more} onMore={list.loadOlder} label="Older notifications" />
    </section>
  )
}
