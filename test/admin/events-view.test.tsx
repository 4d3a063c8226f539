/**
 * The Events tab: the event log's tail, newest first, new events arriving
 * as the server pushes them, and its filter box narrowing it by event name
 * or by the words of the summary.
 */
import t from 'tap'
import type { EventTail } from '../../data/index.js'
import { openConsole } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

const openOnEvents = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = openConsole(t)
  await opened.ui.until('@alice')
  opened.ui.press('6')
  await opened.ui.until('follow.added')
  return opened
}

const newPost = (p: EventTail): EventTail => ({
  head: 4,
  events: [{ seq: 4, name: 'post.created', at: '2025-03-03T10:00:04.000Z', summary: 'post 8 by @bob, reply to 7' }, ...p.events],
})

t.test('the Events tab shows the newest events first, and a new one on top as it comes', async (t) => {
  const { ui, push } = await openOnEvents(t)
  t.match(ui.frame(), /SEQ\s+TIME\s+EVENT\s+WHAT\n› 3\s+10:00:03\s+follow\.added\s+@bob follows @alice\n\s+2\s+10:00:02\s+post\.created\s+post 7 by @alice/)
  push('events', newPost)
  const frame = await ui.until('post 8 by @bob')
  t.match(selectedLine(frame), /^› 4\s+10:00:04\s+post\.created/, 'a selection on the newest follows the newest')
})

t.test('the filter box narrows the tail by event name or by a person, and Esc clears it', async (t) => {
  const { ui, push } = await openOnEvents(t)
  ui.press('/')
  ui.press('p', 'o', 's', 't', '.')
  let frame = await ui.until((f) => !f.includes('follow.added'))
  t.match(frame, /filter: post\./)
  t.match(frame, /post 7 by @alice/)
  t.notMatch(frame, /user\.created/)
  ui.press(keys.enter)
  push('events', newPost)
  frame = await ui.until('post 8 by @bob')
  t.notMatch(frame, /follow\.added/, 'the kept filter holds for new events')

  ui.press('/')
  ui.press(keys.escape)
  await ui.until('follow.added')
  ui.press('/', '@bob', keys.enter)
  frame = await ui.until((f) => !f.includes('user.created') && f.includes('follow.added'))
  t.match(frame, /post 8 by @bob/)
  t.notMatch(frame, /post 7 by @alice/)
})
