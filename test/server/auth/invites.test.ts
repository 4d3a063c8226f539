/** Invitations: with registration closed, a link from the operator admits as many people as it says, and no more. */
import t from 'tap'
import { makeDomainInstance, makeInstance } from '../../fixtures/instance.js'
import { csrfOf, visitor } from '../../fixtures/oauth.js'

t.test('with registration closed, an invitation for two admits two people through /signup, then no one', async (t) => {
  const svc = await makeInstance(t, { open_registration: false })
  const { code, invite } = await svc.domain.auth.invites.create(2)
  t.match(invite, { uses: 2, uses_left: 2 })
  const signUp = async (username: string, password = 'long enough') => {
    const browser = visitor(svc)
    const form = await browser.get(`/signup?invite=${code}`)
    if (form.status !== 200) return form
    t.match(form.text, /You were invited/)
    t.match(form.text, new RegExp(`name="invite" value="${code}"`))
    return browser.post('/signup', { csrf: csrfOf(form.text), invite: code, username, password })
  }
  const short = await signUp('carol', 'short')
  t.equal(short.status, 400, 'a broken rule goes back to the form')
  t.match(short.text, new RegExp(`name="invite" value="${code}"`), 'still invited')
  t.equal((await signUp('carol')).status, 200)
  t.equal((await signUp('dave')).status, 200, 'the failed try did not spend a use')
  const third = await signUp('erin')
  t.equal(third.status, 403, 'used up: the form is closed')
  t.ok(await svc.domain.users.accounts.byUsername('dave'))
  t.equal(await svc.domain.users.accounts.byUsername('erin'), null)
  t.same(
    (await svc.domain.auth.invites.list()).map((i) => i.uses_left),
    [0],
  )
  // A form shown through another, live link, sent with a code of one's own making.
  const other = await svc.domain.auth.invites.create(1)
  const browser = visitor(svc)
  const page = await browser.get(`/signup?invite=${other.code}`)
  const forged = await browser.post('/signup', { csrf: csrfOf(page.text), invite: 'made-up-code', username: 'frank', password: 'long enough' })
  t.equal(forged.status, 403, 'a made-up code admits no one')
  t.equal((await browser.get('/signup?invite=made-up-code')).status, 403)
  t.equal(await svc.domain.users.accounts.byUsername('frank'), null)
})

t.test('two people following the last use of a link at once: one account, not two', async (t) => {
  const svc = await makeDomainInstance(t, { open_registration: false })
  const { code } = await svc.domain.auth.invites.create(1)
  const results = await Promise.allSettled(
    ['gina', 'hugo'].map((username) => svc.domain.auth.oauth.signUp({ username, password: 'long enough', invite: code })),
  )
  t.same(results.map((r) => r.status).sort(), ['fulfilled', 'rejected'])
  t.match(
    results.find((r) => r.status === 'rejected'),
    { reason: { code: 'forbidden' } },
  )
})

t.test('an invitation is made for 1 to 1000 people, and its code is never stored', async (t) => {
  const svc = await makeDomainInstance(t)
  await t.rejects(svc.domain.auth.invites.create(0), { code: 'invalid' })
  await t.rejects(svc.domain.auth.invites.create(1001), { code: 'invalid' })
  const { code } = await svc.domain.auth.invites.create()
  const [kept] = await svc.domain.auth.invites.list()
  t.notOk(JSON.stringify(kept).includes(code), 'only its hash')
})
