/**
 * A line the operator types (a dialog's answer, the search box). The text
 * lives in a ref as well as in state: a pasted "42⏎" arrives as keys handled
 * before React draws, and Enter must see the digits all the same.
 */
import type { Key } from 'ink'
import { useRef, useState } from 'react'

// Control characters never become text (a pasted line end is a key of its own, see key-router.tsx).
const CONTROL = /[\u0000-\u001f\u007f]/g

export function useTypedLine(initial = '') {
  const typed = useRef(initial)
  const [shown, show] = useState(initial)
  const set = (text: string) => {
    typed.current = text
    show(text)
  }
  /** Applies a typing key (text or backspace); answers whether it was one. */
  const type = (input: string, key: Key): boolean => {
    if (key.backspace || key.delete) set(typed.current.slice(0, -1))
    else if (key.ctrl || key.meta || input.replace(CONTROL, '') === '') return false
    else set(typed.current + input.replace(CONTROL, ''))
    return true
  }
  return { typed, shown, type, set }
}
