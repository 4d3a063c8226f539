/**
 * Moderation from the console: on the Users tab `s` suspends or restores
 * the selected account, `D` deletes it once its username is typed, `P`
 * sets a new password typed unseen, `a` approves and `r` rejects an account
 * waiting for approval; on the Apps tab `D` deletes an app once
 * its name or "yes" is typed. Each asks first, cancels on Esc (or n), calls
 * the admin operation with the row's name, says so on the status line and
 * lists afresh.
 */
import t from 'tap'
import { FELIX_CLIENT_ID } from './fake-instance.js'
import { openConsole } from './open-console.js'
import { keys, overflowing, selectedLine } from '../fixtures/screen.js'

const openOnUsers = async (t: { teardown(fn: () => unknown): void }, columns?: number) => {
  const opened = openConsole(t, { columns })
  await opened.ui.until('@alice')
  opened.ui.press('3')
  await opened.ui.until('@robo')
  return opened
}

const select = async (ui: ReturnType<typeof openConsole>['ui'], text: string) => {
  while (!selectedLine(ui.frame())?.includes(text)) {
    ui.press(keys.down)
    await new Promise((r) => setTimeout(r, 30))
  }
}

t.test('the Users tab shows when a suspended account was suspended, and its keys in the help, within 80 columns', async (t) => {
  const { ui } = await openOnUsers(t, 80)
  t.same(overflowing(ui.frame(), 80), [])
  t.match(ui.frame(), /CREATED\s+STATE/)
  t.match(ui.frame(), /@robo\s+Robo\s+bot\s+2025-02-03 08:00\s+susp\. 2025-03-05/)
  t.match(ui.frame(), /@carol\s+Carol\s+human\s+2025-03-07 08:00\s+waiting approval/)
  t.match(ui.frame(), /@bob\s+Bob\s+human\s+2025-02-02 08:00\s*\n/, 'bob is not suspended')
  ui.press('?')
  const frame = await ui.until('Keys of Users')
  t.match(frame, /s\s+suspend or restore/)
  t.match(frame, /D\s+delete \(type the username\)/)
  t.match(frame, /P\s+new password/)
  t.match(frame, /a\s+approve a waiting account/)
  t.match(frame, /r\s+reject a waiting account \(it is removed\)/)
})

t.test('s suspends the selected account once the operator answers y, and the list shows it suspended', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@bob')
  ui.press('s')
  await ui.until('suspend @bob? their posts hide and their tokens stop working (y/n)')
  ui.press('n')
  await ui.until('cancelled')
  t.same(changes(), [], 'n suspends nobody')
  ui.press('s')
  await ui.until('suspend @bob?')
  ui.press('y')
  const frame = await ui.until(/@bob\s+Bob\s+human\s+2025-02-02 08:00\s+susp\. 2025-03-06/)
  t.match(frame, /suspended @bob/)
  t.same(changes(), [{ op: 'user.suspend', args: { username: 'bob' } }])
})

t.test('s on a suspended account restores it', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@robo')
  ui.press('s')
  await ui.until('restore @robo, suspended since 2025-03-05 12:00? (y/n)')
  ui.press('y')
  await ui.until((f) => f.includes('restored @robo') && !f.includes('2025-03-05 12:00'))
  t.same(changes(), [{ op: 'user.unsuspend', args: { username: 'robo' } }])
})

t.test('a lets in the selected waiting account once the operator answers y, showing what they wrote', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@carol')
  ui.press('a')
  await ui.until('let @carol in? waiting since 2025-03-07 08:00. They wrote: "I knit with alice". (y/n)')
  ui.press('n')
  await ui.until('cancelled')
  t.same(changes(), [], 'n approves nobody')
  ui.press('a')
  await ui.until('let @carol in?')
  ui.press('y')
  await ui.until((f) => f.includes('approved @carol') && !f.includes('waiting approval'))
  t.same(changes(), [{ op: 'user.approve', args: { username: 'carol' } }])
  ui.press('r')
  await ui.until('error: @carol is not waiting for approval')
  t.equal(changes().length, 1, 'an account that does not wait is not rejected')
})

t.test('r turns away the selected waiting account once the operator answers y; a and r leave others alone', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@bob')
  ui.press('a')
  await ui.until('error: @bob is not waiting for approval')
  await select(ui, '@carol')
  ui.press('r')
  await ui.until('reject @carol? the waiting account is removed and its name is free (y/n)')
  ui.press('y')
  await ui.until((f) => f.includes('rejected @carol') && !f.includes('Carol '))
  t.same(changes(), [{ op: 'user.reject', args: { username: 'carol' } }])
})

t.test('D deletes the account only when its username is typed; Esc or another name deletes nothing', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@bob')
  ui.press('D')
  await ui.until('delete @bob for good? type bob to confirm (Esc cancels)')
  ui.press('b', 'o')
  await ui.until('(Esc cancels) bo')
  ui.press(keys.escape)
  await ui.until('cancelled')
  ui.press('D')
  await ui.until('delete @bob for good?')
  ui.press('alice', keys.enter)
  await ui.until('error: "alice" is not bob: nothing deleted')
  t.same(changes(), [], 'nothing deleted yet')
  // Asked again under the reason.
  await ui.until('delete @bob for good?')
  ui.press('bob', keys.enter)
  const frame = await ui.until((f) => f.includes('deleted @bob') && !f.includes('Bob '))
  t.same(changes(), [{ op: 'user.delete', args: { username: 'bob' } }])
  t.match(frame, /@robo/)
})

