/**
 * "Replying to @bob" above a reply, linking to the thread of the post it
 * answers. The API names only the parent's id, so outside a thread the
 * names are the people the reply opens by addressing, as a reply written
 * here starts with its parent's author.
 */
import { Link } from 'wouter'
import { CornerUpLeft } from 'lucide-react'
import type { Post } from '../../../api'
import { paths } from '../paths'

const leadingMentions = (post: Post): string[] => {
  const names: string[] = []
  let at = 0
  for (const mention of [...post.entities.mentions].sort((a, b) => a.pos - b.pos)) {
    if (mention.pos !== at) break
    names.push(mention.name)
    at = mention.pos + mention.len + 1
  }
  return names
}

export function ReplyContext({ post, parent, show }: { post: Post; parent?: Post; show: boolean }) {
  if (parent?.user) {
    return (
      <p className="in-reply-to">
        <CornerUpLeft size={14} />
        In reply to <a href={`#post-${parent.id}`}>@{parent.user.username}</a>
      </p>
    )
  }
  if (!show || !post.reply_to) return null
  const names = leadingMentions(post)
  return (
    <p className="in-reply-to">
      <CornerUpLeft size={14} />
      <Link href={paths.post(post.reply_to)}>{names.length ? `Replying to ${names.map((n) => `@${n}`).join(' ')}` : 'Replying to a post'}</Link>
    </p>
  )
}
