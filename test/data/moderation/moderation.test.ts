/**
 * Moderation through the domain: an admin suspends bob, restores him,
 * deletes him, resets his password, and deletes an app. What alice, carol
 * and anonymous readers see of him at each step, and what went out as events.
 */
import t from 'tap'
import { anonymous } from '../../../data/index.js'
import { DELETE_BATCH } from '../../../data/moderation/moderation.js'
import { onFirst, recordEvents } from '../../fixtures/events.js'
import { HERE, makeDomainInstance, makeInstance } from '../../fixtures/instance.js'
import { writePost } from '../../fixtures/post-rows.js'
import { upload } from '../../fixtures/files.js'
import { existsSync } from 'node:fs'

async function story(t: Parameters<typeof makeInstance>[0]) {
  const svc = await makeDomainInstance(t)
  const [alice, bob, carol] = await svc.people('alice', 'bob', 'carol')
  const [asAlice, asBob, asCarol] = await Promise.all([svc.viewerOf(alice), svc.viewerOf(bob), svc.viewerOf(carol)])
  await svc.domain.relations.core.follow(asAlice, '@bob')
  const opening = await svc.domain.posts.core.create(asAlice, { text: 'what is new?' })
  const news = await svc.domain.posts.core.create(asBob, { text: '@alice big #news today' })
  const reply = await svc.domain.posts.core.create(asBob, { text: 'and more', reply_to: opening.id })
  const repost = await svc.domain.posts.reposts.repost(asCarol, news.id)
  return { svc, alice, bob, carol, asAlice, asBob, asCarol, opening, news, reply, repost }
}

const ids = (page: { items: { item: { id: number } }[] }): number[] => page.items.map((i) => i.item.id)

t.test('suspending bob revokes his tokens and hides his posts from every list until he is restored', async (t) => {
  const { svc, alice, bob, opening, news, reply, repost } = await story(t)
  const second = await svc.domain.auth.tokens.issueUserToken(svc.app, bob.user, ['basic'])
  const events = recordEvents(svc)

  const suspended = await svc.domain.users.moderation.suspend(bob.user.id)
  t.ok(suspended.suspended_at, 'the row says since when')
  t.same(
    events.map((e) => e.name),
    ['user.suspended', 'token.deauthorized', 'token.deauthorized'],
    'one event for the suspension, one per token',
  )
  await t.rejects(svc.domain.auth.tokens.authenticate(bob.token), { code: 'unauthenticated' }, 'his tokens are gone')
  await t.rejects(svc.domain.auth.tokens.authenticate(second.access_token), { code: 'unauthenticated' })

  const asAliceNow = await svc.viewerOf(alice)
  const bobs = new Set([news.id, reply.id, repost.id])
  const noneOfBobs = (list: number[], what: string) =>
    t.notOk(
      list.some((id) => bobs.has(id)),
      `none of bob's posts in ${what}`,
    )
  noneOfBobs(ids((await svc.domain.posts.streams.global(asAliceNow, {})).page), 'the global stream')
  noneOfBobs(ids((await svc.domain.posts.streams.unified(asAliceNow, {})).page), "alice's unified stream")
  noneOfBobs(ids((await svc.domain.posts.streams.personal(asAliceNow, {})).page), "alice's personal stream")
  noneOfBobs(ids((await svc.domain.posts.streams.mentions(asAliceNow, 'me', {})).page), "alice's mentions")
  noneOfBobs(ids((await svc.domain.posts.streams.tag(asAliceNow, 'news', {})).page), 'the hashtag')
  noneOfBobs(ids((await svc.domain.posts.streams.ofUser(asAliceNow, '@carol', {})).page), "carol's posts (her repost of his)")
  noneOfBobs(ids(await svc.domain.posts.search.search(asAliceNow, { query: 'news' }, {})), 'search')
  t.same(ids((await svc.domain.posts.streams.thread(asAliceNow, opening.id, {})).page), [opening.id], 'his reply leaves the thread')
  await t.rejects(svc.domain.posts.streams.ofUser(asAliceNow, '@bob', {}), { code: 'not_found' }, 'his own list is gone')
  await t.rejects(svc.domain.posts.core.find(asAliceNow, news.id), { code: 'not_found' }, 'his post by id is gone')
  await t.rejects(svc.domain.posts.core.find(anonymous, news.id), { code: 'not_found' }, 'for anonymous readers too')
  await t.rejects(svc.domain.public.post(news.id), { code: 'not_found' }, 'and at its canonical url')
  await t.rejects(svc.domain.users.accounts.resolve(String(bob.user.id), asAliceNow), { code: 'not_found' }, 'his profile is gone')
  t.same(
    (await svc.domain.users.accounts.getMany([bob.user.id, alice.user.id])).map((u) => u.username),
    ['alice'],
    'and from lists of users',
  )

  const again = await svc.domain.users.moderation.suspend(bob.user.id)
  t.equal(again.suspended_at, suspended.suspended_at, 'suspending twice changes nothing')
  t.equal(events.filter((e) => e.name === 'user.suspended').length, 1, 'and says nothing more')

  const restored = await svc.domain.users.moderation.unsuspend(bob.user.id)
  t.equal(restored.suspended_at, undefined)
  t.equal(events.at(-1)?.name, 'user.unsuspended')
  t.ok(ids((await svc.domain.posts.streams.global(asAliceNow, {})).page).includes(news.id), 'his posts come back')
  t.equal((await svc.domain.posts.core.find(asAliceNow, reply.id)).id, reply.id)
  await t.rejects(svc.domain.auth.tokens.authenticate(bob.token), { code: 'unauthenticated' }, 'his old tokens stay revoked')
})

