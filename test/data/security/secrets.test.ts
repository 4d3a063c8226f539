import t from 'tap'
import { newSecret } from '../../../data/security/secrets.js'
import { PasswordHasher } from '../../../data/security/passwords.js'

t.test('secrets are letters and digits only, so none reads as a command-line option', async (t) => {
  const drawn = Array.from({ length: 2000 }, () => newSecret())
  t.ok(
    drawn.every((s) => /^[A-Za-z0-9]{43}$/.test(s)),
    'never a "-" or "_" (a client id starting with "-" broke `svc app delete CLIENT_ID`)',
  )
  t.equal(new Set(drawn).size, drawn.length, 'all different')
  t.match(newSecret(32), /^[A-Za-z0-9]{32}$/)
})

t.test('a password verifies against its hash and nothing else', async (t) => {
  const passwords = new PasswordHasher({ N: 2 ** 10, r: 8, p: 1 })
  const stored = await passwords.hash('correct horse')
  t.same(await passwords.verify('correct horse', stored), { ok: true, stale: false })
  t.same(await passwords.verify('correct hors', stored), { ok: false, stale: false })
  t.same(await passwords.verify('correct horse', undefined), { ok: false, stale: false })
  t.same(await passwords.verify('correct horse', 'scrypt$1099511627776$8$1$c2FsdA$aGFzaA'), { ok: false, stale: false }, 'a cost no sign-in may spend')
})
