/**
 * The App streams tab: every app stream as the server pushes them, with its
 * app, key, object types, consumer, queue and filter in words, the selected
 * stream's app and filter in full below; search narrows it.
 */
import t from 'tap'
import type { AppStreamsPicture } from '../../data/index.js'
import { FELIX_CLIENT_ID } from './fake-instance.js'
import { openConsole } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

const openOnAppStreams = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = openConsole(t)
  await opened.ui.until('@alice')
  opened.ui.press('7')
  await opened.ui.until('firehose')
  return opened
}

t.test("the App streams tab lists each stream's app, key, types, consumer, queue and filter", async (t) => {
  const { ui } = await openOnAppStreams(t)
  const frame = ui.frame()
  t.match(frame, /ID\s+APP\s+KEY\s+TYPES\s+CONSUMER\s+QUEUE\s+FILTER/)
  t.match(frame, /› 1\s+Patter\s+firehose\s+post,star\s+connected\s+12\/100000\s+include_any: post \/data\/text …/)
  t.match(frame, /\n {2}2\s+Felix\s+-\s+user\s+away\s+0\/100000\s+none/)
})

t.test("the pane below shows the selected stream's app with its client id and its filter's clauses", async (t) => {
  const { ui } = await openOnAppStreams(t)
  t.match(ui.frame(), /stream 1 of Patter \(client id c-patter\) · filter 4: include_any\n\s+post \/data\/text matches "hello"/)
  ui.press(keys.down)
  const frame = await ui.until(`client id ${FELIX_CLIENT_ID}`)
  t.match(frame, /stream 2 of Felix .* · no filter/)
})

t.test('a pushed picture shows at once: a consumer connects, a queue fills', async (t) => {
  const { ui, push } = await openOnAppStreams(t)
  push<AppStreamsPicture>('app_streams', (p) => ({ streams: [p.streams[0], { ...p.streams[1], connected: true, queue_depth: 7 }] }))
  const frame = await ui.until(/2\s+Felix\s+-\s+user\s+connected\s+7\/100000/)
  t.match(selectedLine(frame), /Patter/, 'the selection stays')
})

t.test('/ narrows the streams by any column, the filter text included', async (t) => {
  const { ui } = await openOnAppStreams(t)
  ui.press('/', 'none', keys.enter)
  const frame = await ui.until('/none (Esc clears)')
  t.notMatch(frame, /Patter\s+firehose/)
  t.match(selectedLine(frame), /Felix/)
  ui.press(keys.escape)
  await ui.until('firehose')
})
