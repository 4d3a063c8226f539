/**
 * The moderation commands: an operator suspends, restores and deletes
 * accounts, resets a password and deletes an app, on the data dir itself
 * (in this process) and once through a running server's admin socket.
 */
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDomain } from '../../data/index.js'
import { svc, svcJson } from '../fixtures/svc-in-process.js'
import { initDir, serve } from '../fixtures/svc-process.js'
import { openStore } from '../fixtures/open-store.js'

/** What the data dir says of `username` once the command is done: signs in with `password`, and their live token count. */
const account = async (dir: string, username: string, password: string) => {
  const domain = await openDomain(dir)
  try {
    const user = await domain.users.accounts.byUsername(username)
    const tokens = user ? (await domain.auth.tokens.list()).filter((i) => i.user?.id === user.id).length : 0
    return { exists: user !== null, signsIn: (await domain.users.accounts.checkPassword(username, password)) !== null, tokens }
  } finally {
    await domain.close()
  }
}

t.test('an operator suspends, restores and deletes bob, resets his password and deletes an app, on the data dir', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  await svcJson(['user', 'create', '--username', 'bob', '--password', 'correct horse', ...d])
  await svcJson(['token', 'create', '--username', 'bob', '--client-id', app.client_id, ...d])

  const suspended = await svc(['user', 'suspend', 'bob', '--json', ...d])
  t.equal(suspended.code, 0, suspended.stderr)
  const user = JSON.parse(suspended.stdout)
  t.match(user, { id: /^\d+$/, username: 'bob', suspended_at: String }, 'the User object, and since when he is suspended')
  t.match(await account(dir, 'bob', 'correct horse'), { tokens: 0 }, 'his token is revoked')
  const listed = await svc(['user', 'list', ...d])
  t.match(listed.stdout, /@bob\tBob|@bob\tbob/)
  t.match(listed.stdout, /\tsuspended$/m, 'the list marks him')

  const restored = await svc(['user', 'unsuspend', 'bob', ...d])
  t.equal(restored.code, 0)
  t.equal(restored.stdout, `unsuspended user @bob (id ${user.id})\n`, 'one human line without --json')
  t.notOk('suspended_at' in (await svcJson(['user', 'unsuspend', 'bob', ...d])), 'restoring twice is no error')

  await svcJson(['token', 'create', '--username', 'bob', '--client-id', app.client_id, ...d])
  const reset = await svc(['user', 'reset-password', 'bob', '--password-stdin', ...d], { stdin: 'battery staple\n' })
  t.equal(reset.code, 0, reset.stderr)
  t.match(reset.stdout, /^new password for @bob/)
  t.same(await account(dir, 'bob', 'battery staple'), { exists: true, signsIn: true, tokens: 0 }, 'the new password works and his tokens are revoked')
  const short = await svc(['user', 'reset-password', 'bob', '--password-stdin', ...d], { stdin: 'short\n' })
  t.not(short.code, 0, 'the password rules apply')
  t.match(short.stderr, /at least/)
  const none = await svc(['user', 'reset-password', 'bob', ...d], { stdin: '' })
  t.not(none.code, 0, 'no terminal and no --password-stdin: no password')

  const deletedApp = await svcJson(['app', 'delete', app.client_id, ...d])
  t.match(deletedApp, { client_id: app.client_id, name: 'Robo' })
  t.notOk('client_secret' in deletedApp)
  t.same(
    (await svcJson(['app', 'list', ...d])).map((a: { name: string }) => a.name),
    ['svc web'],
    "only svc's own web client is left",
  )
  const appAgain = await svc(['app', 'delete', app.client_id, ...d])
  t.not(appAgain.code, 0, 'a deleted app is unknown')
  t.equal(appAgain.stderr.trim().split('\n').length, 1)

  const deleted = await svc(['user', 'delete', 'bob', ...d])
  t.equal(deleted.code, 0)
  t.match(deleted.stdout, /^deleted user @bob/)
  t.match(await account(dir, 'bob', 'battery staple'), { exists: false, signsIn: false })
  t.same(await svcJson(['user', 'list', ...d]), [])

  for (const verb of ['suspend', 'unsuspend', 'delete']) {
    const unknown = await svc(['user', verb, 'nobody', ...d])
    t.not(unknown.code, 0, `${verb} of an unknown user fails`)
    t.equal(unknown.stderr, 'svc: no user nobody\n', 'with one line of reason')
    t.equal(unknown.stdout, '')
  }
})

