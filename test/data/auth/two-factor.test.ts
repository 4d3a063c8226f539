import t from 'tap'
import { generate } from 'otplib'
import { HERE, makeDomainInstance, type DomainInstance, type Person } from '../../fixtures/instance.js'

/** The code alice's phone shows `offset` steps from now. */
const codeOf = (secret: string, offset = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

/** alice turns two-factor sign-in on (keeping her token unless told otherwise); answers her secret and her recovery codes. */
async function turnOn(svc: DomainInstance, alice: Person, keep?: { tokenId?: number; session?: { userId: number; epoch: number } }) {
  const viewer = await svc.viewerOf(alice)
  const { secret } = await svc.domain.auth.twoFactor.begin(viewer)
  const change = await svc.domain.auth.twoFactor.confirm(viewer, await codeOf(secret), keep ?? { tokenId: viewer.token?.id })
  return { secret, change, viewer }
}

t.test('alice sets two-factor sign-in up: a pending secret, confirmed with a code, then ten recovery codes shown once', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const viewer = await svc.viewerOf(alice)
  const tf = svc.domain.auth.twoFactor
  t.same(await tf.status(viewer), { enabled: false, recovery_codes_left: 0 })

  const setup = await tf.begin(viewer)
  t.match(setup.secret, /^[A-Z2-7]{32}$/, 'a base32 secret of 20 bytes')
  t.match(setup.uri, /^otpauth:\/\/totp\/svc:alice\?/)
  t.ok(setup.uri.includes(`secret=${setup.secret}`))
  t.match(setup.qr_code, /^data:image\/svg\+xml;base64,/)
  t.match(Buffer.from(setup.qr_code.split(',')[1], 'base64').toString(), /^<svg /)
  t.notOk(await tf.isOn(alice.user.id), 'still off until confirmed')

  const wrong = (await codeOf(setup.secret)) === '000000' ? '111111' : '000000'
  await t.rejects(tf.confirm(viewer, wrong), { code: 'invalid', slug: 'wrong-code' }, 'a wrong code is refused')
  await t.rejects(tf.confirm(viewer, 'nonsense'), { code: 'invalid', slug: 'wrong-code' })
  t.notOk(await tf.isOn(alice.user.id))

  const change = await tf.confirm(viewer, await codeOf(setup.secret))
  t.ok(await tf.isOn(alice.user.id))
  t.equal(change.recovery_codes?.length, 10)
  t.match(change.recovery_codes?.[0], /^[a-z2-9]{5}-[a-z2-9]{5}$/)
  t.match(await tf.status(viewer), { enabled: true, recovery_codes_left: 10 })
  await t.rejects(tf.begin(viewer), { code: 'conflict' }, 'no second set-up while it is on')

  const events = await svc.store.read.event_log.getMany(await svc.store.read.event_log.scan({ limit: 10_000 }))
  t.ok(
    events.some((e) => e.name === 'user.two_factor_enabled'),
    'the change is an event',
  )
  const stored = JSON.stringify([events, await svc.store.read.users.get(alice.user.id)])
  t.notOk(stored.includes(setup.secret), 'the secret is in no event and not on the user row')
  for (const code of change.recovery_codes ?? [])
    t.notOk(JSON.stringify(await svc.store.read.two_factor.one('user', alice.user.id)).includes(code), 'codes kept only as hashes')
})

t.test('a code signs in once: replayed within its window it is refused; the next step’s code works', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const { secret } = await turnOn(svc, alice)
  const tf = svc.domain.auth.twoFactor
  t.equal(await tf.checkCode(alice.user.id, await codeOf(secret)), null, 'the code that confirmed set-up is spent')
  const next = await codeOf(secret, 1)
  t.equal((await tf.checkCode(alice.user.id, next))?.id, alice.user.id, 'the next step’s code (a clock a little ahead) is taken')
  t.equal(await tf.checkCode(alice.user.id, next), null, 'and not twice')
  t.equal(await tf.checkCode(alice.user.id, await codeOf(secret, 5)), null, 'a code far from now is refused')
})

t.test('a recovery code signs in once, in any case, with or without its dash', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const { change, viewer } = await turnOn(svc, alice)
  const tf = svc.domain.auth.twoFactor
  const [first, second] = change.recovery_codes ?? []
  t.equal((await tf.checkCode(alice.user.id, first))?.id, alice.user.id)
  t.equal(await tf.checkCode(alice.user.id, first), null, 'used up')
  t.equal((await tf.checkCode(alice.user.id, second.toUpperCase().replace('-', '')))?.id, alice.user.id)
  t.equal((await tf.status(viewer)).recovery_codes_left, 8)
  const used = await svc.store.read.event_log.getMany(
    await svc.store.read.event_log.scan({ limit: 10_000, order: 'asc' }, (e) => e.name === 'user.two_factor_recovery_code_used'),
  )
  t.same(
    used.map((e) => (e.payload as { codes_left: number }).codes_left),
    [9, 8],
  )
})

