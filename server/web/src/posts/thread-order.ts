/** A thread's posts as a conversation: each reply under what it answers, oldest first, with its depth. */
import type { Post } from '../../../api'

export interface ThreadEntry {
  post: Post
  depth: number
  parent?: Post
}

const byId = (a: Post, b: Post): number => Number(a.id) - Number(b.id)

/** Posts whose parent is not in the list (not loaded, or gone) start their own branch at depth 0. */
export function threadOrder(posts: readonly Post[]): ThreadEntry[] {
  const present = new Map(posts.map((p) => [p.id, p]))
  const children = new Map<string, Post[]>()
  const roots: Post[] = []
  for (const post of [...posts].sort(byId)) {
    const parent = post.reply_to && present.get(post.reply_to)
    if (parent) children.set(parent.id, [...(children.get(parent.id) ?? []), post])
    else roots.push(post)
  }
  const out: ThreadEntry[] = []
  const visit = (post: Post, depth: number, parent?: Post) => {
    out.push({ post, depth, parent })
    for (const child of children.get(post.id) ?? []) visit(child, depth + 1, post)
  }
  for (const root of roots) visit(root, 0)
  return out
}
