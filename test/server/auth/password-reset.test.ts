/**
 * "Forgot password?": alice, who confirmed her address, gets a mailed link
 * that sets a new password once, within the hour, and signs her out
 * everywhere; whoever else is named gets the same page and no mail; an
 * instance without mail says whom to ask. Mail goes through a real SMTP
 * server the story starts.
 */
import t, { type Test } from 'tap'
import type { DomainEvent } from '../../../data/index.js'
import { summarize } from '../../../data/admin/event-summary.js'
import { recordEvents } from '../../fixtures/events.js'
import { HERE, makeInstance, type Instance } from '../../fixtures/instance.js'
import { makeMailbox, type Mailbox } from '../../fixtures/mailbox.js'
import { csrfOf, makeClient, visitor } from '../../fixtures/oauth.js'
import { waitUntil } from '../../fixtures/wait.js'
import { makeLogger } from '../../../server/index.js'

const ALICE = 'alice@mail.example'

/** Alice, with a confirmed address (through its mailed link) and a token of robo's. */
async function confirmedAlice(t: Test, svc: Instance, box: Mailbox) {
  const user = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse', email: ALICE })
  await svc.domain.auth.emails.confirmNew(user, 'http://localhost')
  const confirmed = await svc.server.inject(box.linkIn(await box.mailTo(ALICE), '/email/confirm'))
  t.equal(confirmed.statusCode, 200, 'alice confirmed her address')
  const robo = await makeClient(svc)
  const { access_token } = await svc.domain.auth.tokens.issueUserToken(robo.app, user, ['basic', 'stream'])
  return { user, token: access_token }
}

/** Asks for a link for `who` from a new browser; answers the page. */
async function forgot(svc: Instance, who: string) {
  const browser = visitor(svc)
  const form = await browser.get('/password/forgot')
  return browser.post('/password/forgot', { csrf: csrfOf(form.text), who })
}

/** Sets `password` (typed twice as `again`) through the link at `path`. */
async function setPassword(svc: Instance, path: string, password: string, again = password) {
  const browser = visitor(svc)
  const form = await browser.get(path)
  if (form.status !== 200) return form
  const token = new URL(path, 'http://x').searchParams.get('token') ?? ''
  return browser.post('/password/reset', { csrf: csrfOf(form.text), token, password, password_again: again })
}

t.test('alice forgot her password: the mailed link sets a new one once, and every session and token of hers ends', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const alice = await confirmedAlice(t, svc, box)
  const events = recordEvents(svc)

  const robo = await makeClient(svc)
  const signIn = await visitor(svc).get(`/oauth/authenticate?client_id=${robo.client_id}&response_type=code&redirect_uri=https://robo.example/cb&scope=basic`)
  const href = /href="([^"]+)">Forgot password\?/.exec(signIn.text)?.[1].replace(/&amp;/g, '&') ?? ''
  t.match(href, /^\/password\/forgot\?next=%2Foauth%2Fauthenticate/, 'the sign-in page links to the form, and back')
  const browser = visitor(svc)
  const form = await browser.get(href)
  t.match(form.text, /Username or e-mail address/)
  t.match(form.text, /Back to sign in/)
  const sent = await browser.post('/password/forgot', { csrf: csrfOf(form.text), who: 'Alice', next: decodeURIComponent(href.split('next=')[1]) })
  t.equal(sent.status, 200)
  t.match(sent.text, /a mail with a link to set a new password is on its way/)

  const mail = await box.mailTo(ALICE, 2)
  t.equal(mail.from, 'svc@mail.example')
  t.match(mail.subject, /Set a new password on svc/)
  t.match(mail.text, /@alice/)
  const link = box.linkIn(mail, '/password/reset')

  const differ = await setPassword(svc, link, 'battery staple', 'battery stapel')
  t.equal(differ.status, 400)
  t.match(differ.text, /The two passwords differ/)
  const short = await setPassword(svc, link, 'short')
  t.equal(short.status, 400, 'the rules of sign-up apply')
  t.match(short.text, /at least 8 characters/)
  t.equal((await svc.call('GET', '/users/me', { token: alice.token })).status, 200, 'slips used nothing up')

  const done = await setPassword(svc, link, 'battery staple')
  t.equal(done.status, 200)
  t.match(done.text, /Password changed/)
  t.equal((await svc.call('GET', '/users/me', { token: alice.token })).status, 401, 'her old token is refused')
  t.equal(await svc.domain.users.accounts.checkPassword('alice', 'correct horse'), null, 'the old password no longer works')
  t.ok(await svc.domain.users.accounts.checkPassword('alice', 'battery staple'), 'the new one does')
  const reset = events.find((e) => e.name === 'user.password_reset') as DomainEvent<'user.password_reset'> | undefined
  t.match(reset?.payload, { user: { username: 'alice' }, by: 'link' }, 'the reset is an event')
  t.equal(await summarize(reset!, async () => '@alice'), '@alice by link', "the console's line for it")
  const made = events.find((e) => e.name === 'account_link.created')!
  t.equal(await summarize(made, async () => '@alice'), 'reset_password link for @alice')
  t.ok(events.some((e) => e.name === 'token.deauthorized'))

  const twice = await setPassword(svc, link, 'another password')
  t.equal(twice.status, 403, 'the link works once')
  t.match(twice.text, /no longer works/)
  t.ok(await svc.domain.users.accounts.checkPassword('alice', 'battery staple'))
  t.notOk(JSON.stringify(await svc.store.read.account_links.scan({ limit: 10 })).includes(link.split('=')[1]), 'no code is kept')
})

