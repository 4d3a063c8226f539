/** The selected line of a list of `length` lines, moved by up/down while `active`. */
import { useState } from 'react'
import { useKeys } from './key-router.js'

export function useSelection(length: number, active: boolean): number {
  const [selected, setSelected] = useState(0)
  useKeys((_input, key) => {
    if (key.upArrow) setSelected((n) => Math.max(0, Math.min(n, length - 1) - 1))
    else if (key.downArrow) setSelected((n) => Math.min(length - 1, n + 1))
  }, active)
  // The list may shrink under the selection (a revoke, a refresh).
  return Math.max(0, Math.min(selected, length - 1))
}
