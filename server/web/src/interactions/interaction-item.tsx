/** One interaction: who did what to the reader or their post, with links to those people and the post's thread. */
import { Fragment } from 'react'
import { Link } from 'wouter'
import type { Annotation, Channel, Interaction, Post, User } from '../../../api'
import { paths } from '../paths'
import { settings } from '../settings'
import { Avatar } from '../ui/avatar'
import { TimeAgo } from '../ui/time'

export const VERBS: Record<Interaction['action'], string> = {
  follow: 'followed you',
  star: 'starred your post',
  repost: 'reposted your post',
  reply: 'replied to your post',
  broadcast_create: 'created your broadcast channel',
  broadcast_subscribe: 'subscribed to your broadcast channel',
  broadcast_unsubscribe: 'unsubscribed from your broadcast channel',
  welcome: '',
}

const SNIPPET = 80

function snippet(text: string): string {
  const chars = Array.from(text)
  return chars.length > SNIPPET ? `${chars.slice(0, SNIPPET).join('')}…` : text
}

function People({ users }: { users: User[] }) {
  return (
    <>
      {users.map((u, i) => (
        <Fragment key={u.id}>
          {i > 0 && (i === users.length - 1 ? ' and ' : ', ')}
          <Link href={paths.profile(u.username)}>@{u.username}</Link>
        </Fragment>
      ))}
    </>
  )
}

function PostSnippet({ post }: { post: Post }) {
  if (post.is_deleted || post.text === undefined) return <span className="snippet">(a deleted post)</span>
  return (
    <Link href={paths.post(post.id)} className="snippet">
      “{snippet(post.text)}”
    </Link>
  )
}

/** A broadcast channel's title, when its annotations came along. */
function channelTitle(channel: Channel): string {
  const title = (channel as Channel & { annotations?: Annotation[] }).annotations?.find((a) => a.type === 'svc.core.broadcast.metadata')?.value.title
  return typeof title === 'string' ? title : ''
}

export function InteractionItem({ interaction }: { interaction: Interaction }) {
  const { action, users, objects, event_date } = interaction
  if (action === 'welcome')
    return (
      <li className="interaction">
        <p>Welcome to {settings.name}!</p>
      </li>
    )
  const first = users[0]
  return (
    <li className="interaction">
      {first && <Avatar user={first} size={32} />}
      <div>
        <p>
          <People users={users} /> {VERBS[action]}
          {action === 'star' || action === 'repost' || action === 'reply'
            ? (objects as Post[]).map((p) => (
                <Fragment key={p.id}>
                  {' '}
                  <PostSnippet post={p} />
                </Fragment>
              ))
            : action.startsWith('broadcast_')
              ? (objects as Channel[])
                  .map(channelTitle)
                  .filter(Boolean)
                  .map((t) => ` “${t}”`)
                  .join(',')
              : ''}
        </p>
        <p className="when">
          <TimeAgo iso={event_date} />
        </p>
      </div>
    </li>
  )
}