t.test('through the running server, suspending alice revokes her token at once', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', ...d])
  const issued = await svcJson(['token', 'create', '--username', 'alice', '--client-id', app.client_id, ...d])
  const me = () => fetch(`${server.url}/stream/0/users/me`, { headers: { authorization: `Bearer ${issued.access_token}` } })
  t.equal((await me()).status, 200)
  const suspended = await svcJson(['user', 'suspend', 'alice', ...d])
  t.match(suspended, { username: 'alice', suspended_at: String })
  t.equal((await me()).status, 401, 'the server refuses her token')
  t.match(await svcJson(['app', 'delete', app.client_id, ...d]), { client_id: app.client_id })
})

/** A data dir whose registration waits for approval, where `usernames` asked for accounts (password "correct horse"). */
async function waitingDir(t: Parameters<typeof initDir>[0], ...usernames: string[]): Promise<string> {
  const dir = await initDir(t)
  const path = join(dir, 'config.json')
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), registration: 'approval' }))
  const domain = await openDomain(dir)
  try {
    for (const username of usernames) await domain.auth.registration.signUp({ username, password: 'correct horse', note: `${username} knits` })
  } finally {
    await domain.close()
  }
  return dir
}

t.test('an operator sees who waits for approval, lets carol in and turns dave away, on the data dir', async (t) => {
  const dir = await waitingDir(t, 'carol', 'dave')
  const d = ['--data-dir', dir]
  const listed = await svc(['user', 'list', ...d])
  t.match(listed.stdout, /@carol\t.*\twaiting for approval: "carol knits"$/m, 'the list marks them, with what they wrote')
  t.match(await svcJson(['user', 'list', ...d]), [
    { username: 'carol', waiting_approval: { since: String, note: 'carol knits' } },
    { username: 'dave', waiting_approval: Object },
  ])
  t.match(await account(dir, 'carol', 'correct horse'), { exists: true })
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  const token = await svc(['token', 'create', '--username', 'carol', '--client-id', app.client_id, ...d])
  t.not(token.code, 0, 'no token for a waiting account, even from the operator')
  t.match(token.stderr, /waits for the operator’s approval/)

  const approved = await svc(['user', 'approve', 'carol', ...d])
  t.equal(approved.code, 0, approved.stderr)
  t.match(approved.stdout, /^approved user @carol \(id \d+\)\n$/)
  t.notOk('waiting_approval' in (await svcJson(['user', 'list', ...d]))[0], 'carol waits no more')
  const again = await svc(['user', 'approve', 'carol', ...d])
  t.not(again.code, 0, 'approving her twice is refused')
  t.equal(again.stderr, 'svc: @carol is not waiting for approval\n')
  t.not((await svc(['user', 'reject', 'carol', ...d])).code, 0, 'and an approved account is not rejected')

  const rejected = await svcJson(['user', 'reject', 'dave', ...d])
  t.match(rejected, { username: 'dave', waiting_approval: { note: 'dave knits' } })
  t.match(await account(dir, 'dave', 'correct horse'), { exists: false }, 'his account is gone')
  t.same(
    (await svcJson(['user', 'list', ...d])).map((u: { username: string }) => u.username),
    ['carol'],
  )
  const unknown = await svc(['user', 'reject', 'dave', ...d])
  t.equal(unknown.stderr, 'svc: no user dave\n')
})

