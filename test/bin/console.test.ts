/**
 * `svc console` as an operator meets it: the built CLI refusing what it
 * cannot do (run in this process, its stdin not a terminal), and the console
 * itself attached to a real `svc serve` through its admin socket
 * (ink-testing-library stands in for the terminal).
 */
import t from 'tap'
import { createElement } from 'react'
import { attachAdminClient } from '../../admin/admin-client.js'
import { Console } from '../../admin/console.js'
import { keys, screen, selectedLine } from '../fixtures/screen.js'
import { svc } from '../fixtures/svc-in-process.js'
import { initDir, serve, tempDir } from '../fixtures/svc-process.js'

const oneLine = (t: { equal(a: unknown, b: unknown, m: string): unknown }, stderr: string) =>
  t.equal(stderr.trim().split('\n').length, 1, `one line of reason: ${stderr}`)

t.test('without a server on the data dir the console refuses, naming the dir and the fix', async (t) => {
  const dir = await initDir(t)
  const res = await svc(['console', '--data-dir', dir])
  t.not(res.code, 0)
  t.equal(res.stdout, '')
  t.match(res.stderr, `no server is running on ${dir}; start one with svc serve`)
  oneLine(t, res.stderr)
})

t.test('attached to a server but not to a terminal, it says it needs one', async (t) => {
  const dir = tempDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const res = await svc(['console', '--data-dir', dir])
  t.not(res.code, 0)
  t.match(res.stderr, /needs an interactive terminal/)
  oneLine(t, res.stderr)
})

t.test("the console shows a running server's explore streams and tokens, and acts through it", async (t) => {
  const dir = tempDir(t)
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const client = attachAdminClient(dir)
  const { client_id } = (await client.call('app.create', { name: 'Patter', redirect_uris: ['http://patter.example/cb'] })) as { client_id: string }
  await client.call('user.create', { username: 'alice', password: 'correct horse' })
  await client.call('token.create', { username: 'alice', client_id })

  const ui = screen(createElement(Console, { client }))
  t.teardown(() => ui.unmount())
  t.match(await ui.until('@alice'), /› \d+\s+Patter\s+@alice\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+basic/)

  ui.press(keys.tab)
  const streams = await ui.until('checkins')
  for (const slug of ['posts', 'conversations', 'photos', 'trending', 'checkins'])
    t.match(streams, new RegExp(`^. ${slug}\\s`, 'm'), `the seeded ${slug} stream`)

  ui.press('p')
  await ui.until('pin which post id to posts?')
  ui.press('999', keys.enter)
  await ui.until('error: post 999 not found')
  ui.press('7')
  t.match(
    await ui.until('Esc to cancel) 7'),
    /pin which post id to posts\? \(Enter to pin, Esc to cancel\) 7/,
    'after a refusal the prompt keeps what is typed next',
  )
  ui.press(keys.escape)
  await ui.until((f) => !f.includes('pin which post id'))

  ui.press(keys.left)
  await ui.until((f) => selectedLine(f)?.includes('@alice') === true)
  ui.press('r')
  await ui.until(/revoke token \d+ of @alice in Patter\?/)
  ui.press('y')
  await ui.until('no live tokens')
  t.same(await client.call('token.list', {}), [], 'the server revoked it')
})
