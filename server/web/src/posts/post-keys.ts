/**
 * The keyboard on a list of posts: j/k select the next/previous post, r
 * replies to it, s stars it, p reposts it, . shows new posts, ? opens the
 * list of shortcuts. Keys typed into a field are the field's.
 */
import { useEffect, useState } from 'react'
import type { Post } from '../../../api'

export const POST_SHORTCUTS: readonly [string, string][] = [
  ['j', 'Select the next post'],
  ['k', 'Select the previous post'],
  ['r', 'Reply to the selected post'],
  ['s', 'Star or unstar the selected post'],
  ['p', 'Repost or take back the repost of the selected post'],
  ['n', 'Write a new post (home)'],
  ['.', 'Show new posts'],
  ['?', 'Show these shortcuts'],
]

/** Is the key meant for a field, a dialog, or combined with a modifier? Then it is not a shortcut. */
export const notAShortcut = (e: KeyboardEvent): boolean =>
  e.metaKey || e.ctrlKey || e.altKey || Boolean((e.target as HTMLElement).closest?.('input, textarea, select, [contenteditable], dialog'))

const nodeOf = (post: Post | undefined): HTMLElement | null => (post ? document.querySelector<HTMLElement>(`[data-post-id="${post.id}"]`) : null)

interface PostKeys {
  /** The posts in the order they are shown. */
  items: Post[]
  onReply(post: Post): void
  onShowPending?(): void
}

export function usePostKeys({ items, onReply, onShowPending }: PostKeys) {
  const [selected, setSelected] = useState(-1)
  const [helpOpen, setHelpOpen] = useState(false)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (notAShortcut(e)) return
      const current = items[selected]
      if (e.key === 'j' || e.key === 'k') {
        const next = Math.max(0, Math.min(items.length - 1, selected + (e.key === 'j' ? 1 : -1)))
        setSelected(next)
        const node = nodeOf(items[next])
        node?.focus()
        node?.scrollIntoView({ block: 'nearest' })
      } else if (e.key === 'r' && current) {
        e.preventDefault()
        onReply(current.repost_of ?? current)
      } else if ((e.key === 's' || e.key === 'p') && current) {
        nodeOf(current)
          ?.querySelector<HTMLButtonElement>(`button[data-action="${e.key === 's' ? 'star' : 'repost'}"]`)
          ?.click()
      } else if (e.key === '.' && onShowPending) onShowPending()
      else if (e.key === '?') setHelpOpen(true)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [items, selected, onReply, onShowPending])
  return { selected, setSelected, helpOpen, closeHelp: () => setHelpOpen(false) }
}
