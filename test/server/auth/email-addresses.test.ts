/**
 * Alice's e-mail address: given at sign-up (optional, unless the operator
 * requires one), confirmed through the link mailed to it, changed with her
 * password in svc's own web client, and shown to no one but her. Mail goes
 * through a real SMTP server the story starts.
 */
import t from 'tap'
import { recordEvents } from '../../fixtures/events.js'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { makeMailbox } from '../../fixtures/mailbox.js'
import { csrfOf, makeClient, visitor } from '../../fixtures/oauth.js'

const ALICE = 'alice@mail.example'
const ALL = ['basic', 'stream', 'write_post', 'follow', 'update_profile', 'public_messages', 'messages', 'files', 'export']

/** Signs `username` up at /signup with `email`; answers the page. */
async function signUp(svc: Instance, username: string, email?: string) {
  const browser = visitor(svc)
  const form = await browser.get('/signup')
  return browser.post('/signup', { csrf: csrfOf(form.text), username, password: 'correct horse', ...(email === undefined ? {} : { email }) })
}

/** A token of svc's own web client for `username`. */
async function webToken(svc: Instance, username: string): Promise<string> {
  const web = await svc.domain.auth.apps.ensureWebClient()
  const user = await svc.domain.users.accounts.byUsername(username)
  return (await svc.domain.auth.tokens.issueUserToken(web, user!, ALL)).access_token
}

t.test('alice signs up with an address, and the link mailed to it confirms it once', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  const events = recordEvents(svc)
  const form = await visitor(svc).get('/signup')
  t.match(form.text, /E-mail address <span class="muted">\(optional\)/)
  const welcome = await signUp(svc, 'alice', ` ${ALICE} `)
  t.equal(welcome.status, 200)
  t.match(welcome.text, new RegExp(`A mail with a link to confirm it is on its way to ${ALICE}`))
  const token = await webToken(svc, 'alice')
  t.match((await svc.call('GET', '/users/me/email', { token })).body.data, { address: ALICE, confirmed: false, mail_available: true, required: false })

  const mail = await box.mailTo(ALICE)
  t.match(mail.subject, /Confirm your e-mail address on svc/)
  const link = box.linkIn(mail, '/email/confirm')
  const confirmed = await visitor(svc).get(link)
  t.equal(confirmed.status, 200)
  t.match(confirmed.text, /your e-mail address is confirmed/)
  t.match((await svc.call('GET', '/users/me/email', { token })).body.data, { address: ALICE, confirmed: true, confirmed_at: String })
  t.ok(
    events.some((e) => e.name === 'user.email_confirmed'),
    'the confirmation is an event',
  )
  t.ok(events.some((e) => e.name === 'account_link.created'))

  const again = await visitor(svc).get(link)
  t.equal(again.status, 403, 'the link works once')
  t.match(again.text, /no longer works/)
  t.equal((await visitor(svc).get('/email/confirm?token=madeup')).status, 403)
  t.equal((await visitor(svc).get('/email/confirm?token=not+a+code')).status, 400)
})

t.test('an address belongs to one account, whatever its case; an account may have none', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  t.equal((await signUp(svc, 'alice', ALICE)).status, 200)
  const taken = await signUp(svc, 'mallory', 'ALICE@Mail.Example')
  t.equal(taken.status, 400)
  t.match(taken.text, /belongs to another account/)
  t.match(taken.text, /value="ALICE@Mail.Example"/, 'the form keeps what was typed')
  t.equal(await svc.domain.users.accounts.byUsername('mallory'), null)
  t.equal((await signUp(svc, 'bob', 'not an address')).status, 400)
  t.equal((await signUp(svc, 'bob', '')).status, 200, 'no address is fine')
  t.match((await svc.call('GET', '/users/me/email', { token: await webToken(svc, 'bob') })).body.data, { address: null, confirmed: false })
  t.equal(box.mails.length, 1, 'only alice was mailed')
})

t.test('where the operator requires an address, sign-up asks for one', async (t) => {
  const svc = await makeInstance(t, { require_email: true })
  t.match((await visitor(svc).get('/signup')).text, /name="email" autocomplete="email" maxlength="254" required/)
  const none = await signUp(svc, 'alice', '')
  t.equal(none.status, 400)
  t.match(none.text, /an e-mail address is required/)
  const made = await signUp(svc, 'alice', ALICE)
  t.equal(made.status, 200)
  t.notMatch(made.text, /confirm/, 'without SMTP no mail is promised')
  const token = await webToken(svc, 'alice')
  const removed = await svc.call('PUT', '/users/me/email', { token, payload: { address: '', password: 'correct horse' } })
  t.equal(removed.status, 400, 'and it cannot be removed')
  t.match((await svc.call('GET', '/users/me/email', { token })).body.data, { address: ALICE, mail_available: false, required: true })
})

