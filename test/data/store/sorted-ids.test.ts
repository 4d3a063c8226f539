import t from 'tap'
import type { Range } from '../../../data/store/port.js'
import { mergeRange } from '../../../data/store/sorted-ids.js'

/** What a timeline over several authors must answer, computed the slow way. */
const naive = (lists: number[][], range: Range): number[] => {
  const all = [...new Set(lists.flat())].filter((id) => (range.since === undefined || id > range.since) && (range.before === undefined || id < range.before))
  all.sort((a, b) => (range.order === 'asc' ? a - b : b - a))
  return all.slice(0, Math.max(0, range.limit))
}

t.test('merging many sorted id lists answers the same window as sorting their union', async (t) => {
  let seed = 7
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % n
  }
  for (let round = 0; round < 300; round++) {
    const lists = Array.from({ length: next(12) }, () => [...new Set(Array.from({ length: next(30) }, () => 1 + next(200)))].sort((a, b) => a - b))
    const range: Range = {
      limit: next(25),
      order: next(2) === 0 ? 'asc' : 'desc',
      ...(next(3) === 0 ? { since: next(200) } : {}),
      ...(next(3) === 0 ? { before: next(220) } : {}),
    }
    const got = mergeRange(lists, range)
    const want = naive(lists, range)
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      t.same(got, want, `round ${round}: ${JSON.stringify({ lists, range })}`)
      return
    }
  }
  t.pass('300 random timelines agree')
})