t.test('through the running server, approving carol lets her get a token at once', async (t) => {
  const dir = await waitingDir(t, 'carol')
  const d = ['--data-dir', dir]
  const server = await serve(dir)
  t.teardown(() => server.stop())
  const app = await svcJson(['app', 'create', '--name', 'Robo', ...d])
  const grant = () =>
    fetch(`${server.url}/oauth/access_token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: app.client_id,
        client_secret: app.client_secret,
        username: 'carol',
        password: 'correct horse',
      }),
    })
  const refused = await grant()
  t.equal(refused.status, 403, 'waiting, she gets no token')
  t.match(await refused.json(), { error_slug: 'account-waiting' })
  t.match(await svcJson(['user', 'approve', 'carol', ...d]), { username: 'carol' })
  t.equal((await grant()).status, 200)
})

t.test('an operator lists the reports users made and resolves one with a note', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const domain = await openDomain(dir)
  try {
    const alice = await domain.users.accounts.create({ username: 'alice' })
    const bob = await domain.users.accounts.create({ username: 'bob' })
    const post = await domain.posts.core.create({ user: alice }, { text: 'cheap watches, click here' })
    await domain.reports.reportPost({ user: bob }, post.id, 'spam')
  } finally {
    await domain.close()
  }
  const listed = await svcJson(['report', 'list', ...d])
  t.match(listed, [
    { id: Number, post_id: Number, reporter: 'bob', author: 'alice', reason: 'spam', content: { text: 'cheap watches, click here' }, resolved_at: null },
  ])
  const text = await svc(['report', 'list', ...d])
  t.match(text.stdout, /^#\d+ {2}post \d+ by @alice, reported by @bob .*\n {4}"cheap watches, click here" {2}reason: spam\n$/)
  const resolved = await svcJson(['report', 'resolve', String(listed[0].id), '--note', 'account warned', ...d])
  t.match(resolved, { resolved_at: String, resolution: 'account warned' })
  t.equal((await svc(['report', 'list', ...d])).stdout, 'no open reports\n')
  t.equal((await svcJson(['report', 'list', '--all', ...d])).length, 1)
  const unknown = await svc(['report', 'resolve', '999', ...d])
  t.not(unknown.code, 0)
  t.equal(unknown.stderr.split('\n').filter(Boolean).at(-1), 'svc: report 999 not found')
})

t.test('report list names reported accounts and messages too', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const domain = await openDomain(dir)
  try {
    const alice = await domain.users.accounts.create({ username: 'alice' })
    const bob = await domain.users.accounts.create({ username: 'bob' })
    await domain.users.profiles.update({ user: alice }, { description: { text: 'deals every day' } })
    const asAlice = { user: alice, token: { kind: 'user', scopes: ['messages'] } } as never
    const { message } = await domain.channels.pm.send(asAlice, ['@bob'], { text: 'pay me' })
    await domain.reports.reportUser({ user: bob }, '@alice', 'spammer')
    await domain.reports.reportMessage({ user: bob, token: { kind: 'user', scopes: ['messages'] } } as never, message.channel_id, message.id)
  } finally {
    await domain.close()
  }
  const listed = await svcJson(['report', 'list', ...d])
  t.match(listed, [
    { kind: 'user', user_id: Number, post_id: null, author: 'alice', content: { text: 'deals every day' }, reason: 'spammer' },
    { kind: 'message', message_id: Number, channel_id: Number, author: 'alice', content: { text: 'pay me' }, reason: null },
  ])
  const text = (await svc(['report', 'list', ...d])).stdout
  t.match(text, /^#\d+ {2}account @alice, reported by @bob .*\n {4}"deals every day" {2}reason: spammer\n/)
  t.match(text, /\n#\d+ {2}message \d+ \(channel \d+\) by @alice, reported by @bob .*\n {4}"pay me"\n$/)
})

t.test('an operator removes a reported post with a reason: gone for everyone, the reason kept, its reports resolved', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  let postId = 0
  let repostId = 0
  const domain = await openDomain(dir)
  try {
    const alice = await domain.users.accounts.create({ username: 'alice' })
    const bob = await domain.users.accounts.create({ username: 'bob' })
    const post = await domain.posts.core.create({ user: alice }, { text: 'my neighbour lives at 12 Elm Street' })
    postId = post.id
    repostId = (await domain.posts.reposts.repost({ user: bob }, post.id)).id
    await domain.reports.reportPost({ user: bob }, post.id, 'doxxing')
  } finally {
    await domain.close()
  }
  const missing = await svc(['post', 'delete', String(postId), ...d])
  t.not(missing.code, 0, 'no reason, no removal')
  t.match(missing.stderr, /--reason/)
  const removed = await svcJson(['post', 'delete', String(postId), '--reason', 'personal information', ...d])
  t.match(removed, {
    id: postId,
    author: 'alice',
    text: 'my neighbour lives at 12 Elm Street',
    removed: { reason: 'personal information', at: String },
    already_deleted: false,
    reports_resolved: 1,
  })
  t.match((await svcJson(['report', 'list', '--all', ...d]))[0], { resolved_at: String, resolution: 'post removed: personal information' })
  const after = await openDomain(dir)
  try {
    t.match(await after.posts.core.get(postId), { is_deleted: true, removed: { reason: 'personal information' } }, 'the reason is kept with the post')
    t.match(await after.posts.core.get(repostId), { is_deleted: true }, 'its reposts went with it')
  } finally {
    await after.close()
  }
  t.equal(
    (await svc(['post', 'delete', String(postId), '--reason', 'again', ...d])).stdout,
    `post ${postId} by @alice was deleted already (removed: personal information): nothing done\n`,
  )
  const unknown = await svc(['post', 'delete', '999', '--reason', 'x', ...d])
  t.equal(unknown.stderr.split('\n').filter(Boolean).at(-1), 'svc: post 999 not found')
})

t.test('an operator removes a message with a reason: its text gone for everyone, the reason kept', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  let messageId = 0
  const domain = await openDomain(dir)
  try {
    const alice = await domain.users.accounts.create({ username: 'alice' })
    await domain.users.accounts.create({ username: 'bob' })
    const asAlice = { user: alice, token: { kind: 'user', scopes: ['messages'] } } as never
    const { message } = await domain.channels.pm.send(asAlice, ['@bob'], { text: 'send me your password' })
    messageId = message.id
  } finally {
    await domain.close()
  }
  const removed = await svcJson(['message', 'delete', String(messageId), '--reason', 'phishing', ...d])
  t.match(removed, { id: messageId, author: 'alice', channel_id: Number, removed: { reason: 'phishing', at: String }, already_deleted: false })
  const store = await openStore(dir)
  try {
    t.match(await store.read.messages.get(messageId), { is_deleted: true, text: '', removed: { reason: 'phishing' } }, 'its text gone, the reason kept')
  } finally {
    await store.close()
  }
  t.match((await svc(['message', 'delete', String(messageId), '--reason', 'again', ...d])).stdout, /was deleted already \(removed: phishing\): nothing done/)
  t.equal((await svc(['message', 'delete', '999', '--reason', 'x', ...d])).stderr.split('\n').filter(Boolean).at(-1), 'svc: message 999 not found')
})

t.test('an operator makes an invitation link and lists what is left of each', async (t) => {
  const dir = await initDir(t)
  const d = ['--data-dir', dir]
  const made = await svcJson(['invite', 'create', '--uses', '3', ...d])
  t.match(made, { id: Number, uses: 3, uses_left: 3, code: String, link: new RegExp(`^http://localhost:\\d+/signup\\?invite=${made.code}$`) })
  const text = await svc(['invite', 'create', ...d])
  t.match(text.stdout, /^http:\/\/localhost:\d+\/signup\?invite=[\w-]+\nadmits 1 person; the link is shown this once\n$/)
  t.match((await svc(['invite', 'list', ...d])).stdout, /^#2 {2}1 of 1 left {2}made .*\n#1 {2}3 of 3 left {2}made .*\n$/)
  const bad = await svc(['invite', 'create', '--uses', 'many', ...d])
  t.not(bad.code, 0)
  t.match(bad.stderr, /--uses must be a whole number, not many/)
})
