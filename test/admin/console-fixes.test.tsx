/**
 * What a new user ran into in the console under tmux, each kept fixed: a
 * pasted answer with its Enter, a status line stuck on a restarted
 * server, the selection jumping on a refresh, a message outliving its tab,
 * cut client ids, and a title line too wide for 80 columns.
 */
import t from 'tap'
import type { AppStreamsPicture } from '../../data/index.js'
import { tabLabels } from '../../admin/tab-bar.js'
import { tabs } from '../../admin/tabs.js'
import { FELIX_CLIENT_ID } from './fake-instance.js'
import { openConsole } from './open-console.js'
import { keys, overflowing, selectedLine } from '../fixtures/screen.js'

t.test('an answer pasted with its Enter in one chunk ("42\\r") is submitted, not typed', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press(keys.tab)
  await ui.until('photos')
  ui.press('p')
  await ui.until('pin which post id to photos?')
  ui.press('42\r')
  await ui.until('pinned post 42 in photos')
  t.same(changes(), [{ op: 'explore.pin', args: { slug: 'photos', post_id: 42 } }])
})

t.test('a dialog takes the keys typed with the key that opens it: "p42\\r" in one chunk pins 42', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press(keys.tab)
  await ui.until('photos')
  ui.press('p42\r')
  await ui.until('pinned post 42 in photos')
  t.same(changes(), [{ op: 'explore.pin', args: { slug: 'photos', post_id: 42 } }])
  ui.press('dn')
  await ui.until('cancelled')
  t.same(changes().length, 1, 'a confirmation answered n in the same chunk deletes nothing')
})

t.test('a search pasted with its Enter keeps its filter', async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@alice')
  ui.press('3')
  await ui.until('@robo')
  ui.press('/robo\r')
  const frame = await ui.until('/robo (Esc clears)')
  t.notMatch(frame, /@alice/)
})

t.test('after the server restarts, the "no server answers" status goes by itself and the list is fresh', async (t) => {
  const { ui, stop, restart, tokens } = openConsole(t)
  await ui.until('@bob')
  stop()
  ui.press('g')
  await ui.until('error: no server answers on /srv/svc-data/admin.sock')
  tokens.addFirst({ ...tokenOf('3', 'carol') })
  restart()
  const frame = await ui.until('the server answers again')
  t.notMatch(frame, /no server answers/)
  t.match(await ui.until('@carol'), /@carol/, 'reloaded without a key')
})

t.test('a live tab watches again after a restart: its error goes with the first new picture', async (t) => {
  const { ui, stop, restart, push } = openConsole(t)
  await ui.until('@alice')
  ui.press('6')
  await ui.until('follow.added')
  stop()
  await ui.until('error: no server answers')
  push('events', (p: { head: number; events: unknown[] }) => ({
    head: 4,
    events: [{ seq: 4, name: 'user.created', at: '2025-03-03T10:00:04.000Z', summary: '@dave' }, ...p.events],
  }))
  restart()
  const frame = await ui.until('@dave')
  await ui.until((f) => !f.includes('no server answers'))
  t.ok(frame)
})

const tokenOf = (id: string, username: string) => ({
  id,
  kind: 'user',
  app: { client_id: 'c-patter', name: 'Patter' },
  user: { id, username },
  scopes: ['basic'],
  created_at: '2025-03-04T09:00:00.000Z',
})

t.test('g fetches the list again and the selection stays on its row when a new one lists before it', async (t) => {
  const { ui, tokens } = openConsole(t)
  await ui.until('@bob')
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('@bob') === true)
  tokens.addFirst(tokenOf('3', 'carol'))
  ui.press('g')
  const frame = await ui.until('@carol')
  t.match(selectedLine(frame), /@bob/)
})

t.test("a message of one tab is gone on the next: it was about that tab's list", async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@alice')
  ui.press(keys.tab)
  await ui.until('photos')
  ui.press('u')
  await ui.until('error: select a pinned post')
  ui.press(keys.right)
  const frame = await ui.until('@robo')
  t.notMatch(frame, /select a pinned post/)
})

t.test('the Apps tab shows client ids whole on an 80-column terminal', async (t) => {
  const { ui } = openConsole(t, { columns: 80 })
  await ui.until('@alice')
  ui.press('4')
  const frame = await ui.until('CLIENT ID')
  t.match(frame, new RegExp(`Felix\\s+${FELIX_CLIENT_ID}\\s+2025-01-02`))
  t.same(overflowing(frame, 80), [])
})

