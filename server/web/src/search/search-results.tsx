/** The two lists of a search: people (user search) and posts (post search), each paged back with "More". */
import { useMemo } from 'react'
import { useLocation } from 'wouter'
import type { Post, User } from '../../../api'
import { usePagedList } from '../api/paged-list'
import { paths } from '../paths'
import { POST_QUERY } from '../posts/timeline'
import { PostItem, type PostActions } from '../posts/post-item'
import { ErrorLine } from '../ui/error-line'
import { OlderButton } from '../ui/older-button'
import { UserRow } from '../users/user-row'
import { postQueryOf } from './search-terms'

export function PeopleResults({ q }: { q: string }) {
  const query = useMemo(() => ({ q, count: 20 }), [q])
  const list = usePagedList<User>('/users/search', query)
  const change = (user: User) => list.update((items) => items.map((i) => (i.id === user.id ? { ...user, pagination_id: i.pagination_id } : i)))
  return (
    <section aria-labelledby="people-results" className="search-results">
      <h2 id="people-results">People</h2>
      <ErrorLine message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="empty">Nobody here goes by “{q}”. Try part of a name or a username.</p>}
      <ul className="user-list">
        {list.items.map((u) => (
          <UserRow key={u.id} user={u} onChange={change} />
        ))}
      </ul>
      {list.loading && <p className="loading">Looking for people…</p>}
      <OlderButton more={list.more} loading={list.loading} onMore={list.loadMore} label="More people" />
    </section>
  )
}

export function PostResults({ q }: { q: string }) {
  const [, navigate] = useLocation()
  const query = useMemo(() => ({ ...POST_QUERY, ...postQueryOf(q) }), [q])
  const list = usePagedList<Post>('/posts/search', query)
  const actions: PostActions = {
    onChange: (post) => list.update((items) => items.map((i) => (i.id === post.id ? { ...post, pagination_id: i.pagination_id } : i))),
    onDelete: (id) => list.update((items) => items.filter((i) => i.id !== id)),
    onReply: (post) => navigate(paths.post(post.id)),
  }
  return (
    <section aria-labelledby="post-results" className="search-results">
      <h2 id="post-results">Posts</h2>
      <ErrorLine message={list.error} />
      {!list.loading && !list.error && list.items.length === 0 && <p className="empty">No posts say “{q}” yet.</p>}
      <div className="posts">
        {list.items.map((p) => (
          <PostItem key={p.id} post={p} actions={actions} />
        ))}
      </div>
      {list.loading && <p className="loading">Looking for posts…</p>}
      <OlderButton more={list.more} loading={list.loading} onMore={list.loadMore} label="More posts" />
    </section>
  )
}
