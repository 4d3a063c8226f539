/**
 * The search box of every list: `/` opens it, each key typed narrows the
 * list at once, Enter keeps the filter, Esc clears it. Each tab keeps its
 * own filter. The box takes the keys the moment it opens (see
 * `useKeyCapture`), so "/bob" typed or pasted in one go is all its.
 */
import { useState } from 'react'
import { useKeyCapture } from './key-router.js'
import { useTypedLine } from './use-typed-line.js'

export function useSearch(tabCount: number, current: number) {
  const [filters, setFilters] = useState<readonly string[]>(() => Array.from({ length: tabCount }, () => ''))
  const [searching, setSearching] = useState(false)
  const line = useTypedLine()
  const capture = useKeyCapture()
  const filter = filters[current] ?? ''
  const setFilter = (text: string) => setFilters((all) => all.map((f, i) => (i === current ? text : f)))
  const end = () => {
    capture(null)
    setSearching(false)
  }
  const start = () => {
    line.set(filter)
    setSearching(true)
    capture((input, key) => {
      if (key.escape) {
        setFilter('')
        end()
      } else if (key.return) end()
      else if (line.type(input, key)) setFilter(line.typed.current)
    })
  }
  return { filter, searching, typed: line.shown, start, clear: () => setFilter('') }
}