t.test('only the newest link works, and a link expires after an hour', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  await confirmedAlice(t, svc, box)
  await forgot(svc, ALICE.toUpperCase())
  const first = box.linkIn(await box.mailTo(ALICE, 2), '/password/reset')

  const again = await svc.domain.auth.passwordReset.request('alice', HERE, 'http://localhost')
  t.equal(await again.mail, null, 'within a minute of the last, no other link goes')
  // A minute later she asks again.
  await svc.store.transact(async (tx) => {
    for (const link of await tx.account_links.getMany(await tx.account_links.scan({ limit: 10 })))
      tx.account_links.put({ ...link, created_at: new Date(Date.parse(link.created_at) - 61_000).toISOString() })
  })
  await forgot(svc, 'alice')
  const second = box.linkIn(await box.mailTo(ALICE, 3), '/password/reset')
  t.equal((await setPassword(svc, first, 'battery staple')).status, 403, 'the older link died')

  await svc.store.transact(async (tx) => {
    for (const link of await tx.account_links.getMany(await tx.account_links.scan({ limit: 10 })))
      tx.account_links.put({ ...link, expires_at: new Date(Date.now() - 1000).toISOString() })
  })
  const expired = await setPassword(svc, second, 'battery staple')
  t.equal(expired.status, 403, 'an expired link is refused')
  t.match(expired.text, /expired/)
  await t.rejects(svc.domain.auth.passwordReset.reset(second.split('=')[1], 'battery staple'), { code: 'forbidden', slug: 'link-expired' })
  t.ok(await svc.domain.users.accounts.checkPassword('alice', 'correct horse'), 'the password is as it was')
})

t.test('a link made before an operator reset the password no longer works', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const alice = await confirmedAlice(t, svc, box)
  await forgot(svc, 'alice')
  const link = box.linkIn(await box.mailTo(ALICE, 2), '/password/reset')
  await svc.domain.users.moderation.resetPassword(alice.user.id, 'operator chose')
  t.equal((await setPassword(svc, link, 'battery staple')).status, 403)
  t.ok(await svc.domain.users.accounts.checkPassword('alice', 'operator chose'))
})

t.test('whoever is named, the page is the same, and only an account with a confirmed address gets mail', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  await confirmedAlice(t, svc, box)
  await svc.person('bob')
  await svc.domain.users.accounts.create({ username: 'carol', password: 'correct horse', email: 'carol@mail.example' })
  const answers = []
  for (const who of ['nobody', 'nobody@mail.example', 'bob', 'carol', 'carol@mail.example', 'alice']) answers.push(await forgot(svc, who))
  t.same(new Set(answers.map((a) => a.status)), new Set([200]))
  t.equal(new Set(answers.map((a) => a.text)).size, 1, 'one page for all')
  await box.mailTo(ALICE, 2)
  t.same(
    box.mails.map((m) => m.to),
    [ALICE, ALICE],
    'the confirmation, then the one link: none to carol, whose address is unconfirmed',
  )
})

t.test('asking for links is counted as failed sign-ins are, per address', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const browser = visitor(svc)
  const form = await browser.get('/password/forgot')
  const statuses: number[] = []
  for (let i = 0; i < 31; i++) statuses.push((await browser.post('/password/forgot', { csrf: csrfOf(form.text), who: `nobody${i}` })).status)
  t.same(statuses.slice(0, 30), Array(30).fill(200))
  const refused = await browser.post('/password/forgot', { csrf: csrfOf(form.text), who: 'alice' })
  t.equal(refused.status, 429)
  t.ok(refused.headers['retry-after'])
  t.match(refused.text, /Too many/)
})

t.test('a mail server that refuses: the same page, never a 500, and a warning in the log without address or link', async (t) => {
  const box = await makeMailbox(t)
  const text: string[] = []
  const logger = makeLogger({ write: (line: string) => text.push(line) }, 'info')
  const svc = await makeInstance(t, { smtp: box.smtp }, { logger })
  await confirmedAlice(t, svc, box)
  box.refusing = true
  const sent = await forgot(svc, 'alice')
  t.equal(sent.status, 200)
  t.match(sent.text, /on its way/)
  const warned = () => text.map((line) => JSON.parse(line)).find((line) => line.msg === 'password reset mail not sent')
  await waitUntil(() => warned() !== undefined, 'the warning')
  t.match(warned(), { level: 40, reason: /451/ })
  const [link] = await svc.store.read.account_links.getMany(await svc.store.read.account_links.scan({ limit: 1 }))
  t.equal(link?.purpose, 'reset_password', 'the link was made')
  const log = text.join('\n')
  t.notMatch(log, /mail\.example/, 'no address in the log')
  t.notMatch(log, /token=/, 'no link in the log')
})

t.test('without SMTP the page names whom to ask, and sends nothing', async (t) => {
  const svc = await makeInstance(t, { contact: 'ops@svc.example' })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse', email: ALICE })
  const browser = visitor(svc)
  const page = await browser.get('/password/forgot')
  t.equal(page.status, 200)
  t.match(page.text, /This instance sends no mail/)
  t.match(page.text, /ops@svc\.example/)
  t.notMatch(page.text, /<form/, 'no form to fill in')
  const posted = await browser.post('/password/forgot', { csrf: 'from-an-older-form', who: 'alice' })
  t.match(posted.text, /ops@svc\.example/)
  t.equal(await svc.store.read.account_links.count('user', alice.id), 0, 'no link was made')
  const plain = await makeInstance(t)
  t.match((await visitor(plain).get('/password/forgot')).text, /Ask the operator of this instance/)
})