t.test('alice changes her address with her password; the new one waits for its own confirmation', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  await signUp(svc, 'alice', ALICE)
  await signUp(svc, 'bob', 'bob@mail.example')
  const oldLink = box.linkIn(await box.mailTo(ALICE), '/email/confirm')
  const token = await webToken(svc, 'alice')
  const events = recordEvents(svc)

  const wrong = await svc.call('PUT', '/users/me/email', { token, payload: { address: 'alice@new.example', password: 'guess' } })
  t.equal(wrong.status, 400)
  t.match(wrong.body.meta.error_message, /wrong password/)
  const taken = await svc.call('PUT', '/users/me/email', { token, payload: { address: 'BOB@mail.example', password: 'correct horse' } })
  t.equal(taken.status, 400)
  t.match(taken.body.meta.error_message, /belongs to another account/)

  const changed = await svc.call('PUT', '/users/me/email', { token, payload: { address: 'alice@new.example', password: 'correct horse' } })
  t.equal(changed.status, 200)
  t.match(changed.body.data, { address: 'alice@new.example', confirmed: false, notice: /on its way to alice@new\.example/ })
  t.ok(
    events.some((e) => e.name === 'user.email_changed'),
    'the change is an event',
  )
  t.equal((await visitor(svc).get(oldLink)).status, 403, 'the old address’s link died with it')

  const resent = await svc.call('POST', '/users/me/email/confirmation', { token })
  t.equal(resent.status, 429, 'not twice within a minute')
  await svc.store.transact(async (tx) => {
    for (const link of await tx.account_links.getMany(await tx.account_links.scan({ limit: 10 })))
      tx.account_links.put({ ...link, created_at: new Date(Date.parse(link.created_at) - 61_000).toISOString() })
  })
  t.equal((await svc.call('POST', '/users/me/email/confirmation', { token })).status, 200)
  const first = box.linkIn(await box.mailTo('alice@new.example', 1), '/email/confirm')
  const second = box.linkIn(await box.mailTo('alice@new.example', 2), '/email/confirm')
  t.equal((await visitor(svc).get(first)).status, 403, 'only the newest link works')
  t.equal((await visitor(svc).get(second)).status, 200)
  const confirmed = await svc.call('POST', '/users/me/email/confirmation', { token })
  t.equal(confirmed.status, 400, 'a confirmed address needs no more mail')
  const recased = await svc.call('PUT', '/users/me/email', { token, payload: { address: 'Alice@New.example', password: 'correct horse' } })
  t.match(recased.body.data, { address: 'Alice@New.example', confirmed: true }, 'another case of the same address stays confirmed')
})

t.test('a mail that cannot be sent is a plain message, never a 500', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  box.refusing = true
  const welcome = await signUp(svc, 'alice', ALICE)
  t.equal(welcome.status, 200)
  t.match(welcome.text, /The mail to confirm it could not be sent/)
  const token = await webToken(svc, 'alice')
  const changed = await svc.call('PUT', '/users/me/email', { token, payload: { address: 'alice@new.example', password: 'correct horse' } })
  t.equal(changed.status, 200)
  t.match(changed.body.data.notice, /could not be sent/)
})

t.test('the address is alice’s alone: in no answer for anyone else, nor for other apps', async (t) => {
  const box = await makeMailbox(t)
  const svc = await makeInstance(t, { smtp: box.smtp })
  await signUp(svc, 'alice', ALICE)
  const bob = await svc.person('bob')
  const alice = (await svc.domain.users.accounts.byUsername('alice'))!
  const robo = await makeClient(svc)
  const roboToken = (await svc.domain.auth.tokens.issueUserToken(robo.app, alice, ALL)).access_token
  const web = await webToken(svc, 'alice')
  const answers = [
    await svc.call('GET', '/users/@alice', { token: bob.token }),
    await svc.call('GET', `/users/${alice.id}`),
    await svc.call('GET', '/users/me', { token: roboToken }),
    await svc.call('GET', '/users/me', { token: web }),
    await svc.call('GET', '/token', { token: roboToken }),
    await svc.call('GET', `/users?ids=${alice.id}`, { token: bob.token }),
  ]
  for (const answer of answers) t.notMatch(JSON.stringify(answer.body), /mail\.example/, 'not in the User object')
  t.equal((await svc.call('GET', '/users/me/email', { token: roboToken })).status, 403, 'another app of hers does not see it')
  t.equal((await svc.call('PUT', '/users/me/email', { token: roboToken, payload: { address: 'robo@evil.example', password: 'correct horse' } })).status, 403)
  t.equal((await svc.call('GET', '/users/me/email', { token: svc.appToken })).status, 403, 'nor does an app token')
  t.equal((await svc.call('GET', '/users/me/email')).status, 401)
})