t.test('a suspended bob cannot sign in, by password grant, by the sign-in page or with a pending code', async (t) => {
  const svc = await makeDomainInstance(t)
  const bob = await svc.person('bob')
  const { app, client_secret } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const request = { client_id: app.client_id, response_type: 'code', redirect_uri: 'https://robo.example/cb', scope: 'stream' }
  const location = await svc.domain.auth.oauth.approve(bob.user, await svc.domain.auth.oauth.prepare(request))
  const code = new URL(location).searchParams.get('code') ?? ''
  await svc.domain.users.moderation.suspend(bob.user.id)

  const grant = { grant_type: 'password', client_id: app.client_id, client_secret, username: 'bob', password: 'correct horse' }
  await t.rejects(svc.domain.auth.oauth.grant(grant, anonymous, HERE), { code: 'forbidden', slug: 'account-suspended', message: /suspended/ })
  await t.rejects(
    svc.domain.auth.oauth.grant({ ...grant, password: 'wrong horse' }, anonymous, HERE),
    { name: 'DomainError', slug: 'invalid-grant' },
    'a wrong password tells nothing',
  )
  const exchange = { grant_type: 'authorization_code', client_id: app.client_id, client_secret, code, redirect_uri: 'https://robo.example/cb' }
  await t.rejects(svc.domain.auth.oauth.grant(exchange, anonymous, HERE), { code: 'invalid' }, 'his pending code was dropped')

  const page = await svc.domain.auth.signInFlow.next({
    mode: 'authenticate',
    request,
    address: HERE,
    action: { kind: 'sign_in', username: 'bob', password: 'correct horse' },
  })
  t.match(page.step, { kind: 'sign-in', failed: { message: /suspended/ } }, 'the sign-in page says why')
  t.notOk(page.newSession)
  const session = await svc.domain.auth.signInFlow.next({ mode: 'authenticate', request, address: HERE, userId: bob.user.id, action: { kind: 'view' } })
  t.equal(session.step.kind, 'sign-in', 'a session he already had is signed out')
  await t.rejects(svc.domain.auth.tokens.issueUserToken(app, bob.user, ['basic']), { code: 'forbidden' }, 'no token is issued for him')

  await svc.domain.users.moderation.unsuspend(bob.user.id)
  t.ok(await svc.domain.auth.oauth.grant(grant, anonymous, HERE), 'restored, he signs in again')
  await t.rejects(svc.domain.users.moderation.suspend(9999), { code: 'not_found' })
  await t.rejects(svc.domain.users.moderation.unsuspend(9999), { code: 'not_found' })
})

