/**
 * The Filters tab: every filter as the server pushes them, whose it is (a
 * user's or an app stream's), its policy and clauses in words and how many
 * app streams use it; search narrows it.
 */
import t from 'tap'
import type { FiltersPicture } from '../../data/index.js'
import { openConsole } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

const openOnFilters = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = openConsole(t)
  await opened.ui.until('@alice')
  opened.ui.press('8')
  await opened.ui.until('app Patter')
  return opened
}

t.test("the Filters tab lists each filter's owner, name, policy, streams using it and clauses", async (t) => {
  const { ui } = await openOnFilters(t)
  const frame = ui.frame()
  t.match(frame, /ID\s+OWNER\s+NAME\s+POLICY\s+STREAMS\s+CLAUSES/)
  t.match(frame, /› 3\s+@alice\s+no bots\s+exclude_any\s+0\s+post \/data\/user\/type equals "bot"; post /)
  t.match(frame, /\n {2}4\s+app Patter\s+-\s+include_any\s+1\s+post \/data\/text matches "hello"/)
  t.match(
    frame,
    /@alice, used by 0 app streams · filter 3 "no bots": exclude_any\n\s+post \/data\/user\/type equals "bot"\n\s+post \/data\/user\/id one_of \["3", "9"\]/,
  )
  ui.press(keys.down)
  t.match(await ui.until('used by 1 app stream '), /app Patter, used by 1 app stream · filter 4: include_any/)
})

t.test('a filter made, changed or deleted shows at once', async (t) => {
  const { ui, push } = await openOnFilters(t)
  push<FiltersPicture>('filters', (p) => ({
    filters: [p.filters[1], { id: '5', owner: '@bob', name: 'stars', match_policy: 'include_all', clauses: ['star /data/user/id equals 2'], streams: 0 }],
  }))
  const frame = await ui.until('@bob')
  t.notMatch(frame, /no bots/)
  t.match(frame, /5\s+@bob\s+stars\s+include_all\s+0\s+star \/data\/user\/id equals 2/)
})

t.test('/ narrows the filters by owner or clause', async (t) => {
  const { ui } = await openOnFilters(t)
  ui.press('/', 'hello')
  const frame = await ui.until((f) => !f.includes('no bots'))
  t.match(selectedLine(frame), /app Patter/)
  ui.press(keys.escape)
  await ui.until('no bots')
})
