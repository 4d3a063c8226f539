/**
 * Passwords at production cost: scrypt with N=2^17, r=8, p=1 (OWASP's
 * minimum). A password stored at the old cost (N=2^14) is hashed again at
 * the current one the next time it proves right. The other stories hash at
 * a lower cost of their own (see the fixture); these use production's.
 */
import t from 'tap'
import { PasswordHasher } from '../../../data/security/passwords.js'
import { HERE, makeDomainInstance } from '../../fixtures/instance.js'

t.test('alice’s new password is hashed with scrypt at N=2^17, r=8, p=1', async (t) => {
  const svc = await makeDomainInstance(t, {}, { passwordCost: 'production', start: false })
  const alice = await svc.domain.users.accounts.create({ username: 'alice', password: 'correct horse' })
  t.match(alice.password_hash, /^scrypt\$131072\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
  t.equal((await svc.domain.auth.oauth.signIn('alice', 'correct horse', HERE)).id, alice.id)
})

t.test('bob’s password stored at N=2^14 is hashed again at N=2^17 when he signs in, and only then', async (t) => {
  const svc = await makeDomainInstance(t, {}, { passwordCost: 'production', start: false })
  const bob = await svc.domain.users.accounts.create({ username: 'bob' })
  const old = await new PasswordHasher({ N: 2 ** 14, r: 8, p: 1 }).hash('correct horse')
  await svc.store.transact((tx) => tx.users.put({ ...bob, password_hash: old }))

  await t.rejects(svc.domain.auth.oauth.signIn('bob', 'wrong horse', HERE), { name: 'DomainError', slug: 'invalid-grant' })
  t.equal((await svc.domain.users.accounts.get(bob.id))?.password_hash, old, 'a wrong password changes nothing')
  await svc.domain.auth.oauth.signIn('bob', 'correct horse', HERE)
  const upgraded = (await svc.domain.users.accounts.get(bob.id))?.password_hash ?? ''
  t.match(upgraded, /^scrypt\$131072\$8\$1\$/, 'a right one is stored again at the current cost')
  t.equal((await svc.domain.auth.oauth.signIn('bob', 'correct horse', HERE)).id, bob.id, 'and still lets him in')
  t.equal((await svc.domain.users.accounts.get(bob.id))?.password_hash, upgraded, 'once')
})