t.test('bob’s sign-in sessions end when his password is reset or he is suspended, and lifting it does not bring them back', async (t) => {
  const svc = await makeDomainInstance(t)
  const bob = await svc.person('bob')
  const { app } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const request = { client_id: app.client_id, response_type: 'code', redirect_uri: 'https://robo.example/cb', scope: 'stream' }
  const flow = svc.domain.auth.signInFlow
  const signIn = async (password: string) => {
    const outcome = await flow.next({ mode: 'authorize', request, address: HERE, action: { kind: 'sign_in', username: 'bob', password } })
    return outcome.newSession ?? {}
  }
  const view = (session: { userId?: number; epoch?: number }) => flow.next({ mode: 'authorize', request, address: HERE, ...session, action: { kind: 'view' } })

  const first = await signIn('correct horse')
  t.match((await view(first)).step, { kind: 'consent' }, 'signed in')
  const events = recordEvents(svc)
  await svc.domain.users.moderation.resetPassword(bob.user.id, 'battery staple')
  t.same(
    events.map((e) => e.name),
    ['user.password_reset', 'token.deauthorized'],
    'the reset is an event, and his token is revoked the way a token is',
  )
  const afterReset = await view(first)
  t.match(afterReset, { step: { kind: 'sign-in' }, newSession: {} }, 'the session from before is over')
  t.notOk(afterReset.newSession?.userId)
  const approved = await flow.next({ mode: 'authorize', request, address: HERE, ...first, action: { kind: 'approve' } })
  t.match(approved.step, { kind: 'sign-in' }, 'and approves nothing')

  const second = await signIn('battery staple')
  t.match((await view(second)).step, { kind: 'consent' }, 'the new password signs him in again')
  await svc.domain.users.moderation.suspend(bob.user.id)
  await svc.domain.users.moderation.unsuspend(bob.user.id)
  t.match((await view(second)).step, { kind: 'sign-in' }, 'a session from before the suspension stays over')
  t.match((await view(await signIn('battery staple'))).step, { kind: 'consent' }, 'a new one holds')
})

