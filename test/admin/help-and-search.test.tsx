/**
 * What works on every tab: the help on `?` (the tab's keys and the keys of
 * every tab), and the search box on `/` that narrows the list to the rows
 * showing what is typed.
 */
import t from 'tap'
import { openConsole } from './open-console.js'
import { keys, selectedLine } from '../fixtures/screen.js'

t.test("? shows the tab's keys and the global ones over the list; ? or Esc closes it", async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@bob')
  ui.press('?')
  let frame = await ui.until('Keys of Tokens')
  t.match(frame, /r\s+revoke the selected token/)
  t.match(frame, /Everywhere[\s\S]*\/\s+search the list[\s\S]*q\s+quit/)
  t.notMatch(frame, /Felix/, 'the list is under the help')
  ui.press('r')
  await new Promise((r) => setTimeout(r, 50))
  t.notMatch(ui.frame(), /revoke token/, "the list's keys wait while the help is open")
  ui.press('?')
  frame = await ui.until('Felix')
  t.notMatch(frame, /Keys of/)

  ui.press(keys.tab, '?')
  frame = await ui.until('Keys of Explore')
  t.match(frame, /p\s+pin a post to the stream/)
  ui.press(keys.escape)
  await ui.until((f) => !f.includes('Keys of') && f.includes('photos'))
})

t.test('/ narrows the list as the operator types, by any column; Enter keeps it, Esc clears it', async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@alice')
  ui.press('3')
  await ui.until('@robo')
  ui.press('/', 'b')
  let frame = await ui.until((f) => !f.includes('@alice'))
  t.match(frame, /@bob[\s\S]*@robo/, 'b is in both names')
  t.match(frame, /\/b. Enter keeps · Esc clears/)
  ui.press('o', 't')
  frame = await ui.until((f) => !f.includes('@bob'))
  t.match(frame, /› 3\s+@robo\s+Robo\s+bot/, 'the type column counts too')
  ui.press(keys.enter)
  frame = await ui.until('/bot (Esc clears)')
  t.notMatch(frame, /@alice/, 'Enter keeps the filter')
  ui.press(keys.escape)
  frame = await ui.until('@alice')
  t.match(frame, /@bob[\s\S]*@robo/)
})

t.test('the selection moves within the narrowed list and acts on what it shows', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@bob')
  ui.press('/', 'write', keys.enter)
  await ui.until((f) => !f.includes('@alice'))
  t.match(selectedLine(ui.frame()), /@bob/)
  ui.press('r')
  await ui.until('revoke token 2 of @bob in Felix?')
  ui.press('y')
  await ui.until('revoked token 2')
  t.same(changes(), [{ op: 'token.revoke', args: { token: '2' } }])
})

t.test('keys typed in one go after a search (as tmux sends them) reach the console, not the closed box', async (t) => {
  const { ui } = openConsole(t)
  await ui.until('@alice')
  ui.press('3')
  await ui.until('@robo')
  ui.press('/ro\r?')
  const frame = await ui.until('Keys of Users')
  t.match(frame, /\/ro \(Esc clears\)/, 'the filter kept, the help open')
  ui.press('?')
  t.notMatch(await ui.until('@robo'), /@alice/)
})
