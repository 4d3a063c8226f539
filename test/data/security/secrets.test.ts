import t from 'tap'
import { hashPassword, newSecret, verifyPassword } from '../../../data/security/secrets.js'

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
  const stored = await hashPassword('correct horse')
  t.ok(await verifyPassword('correct horse', stored))
  t.notOk(await verifyPassword('correct hors', stored))
  t.notOk(await verifyPassword('correct horse', undefined))
})
