/**
 * The selected row of a list, moved by the keys (↑↓, PgUp/PgDn, Home/End)
 * while `active`. The selection holds on to its row, not its place: when
 * the list changes under it (a refresh, a live picture, a search) it stays
 * on the same row; when that row is gone it stays at the same place.
 * `followTop`: a selection on the first row stays on the first row, so a
 * list whose newest items come first keeps showing them.
 */
import { useLayoutEffect, useState } from 'react'
import { useKeys } from './key-router.js'

const PAGE = 10

interface Chosen {
  key: string | null
  index: number
}

const clamp = (index: number, length: number): number => Math.max(0, Math.min(index, length - 1))

export function useSelection<R>(rows: readonly R[] | null, keyOf: (row: R) => string, active: boolean, options: { followTop?: boolean } = {}): number {
  const [chosen, setChosen] = useState<Chosen>({ key: null, index: 0 })
  const length = rows?.length ?? 0
  const indexOf = (c: Chosen): number => {
    if (options.followTop && c.index === 0) return 0
    const found = c.key === null || !rows ? -1 : rows.findIndex((r) => keyOf(r) === c.key)
    return clamp(found >= 0 ? found : c.index, length)
  }
  const index = indexOf(chosen)
  const keyAt = (i: number): string | null => (rows?.[i] === undefined ? null : keyOf(rows[i]))

  // The row now under the selection becomes the one it holds (the first load, a row gone).
  const held = keyAt(index)
  useLayoutEffect(() => {
    if (held !== null && (held !== chosen.key || index !== chosen.index)) setChosen({ key: held, index })
  }, [held, index, chosen])

  const move = (by: (i: number) => number) =>
    setChosen((c) => {
      const to = clamp(by(indexOf(c)), length)
      return { key: keyAt(to), index: to }
    })
  useKeys((_input, key) => {
    if (key.upArrow) move((i) => i - 1)
    else if (key.downArrow) move((i) => i + 1)
    else if (key.pageUp) move((i) => i - PAGE)
    else if (key.pageDown) move((i) => i + PAGE)
    else if (key.home) move(() => 0)
    else if (key.end) move(() => length - 1)
  }, active)
  return index
}
