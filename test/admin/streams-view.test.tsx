/**
 * The Streams tab: every user stream as the server pushes them, connected
 * or waiting for a resume, with backlog and position, and the selected
 * stream's subscriptions below; new pictures arrive without a key.
 */
import t from 'tap'
import type { UserStreamsPicture } from '../../data/index.js'
import { openConsole } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

const openOnStreams = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = openConsole(t)
  await opened.ui.until('@alice')
  opened.ui.press('5')
  await opened.ui.until('c0nnBob')
  return opened
}

t.test("the Streams tab lists each stream's user, app, state, subscriptions, backlog and position", async (t) => {
  const { ui } = await openOnStreams(t)
  const frame = ui.frame()
  t.match(frame, /CONNECTION\s+USER\s+APP\s+STATE\s+SINCE\s+SUBS\s+BACKLOG\s+POSITION/)
  t.match(frame, /› c0nnAlice0000000000000001\s+@alice\s+Patter\s+live\s+10:20:31\s+2\s+3\/1000\s+117\/120/)
  t.match(frame, /\n {2}c0nnBob000000000000000002\s+@bob\s+Felix\s+waiting\s+10:25:01\s+0\s+-\s+100\/120/)
})

t.test("the pane under the list shows the selected stream's subscriptions and how far behind it is", async (t) => {
  const { ui } = await openOnStreams(t)
  t.match(ui.frame(), /c0nnAlice0000000000000001 token 1 · connected since 2025-03-03 10:20/)
  t.match(ui.frame(), /at event 117 of 120: 3 events behind the log/)
  t.match(ui.frame(), /home\s+posts\/stream\/unified\n\s+thread-7\s+posts\/replies 7/)
  ui.press(keys.down)
  const frame = await ui.until('waiting for a resume')
  t.match(frame, /c0nnBob000000000000000002 token 2 · gone since 2025-03-03 10:25, waiting for a resume/)
  t.match(frame, /no subscriptions/)
})

t.test('a pushed picture shows at once, and the selection stays on its stream when another one comes before it', async (t) => {
  const { ui, push } = await openOnStreams(t)
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('@bob') === true)
  push<UserStreamsPicture>('user_streams', (p) => ({
    ...p,
    head: 121,
    streams: [{ ...p.streams[0], connection_id: 'c0nnCarol00000000000003', user: { id: '3', username: 'carol' } }, ...p.streams],
  }))
  const frame = await ui.until('@carol')
  t.match(selectedLine(frame), /@bob/, 'still on bob')
  t.match(frame, /117\/121/, 'the new head')
})
