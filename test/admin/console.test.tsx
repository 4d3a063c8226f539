/**
 * The admin console as an operator drives it: the Ink screen rendered with
 * ink-testing-library on a fake instance that answers admin operations the
 * way a server does (and keeps what they change), keys typed, frames read.
 */
import t from 'tap'
import { openConsole as open } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

/** Opens the console and moves to the Explore tab, its streams drawn. */
const openOnExplore = async (t: { teardown(fn: () => unknown): void }) => {
  const opened = open(t)
  await opened.ui.until('@alice')
  opened.ui.press(keys.tab)
  await opened.ui.until('photos')
  return opened
}

t.test('the ui opens on the live tokens: app, user, scopes and when each was created', async (t) => {
  const { ui } = open(t)
  const frame = await ui.until('@bob')
  t.match(frame, /ID\s+APP\s+USER\s+CREATED\s+SCOPES/, 'the Tokens tab')
  t.match(frame, /› 1\s+Patter\s+@alice\s+2025-03-01 09:30\s+basic stream/)
  t.match(frame, /\n {2}2\s+Felix\s+@bob\s+2025-03-02 10:00\s+basic write_post/)
})

t.test('Tab and right go to the next tab, left to the previous one, round the ends', async (t) => {
  const { ui } = open(t)
  await ui.until('@alice')
  ui.press(keys.tab)
  t.match(await ui.until('trending'), /› photos\s+Photos\s+1\s+has_photo\n.*└ pin\s+post 7\n.*trending\s+Trending\s+0\s+min_stars=3 star_window_hours=24/)
  ui.press(keys.right)
  t.match(await ui.until('@robo'), /Alice Liddell[\s\S]*@robo\s+Robo\s+bot/)
  ui.press(keys.left)
  await ui.until('photos')
  ui.press(keys.left)
  await ui.until('@alice')
  ui.press(keys.left)
  t.match(await ui.until('cheap watches'), /› 1\s+post 42\s+@robo/, 'left of the first tab is the last, Reports')
  ui.press('4')
  t.match(await ui.until('c-patter'), /› 1\s+Patter\s+c-patter/, 'a number goes to its tab')
})

t.test('r revokes the selected token, and only once the operator answers y', async (t) => {
  const { ui, changes } = open(t)
  await ui.until('@bob')
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('@bob') === true)
  ui.press('r')
  await ui.until('revoke token 2 of @bob in Felix? (y/n)')
  ui.press('n')
  await ui.until('cancelled')
  t.same(changes(), [], 'n revokes nothing')
  ui.press('r')
  await ui.until('revoke token 2 of @bob in Felix?')
  ui.press('y')
  const frame = await ui.until((f) => f.includes('revoked token 2') && !f.includes('@bob'))
  t.same(changes(), [{ op: 'token.revoke', args: { token: '2' } }])
  t.match(frame, /› 1\s+Patter\s+@alice/, 'the list is fresh and the selection moves up')
})

t.test('p pins a typed post id to the selected stream', async (t) => {
  const { ui, changes } = open(t)
  await ui.until('@alice')
  ui.press(keys.tab)
  await ui.until('trending')
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('post 7') === true)
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('trending') === true)
  ui.press('p')
  await ui.until('pin which post id to trending?')
  ui.press('4', '2')
  await ui.until('trending? (Enter to pin, Esc to cancel) 42')
  ui.press(keys.enter)
  const frame = await ui.until('pinned post 42 in trending')
  t.same(changes(), [{ op: 'explore.pin', args: { slug: 'trending', post_id: 42 } }])
  t.match(await ui.until(/trending\s+Trending\s+1/), /trending\s+Trending\s+1 .*\n.*└ pin\s+post 42/)
  t.ok(frame)
})

t.test('u unpins the selected pin; on a stream line it says what to select', async (t) => {
  const { ui, changes } = await openOnExplore(t)
  ui.press('u')
  await ui.until('error: select a pinned post (under its stream) to unpin it')
  ui.press(keys.down)
  await ui.until((f) => selectedLine(f)?.includes('post 7') === true)
  ui.press('u')
  const frame = await ui.until((f) => f.includes('unpinned post 7 from photos') && !f.includes('post 7\n'))
  t.same(changes(), [{ op: 'explore.unpin', args: { slug: 'photos', post_id: 7 } }])
  t.match(frame, /photos\s+Photos\s+0/)
})

t.test('d deletes the selected stream after a y; Esc leaves a typed pin unsent', async (t) => {
  const { ui, changes } = await openOnExplore(t)
  ui.press('p')
  await ui.until('pin which post id to photos?')
  ui.press('4', keys.escape)
  await ui.until('cancelled')
  ui.press('d')
  await ui.until('delete explore stream photos (Photos)? (y/n)')
  ui.press('y')
  const frame = await ui.until('deleted stream photos')
  t.same(changes(), [{ op: 'explore.delete', args: { slug: 'photos' } }])
  t.notMatch(await ui.until((f) => !f.includes('Photos')), /Photos/)
  t.ok(frame)
})

t.test("the server's errors show on the status line and the console carries on", async (t) => {
  const { ui, changes } = await openOnExplore(t)
  ui.press('p')
  await ui.until('pin which post id to photos?')
  ui.press('9', '9', '9', keys.enter)
  await ui.until('error: post 999 not found')
  t.same(changes(), [{ op: 'explore.pin', args: { slug: 'photos', post_id: 999 } }])
  // Refused, the question is asked again: what is typed next is its answer.
  await ui.until('pin which post id to photos?')
  ui.press('x', keys.enter)
  await ui.until('error: "x" is not a post id')
  t.equal(changes().length, 1, 'a typo never reaches the server')
  await ui.until('pin which post id to photos?')
  ui.press('7', keys.enter)
  await ui.until((f) => f.includes('pinned post 7 in photos') && /photos\s+Photos\s+2/.test(f))
  t.pass('still running')
})

t.test('g fetches the lists again; q quits', async (t) => {
  const { ui, calls } = open(t)
  await ui.until('@alice')
  const before = calls.filter((c) => c.op === 'token.list').length
  ui.press('g')
  await ui.until(() => calls.filter((c) => c.op === 'token.list').length === before + 1)
  t.ok(ui.reading())
  ui.press('q')
  await ui.until(() => !ui.reading())
  t.pass('the console stopped reading keys')
})