t.test('turning it off needs the password and a code; other sessions and tokens end, the requesting token stays', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const phone = await svc.domain.auth.tokens.issueUserToken(svc.app, alice.user, ['basic'])
  const web = await svc.viewerOf(alice)
  const browser = { userId: alice.user.id, epoch: 0 }
  const { secret, change } = await turnOn(svc, alice, { tokenId: web.token?.id, session: browser })
  t.same(change.session, { userId: alice.user.id, epoch: 1 }, 'the requesting browser carries on under the new generation')
  t.equal(await svc.domain.users.accounts.sessionUser(browser), null, 'sign-in sessions of before are over')
  await t.rejects(svc.domain.auth.tokens.authenticate(phone.access_token), { code: 'unauthenticated' }, 'the phone’s token is revoked')
  t.equal((await svc.domain.auth.tokens.authenticate(alice.token)).user?.id, alice.user.id, 'the requesting token stays')

  const tf = svc.domain.auth.twoFactor
  const viewer = await svc.viewerOf(alice)
  const laptop = await svc.domain.auth.tokens.issueUserToken(svc.app, (await svc.domain.users.accounts.get(alice.user.id))!, ['basic'])
  await t.rejects(
    tf.disable(viewer, { password: 'wrong horse', code: await codeOf(secret, 1) }, HERE),
    { code: 'invalid', slug: 'wrong-code' },
    'a wrong password is refused',
  )
  await t.rejects(
    tf.disable(viewer, { password: 'correct horse', code: await codeOf(secret) }, HERE),
    { code: 'invalid', slug: 'wrong-code' },
    'a spent code is refused',
  )
  t.ok(await tf.isOn(alice.user.id))
  const off = await tf.disable(viewer, { password: 'correct horse', code: await codeOf(secret, 1) }, HERE, { tokenId: viewer.token?.id })
  t.same(off.status, { enabled: false, recovery_codes_left: 0 })
  t.notOk(await tf.isOn(alice.user.id))
  await t.rejects(svc.domain.auth.tokens.authenticate(laptop.access_token), { code: 'unauthenticated' }, 'turning it off signs the others out too')
  t.ok(await svc.domain.auth.tokens.authenticate(alice.token))
  await t.rejects(tf.disable(viewer, { password: 'correct horse', code: '123456' }, HERE), { code: 'conflict' }, 'off already')
})

t.test('a recovery code turns it off, and new recovery codes replace the old ones', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const { change, viewer } = await turnOn(svc, alice)
  const tf = svc.domain.auth.twoFactor
  const renewed = await tf.renewRecoveryCodes(viewer, change.recovery_codes![0], HERE, { tokenId: viewer.token?.id })
  t.equal(renewed.recovery_codes?.length, 10)
  t.not(renewed.recovery_codes?.[1], change.recovery_codes![1])
  t.equal(await tf.checkCode(alice.user.id, change.recovery_codes![1]), null, 'the old codes are void')
  await tf.disable(await svc.viewerOf(alice), { password: 'correct horse', code: renewed.recovery_codes![0] }, HERE)
  t.notOk(await tf.isOn(alice.user.id))
})

t.test('the operator’s reset turns it off and signs the account out everywhere', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  await turnOn(svc, alice)
  const after = await svc.domain.auth.twoFactor.reset(alice.user.id)
  t.notOk(await svc.domain.auth.twoFactor.isOn(alice.user.id))
  t.equal(after.session_epoch, 2)
  await t.rejects(svc.domain.auth.tokens.authenticate(alice.token), { code: 'unauthenticated' }, 'every token, the last one included')
})

t.test('the half-signed-in state ends after its few minutes, or when the account moves on: the password is asked again', async (t) => {
  const svc = await makeDomainInstance(t)
  const alice = await svc.person('alice')
  const { secret } = await turnOn(svc, alice)
  const { app } = await svc.domain.auth.apps.create({ name: 'Robo', redirect_uris: ['https://robo.example/cb'] })
  const request = { client_id: app.client_id, response_type: 'code', redirect_uri: 'https://robo.example/cb', scope: 'stream' }
  const flow = svc.domain.auth.signInFlow
  const base = { mode: 'authorize' as const, request, address: HERE }

  const password = await flow.next({ ...base, action: { kind: 'sign_in', username: 'alice', password: 'correct horse' } })
  t.equal(password.step.kind, 'second-factor')
  const pending = password.newSession?.pending
  t.match(pending, { userId: alice.user.id, epoch: 1 })
  t.ok(pending && pending.expires - Date.now() <= 5 * 60 * 1000, 'for five minutes at most')

  const late = await flow.next({ ...base, pending: { ...pending!, expires: Date.now() - 1 }, action: { kind: 'second_factor', code: await codeOf(secret, 1) } })
  t.equal(late.step.kind, 'sign-in', 'too late: back to the password')
  t.match(late.step, { failed: { message: /took too long/ } })
  t.same(late.newSession, {}, 'and the state is gone')

  await svc.domain.users.moderation.resetPassword(alice.user.id, 'battery staple')
  const moved = await flow.next({ ...base, pending: pending!, action: { kind: 'second_factor', code: await codeOf(secret, 1) } })
  t.equal(moved.step.kind, 'sign-in', 'a password reset meanwhile ends it too')
})