t.test('deleting bob removes his posts, tokens and relations both ways, frees his username and keeps a tombstone', async (t) => {
  const { svc, alice, bob, carol, asAlice, asBob, asCarol, news, opening } = await story(t)
  await svc.domain.relations.core.follow(asBob, '@alice')
  await svc.domain.relations.core.mute(asBob, '@carol')
  await svc.domain.relations.core.block(asCarol, '@bob')
  await svc.domain.posts.stars.star(asBob, opening.id)
  const channel = await svc.domain.channels.core.create(asAlice, { type: 'com.example.chat', readers: { any_user: true } })
  await svc.domain.channels.subscriptions.subscribe(asBob, channel.id)
  const events = recordEvents(svc)
  // A user stream sends a deletion to the lists that showed the post: alice's personal stream, as the event comes.
  const reached = onFirst(svc, 'post.deleted', (e) =>
    svc.domain.posts.streams.contains(asAlice, 'personal', alice.user.id, { include_deleted: true }, { ...e.payload.post, is_deleted: false }),
  )

  const tombstone = await svc.domain.users.moderation.deleteUser(bob.user.id)
  t.same(await Promise.all(reached), [true], "his posts' deletions reach the streams that showed them")
  t.ok(tombstone.deleted_at)
  t.equal(tombstone.password_hash, undefined, 'nobody can sign in as the tombstone')
  const names: string[] = events.map((e) => e.name)
  t.equal(names.at(-1), 'user.deleted', 'the last word')
  for (const name of ['token.deauthorized', 'post.deleted', 'star.removed', 'follow.removed', 'mute.removed', 'block.removed', 'subscription.removed']) {
    t.ok(names.includes(name), `${name} went out`)
  }
  t.equal(names.filter((n) => n === 'post.deleted').length, 3, "his two posts and carol's repost of one")
  t.equal(names.filter((n) => n === 'follow.removed').length, 2, 'both follows')

  const r = svc.store.read
  t.equal(await r.posts.count('user_live', bob.user.id), 0, 'no live post of his')
  t.equal(await r.posts.count('user_live', carol.user.id), 0, 'nor a repost of them')
  for (const table of ['follows', 'blocks', 'mutes'] as const) {
    t.same(await r[table].ids('user', bob.user.id, { limit: 10 }), [], `no ${table} of his`)
    t.same(await r[table].ids('target', bob.user.id, { limit: 10 }), [], `no ${table} on him`)
  }
  t.same(await r.stars.ids('user', bob.user.id, { limit: 10 }), [])
  t.same(await r.subscriptions.ids('user', bob.user.id, { limit: 10 }), [])
  t.same(await r.tokens.ids('user', bob.user.id, { limit: 10 }), [])
  t.same(await r.users.get(bob.user.id), tombstone, 'the row stays for what points at it')

  t.equal(await svc.domain.users.accounts.byUsername('bob'), null)
  t.notOk(
    (await svc.domain.users.accounts.list()).some((u) => u.id === bob.user.id),
    'gone from the admin list',
  )
  await t.rejects(svc.domain.users.accounts.resolve(String(bob.user.id), asAlice), { code: 'not_found' })
  await t.rejects(svc.domain.posts.core.find(asAlice, news.id), { code: 'not_found' })
  const newBob = await svc.domain.users.accounts.create({ username: 'bob', password: 'another horse' })
  t.not(newBob.id, bob.user.id, 'the username is free for a new account')
  await t.rejects(svc.domain.users.moderation.suspend(bob.user.id), { code: 'not_found' }, 'a deleted account cannot be suspended')
})

t.test('an account with more posts than one batch is deleted a batch per transaction', async (t) => {
  const svc = await makeDomainInstance(t)
  const robo = await svc.person('robo', { type: 'bot' })
  await svc.store.transact(async (tx) => {
    for (let i = 0; i < DELETE_BATCH * 2 + 1; i++) {
      const row = tx.posts.insert({
        user_id: robo.user.id,
        text: `beep ${i}`,
        entities: { mentions: [], hashtags: [], links: [] },
        annotations: [],
        machine_only: false,
        thread_id: 0,
        app_id: svc.app.id,
        created_at: new Date().toISOString(),
      })
      tx.posts.put({ ...row, thread_id: row.id })
    }
  })
  await writePost(svc, robo.user)
  const commits: number[] = []
  svc.store.onEvents((rows) => commits.push(rows.filter((e) => e.name === 'post.deleted').length))
  await svc.domain.users.moderation.deleteUser(robo.user.id)
  t.equal(await svc.store.read.posts.count('user_live', robo.user.id), 0, 'every post went')
  t.same(
    commits.filter((n) => n > 0),
    [DELETE_BATCH, DELETE_BATCH, 2],
    'in transactions of at most one batch',
  )
})

t.test("resetting bob's password lets only the new one in and revokes his tokens", async (t) => {
  const svc = await makeDomainInstance(t)
  const bob = await svc.person('bob')
  await t.rejects(svc.domain.users.moderation.resetPassword(bob.user.id, 'short'), { code: 'invalid' }, 'the account rules apply')
  await svc.domain.users.moderation.resetPassword(bob.user.id, 'battery staple')
  t.equal(await svc.domain.users.accounts.checkPassword('bob', 'correct horse'), null, 'the old password fails')
  t.equal((await svc.domain.users.accounts.checkPassword('bob', 'battery staple'))?.id, bob.user.id, 'the new one works')
  await t.rejects(svc.domain.auth.tokens.authenticate(bob.token), { code: 'unauthenticated' }, 'his tokens are revoked')
  await t.rejects(svc.domain.users.moderation.resetPassword(9999, 'battery staple'), { code: 'not_found' })
})

