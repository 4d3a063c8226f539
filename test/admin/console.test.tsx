/**
 * The admin console as an operator drives it: the Ink screen rendered with
 * ink-testing-library on a fake instance that answers admin operations the
 * way a server does (and keeps what they change), keys typed, frames read.
 */
import t from 'tap'
import type { AdminClient } from '../../admin/admin-client.js'
import { Console } from '../../admin/console.js'
import { keys, screen, selectedLine } from './screen.js'

type Args = Record<string, unknown>

interface Stream {
  id: string
  slug: string
  title: string
  rule: Args
  pinned: string[]
}

/** An instance where alice and bob each hold a token, with two explore streams and posts 7 and 42. */
function fakeInstance() {
  const calls: { op: string; args: Args }[] = []
  let tokens = [
    {
      id: '1',
      kind: 'user',
      app: { client_id: 'c-patter', name: 'Patter' },
      user: { id: '1', username: 'alice' },
      scopes: ['basic', 'stream'],
      created_at: '2025-03-01T09:30:12.000Z',
    },
    {
      id: '2',
      kind: 'user',
      app: { client_id: 'c-felix', name: 'Felix' },
      user: { id: '2', username: 'bob' },
      scopes: ['basic', 'write_post'],
      created_at: '2025-03-02T10:00:00.000Z',
    },
  ]
  let streams: Stream[] = [
    { id: '1', slug: 'photos', title: 'Photos', rule: { has_photo: true }, pinned: ['7'] },
    { id: '2', slug: 'trending', title: 'Trending', rule: { min_stars: 3, star_window_hours: 24 }, pinned: [] },
  ]
  const posts = new Set(['7', '42'])
  const stream = (args: Args): Stream => {
    const found = streams.find((s) => s.slug === args.slug)
    if (!found) throw new Error(`explore stream ${String(args.slug)} not found`)
    return found
  }
  const operations: Record<string, (args: Args) => unknown> = {
    'token.list': () => tokens,
    'token.revoke': (args) => {
      const token = tokens.find((x) => x.id === args.token)
      if (!token) throw new Error('no such token')
      tokens = tokens.filter((x) => x !== token)
      return token
    },
    'explore.list': () => streams,
    'explore.pin': (args) => {
      if (!posts.has(String(args.post_id))) throw new Error(`post ${String(args.post_id)} not found`)
      stream(args).pinned.push(String(args.post_id))
      return stream(args)
    },
    'explore.unpin': (args) => {
      stream(args).pinned = stream(args).pinned.filter((id) => id !== String(args.post_id))
      return stream(args)
    },
    'explore.delete': (args) => {
      const gone = stream(args)
      streams = streams.filter((s) => s !== gone)
      return gone
    },
    'user.list': () => [
      { id: '1', username: 'alice', name: 'Alice Liddell', type: 'human', created_at: '2025-02-01T08:00:00.000Z' },
      { id: '2', username: 'bob', name: 'Bob', type: 'human', created_at: '2025-02-02T08:00:00.000Z' },
      { id: '3', username: 'robo', name: 'Robo', type: 'bot', created_at: '2025-02-03T08:00:00.000Z' },
    ],
    'app.list': () => [{ id: '1', client_id: 'c-patter', name: 'Patter', redirect_uris: ['http://patter.example/cb'], created_at: '2025-01-01T00:00:00.000Z' }],
  }
  const client: AdminClient = {
    async call(op, args = {}) {
      calls.push({ op, args })
      const run = operations[op]
      if (!run) throw new Error(`unknown admin operation ${op}`)
      return structuredClone(run(args))
    },
  }
  return { client, calls, changes: () => calls.filter((c) => !c.op.endsWith('.list')) }
}

const open = (t: { teardown(fn: () => unknown): void }) => {
  const instance = fakeInstance()
  const ui = screen(<Console client={instance.client} />)
  t.teardown(() => ui.unmount())
  return { ...instance, ui }
}

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
  t.match(frame, /Tokens/)
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
  t.match(await ui.until('http://patter.example/cb'), /› 1\s+Patter\s+c-patter/)
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
  ui.press('p')
  await ui.until('pin which post id to photos?')
  ui.press('x', keys.enter)
  await ui.until('error: "x" is not a post id')
  t.equal(changes().length, 1, 'a typo never reaches the server')
  ui.press(keys.right)
  t.match(await ui.until('@robo'), /error: "x" is not a post id/, 'still running, the last error still shown')
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