t.test('at 80 columns the title line is one line with every tab, short titles when the full ones do not fit', async (t) => {
  const { ui } = openConsole(t, { columns: 80 })
  const frame = await ui.until('@alice')
  const [title, next] = frame.split('\n')
  // Ten short titles leave no room for the help hint at 80 columns; ? still opens the help.
  t.match(title, /^svc\s+1 Tok\s+2 Expl\s+3 Usr\s+4 App\s+5 Strm\s+6 Ev\s+7 AppS\s+8 Filt\s+9 Fed\s+0 Rep\s*$/)
  t.equal(next.trim(), '', 'nothing wrapped under it')
  t.same(overflowing(frame, 80), [])
  t.same(tabLabels(tabs, 1, 40), [' 1 ', ' 2 Expl ', ' 3 ', ' 4 ', ' 5 ', ' 6 ', ' 7 ', ' 8 ', ' 9 ', ' 0 '], 'narrower, the numbers and the current tab')
})

t.test('at 122 columns the ten full titles fit', async (t) => {
  const { ui } = openConsole(t, { columns: 122 })
  const [title] = (await ui.until('@alice')).split('\n')
  t.match(title, /^svc\s+1 Tokens\s+2 Explore\s+3 Users\s+4 Apps\s+5 Streams\s+6 Events\s+7 App streams\s+8 Filters\s+9 Federation\s+0 Reports\s+\? help$/)
})

t.test('table columns take the width of the terminal: at 160 columns an app stream key shows whole, at 80 it is cut', async (t) => {
  const KEY = 'console-smoke-test-stream'
  const on = async (columns: number) => {
    const opened = openConsole(t, { columns })
    await opened.ui.until('@alice')
    opened.push<AppStreamsPicture>('app_streams', (p) => ({ streams: p.streams.map((s) => (s.id === '1' ? { ...s, key: KEY } : s)) }))
    opened.ui.press('7')
    return opened.ui.until((f) => f.includes('CONSUMER') && f.includes('console-s'))
  }
  const wide = await on(160)
  t.match(wide, new RegExp(`› 1\\s+Patter\\s+${KEY}\\s+post,star`), 'the key whole')
  t.match(wide, /include_any: post \/data\/text matches "hello"/, 'and the filter whole')
  t.same(overflowing(wide, 160), [], 'nothing wider than the terminal')
  const narrow = await on(80)
  t.match(narrow, /› 1\s+Patter\s+console-s…/, 'at 80 columns the key keeps its least width')
  t.same(overflowing(narrow, 80), [])
})

t.test('a refused password keeps the prompt: the keys typed next are the password again, never commands', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press('3')
  await ui.until('@robo')
  ui.press('P')
  await ui.until('new password for @alice')
  ui.press('short', keys.enter)
  const refused = await ui.until('error: password must be at least 8 characters (type again, or Esc)')
  t.match(refused, /new password for @alice/, 'asked again')
  // Each of these is a command of the Users tab or the console (quit, delete, suspend, refresh, another tab).
  ui.press('q', 'D', 's', 'g', '1')
  const typed = await ui.until('•••••')
  t.ok(ui.reading(), 'the console did not quit')
  t.match(typed, /@robo/, 'still on the Users tab')
  t.notMatch(typed, /delete @alice for good/)
  t.same(
    changes().map((c) => c.op),
    ['user.reset-password'],
    'nothing but the refused password reached the server',
  )
  ui.press('-long-enough', keys.enter)
  await ui.until('set a new password for @alice')
  t.same(changes().at(-1), { op: 'user.reset-password', args: { username: 'alice', password: 'qDsg1-long-enough' } })
  ui.press('3')
  await ui.until('@robo')
  t.ok(ui.reading(), 'the keys are the console’s again')
})

t.test('q closes the help overlay, and only the help', async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@alice')
  ui.press('?')
  t.match(await ui.until('Keys of Tokens'), /\?, q or Esc closes this help/)
  ui.press('q')
  await ui.until((f) => !f.includes('Keys of') && f.includes('@alice'))
  t.ok(ui.reading(), 'the console still runs')
  ui.press('q')
  await ui.until(() => !ui.reading())
  t.pass('q quits once the help is closed')
})