t.test('P asks the new password without showing it, and sets it', async (t) => {
  const { ui, changes } = await openOnUsers(t)
  ui.press('P')
  await ui.until('new password for @alice')
  ui.press('s3cret-pw')
  const asked = await ui.until('•••••••••')
  t.notMatch(asked, /s3cret/, 'the password never shows')
  ui.press(keys.enter)
  await ui.until('set a new password for @alice')
  t.same(changes(), [{ op: 'user.reset-password', args: { username: 'alice', password: 's3cret-pw' } }])
})

t.test("a refused password is the server's reason on the status line", async (t) => {
  const { ui, changes } = await openOnUsers(t)
  ui.press('P')
  await ui.until('new password for @alice')
  ui.press('short', keys.enter)
  await ui.until('error: password must be at least 8 characters')
  t.same(changes(), [{ op: 'user.reset-password', args: { username: 'alice', password: 'short' } }])
})

t.test('D on the Apps tab deletes the app once its name or "yes" is typed', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press('4')
  await ui.until('c-patter')
  ui.press('?')
  t.match(await ui.until('Keys of Apps'), /D\s+delete the app and its tokens \(type its name or yes\)/)
  ui.press('?')
  await select(ui, 'Felix')
  ui.press('D')
  await ui.until('delete app Felix and revoke every token of it? type Felix or yes to confirm (Esc cancels)')
  ui.press('Patter', keys.enter)
  await ui.until('error: "Patter" is neither Felix nor yes: nothing deleted')
  await ui.until('delete app Felix')
  ui.press(keys.escape)
  await ui.until('cancelled')
  t.same(changes(), [])
  ui.press('D')
  await ui.until('delete app Felix')
  ui.press('yes', keys.enter)
  const frame = await ui.until((f) => f.includes('deleted app Felix') && !f.includes(FELIX_CLIENT_ID))
  t.same(changes(), [{ op: 'app.delete', args: { client_id: FELIX_CLIENT_ID } }])
  t.match(frame, /› 1\s+Patter/)
})

t.test("a key that opens a dialog and its answer typed in one chunk are all the dialog's", async (t) => {
  const { ui, changes } = await openOnUsers(t)
  await select(ui, '@bob')
  ui.press('Dbob\r')
  await ui.until('deleted @bob')
  t.same(changes(), [{ op: 'user.delete', args: { username: 'bob' } }])
})

t.test('the Reports tab (0) lists the open reports; R resolves one with a note, X removes the reported post with a reason', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press('0')
  const frame = await ui.until('cheap watches')
  t.match(frame, /1\s+post 42\s+@robo\s+@bob\s+.*"cheap watches" spam/)
  t.match(frame, /2\s+post 7\s+@bob\s+@alice\s+.*"you again"/)
  t.match(frame, /3\s+@robo\s+@robo\s+@alice\s+.*"I post for money"/, 'an account’s report, with its description as it was')
  t.match(frame, /4\s+msg 9\s+@bob\s+@alice\s+.*"pay me now"/, 'a message’s report')
  ui.press('?')
  t.match(await ui.until('Keys of Reports'), /R\s+resolve the report, with a note on what was done/)
  ui.press('?')
  await select(ui, 'cheap watches')
  ui.press('R')
  await ui.until('resolve report #1: what was done?')
  ui.press('warned robo', keys.enter)
  await ui.until((f) => f.includes('resolved report #1') && !f.includes('cheap watches'))
  t.same(changes(), [{ op: 'report.resolve', args: { id: 1, note: 'warned robo' } }])
  await select(ui, 'you again')
  ui.press('X')
  await ui.until('remove post 7 by @bob? type the reason')
  ui.press(keys.enter)
  await ui.until('error: no reason given: nothing removed')
  await ui.until('remove post 7 by @bob?')
  ui.press('insults', keys.enter)
  await ui.until((f) => f.includes('removed post 7') && !f.includes('you again'))
  t.same(changes().at(-1), { op: 'post.delete', args: { id: 7, reason: 'insults' } })
})

t.test('on the Reports tab, X suspends a reported account (after a y) and removes a reported message with a reason', async (t) => {
  const { ui, changes } = openConsole(t)
  await ui.until('@alice')
  ui.press('0')
  await ui.until('pay me now')
  await select(ui, 'I post for money')
  ui.press('X')
  await ui.until('suspend @robo? their posts hide and their tokens stop working (y/n)')
  ui.press('y')
  await ui.until((f) => f.includes('suspended @robo') && !f.includes('I post for money'))
  t.same(changes(), [{ op: 'user.suspend', args: { username: 'robo' } }])
  await select(ui, 'pay me now')
  ui.press('X')
  await ui.until('remove msg 9 by @bob? type the reason')
  ui.press('scam', keys.enter)
  await ui.until((f) => f.includes('removed msg 9') && !f.includes('pay me now'))
  t.same(changes().at(-1), { op: 'message.delete', args: { id: 9, reason: 'scam' } })
})