t.test('deleting an app revokes its user and app tokens and its clients cannot sign in through it', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const { app, client_secret } = await svc.domain.auth.apps.create({ name: 'Robo' })
  const user = await svc.domain.auth.tokens.issueUserToken(app, alice.user, ['basic'])
  const appToken = await svc.domain.auth.tokens.issueAppToken(app)
  const events = recordEvents(svc)

  const deleted = await svc.domain.auth.apps.delete(app.id)
  t.equal(deleted.client_id, app.client_id)
  t.same(
    events.map((e) => e.name),
    ['app.deleted', 'token.deauthorized', 'token.deauthorized'],
  )
  await t.rejects(svc.domain.auth.tokens.authenticate(user.access_token), { code: 'unauthenticated' })
  await t.rejects(svc.domain.auth.tokens.authenticate(appToken.access_token), { code: 'unauthenticated' })
  const grant = { grant_type: 'password', client_id: app.client_id, client_secret, username: 'alice', password: 'correct horse' }
  await t.rejects(svc.domain.auth.oauth.grant(grant, anonymous, HERE), { name: 'DomainError', slug: 'invalid-client' })
  t.ok(await svc.domain.auth.tokens.authenticate(alice.token), "other apps' tokens live on")
  await t.rejects(svc.domain.auth.apps.delete(app.id), { code: 'not_found' })
})

t.test('the moderation events concern no user stream', async (t) => {
  const { audienceOf } = await import('../../../data/streams/event-audience.js')
  const svc = await makeDomainInstance(t)
  const bob = await svc.person('bob')
  const events = recordEvents(svc)
  await svc.domain.users.moderation.suspend(bob.user.id)
  await svc.domain.users.moderation.unsuspend(bob.user.id)
  await svc.domain.users.moderation.deleteUser(bob.user.id)
  await svc.domain.auth.apps.delete(svc.app.id)
  for (const e of events.filter((e) => e.name.startsWith('user.') || e.name === 'app.deleted')) {
    t.same(audienceOf(e), { users: [], threads: [], channels: [] }, e.name)
  }
})

t.test("a deleted account's files go with it, rows and bytes; other people's stay", async (t) => {
  const svc = await makeInstance(t)
  const [bob, carol] = await svc.people('bob', 'carol')
  const made = []
  for (const [who, name] of [
    [bob, 'one.txt'],
    [bob, 'two.txt'],
    [carol, 'hers.txt'],
  ] as const) {
    const res = await upload(svc, who.token, [
      { name: 'type', data: 'com.example.note' },
      { name: 'content', data: `the file ${name}`, filename: name, type: 'text/plain' },
    ])
    t.equal(res.status, 200, name)
    made.push(Number(res.body.data.id))
  }
  const rows = await svc.store.read.files.getMany(made)
  const paths = rows.map((f) => svc.domain.files.bytes.pathOf(f.content?.stored ?? '') as string)
  t.ok(
    paths.every((p) => existsSync(p)),
    'the bytes are on disk',
  )
  const events = recordEvents(svc)

  await svc.domain.users.moderation.deleteUser(bob.user.id)

  t.same(
    (await svc.store.read.files.getMany(made)).map((f) => f.id),
    [made[2]],
    "only carol's file is left",
  )
  t.same(
    paths.map((p) => existsSync(p)),
    [false, false, true],
    "bob's bytes are gone, carol's are there",
  )
  t.same(
    events.filter((e) => e.name === 'file.deleted').map((e) => (e.payload as { file: { id: number } }).file.id),
    made.slice(0, 2),
    'file.deleted for each of his files',
  )
})
