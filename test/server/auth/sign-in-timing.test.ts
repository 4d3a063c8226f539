/**
 * How long a failed sign-in takes tells nothing about whether the username
 * exists: an unknown username and an account without a password cost one
 * password hash, as alice's wrong password does.
 */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'
import { makeClient } from '../../fixtures/oauth.js'

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

t.test('a wrong password takes as long for an unknown username or a passwordless bot as for alice', async (t) => {
  // A cost where one hash (tens of milliseconds) stands well above the rest of a request.
  const svc = await makeInstance(t, {}, { passwordCost: 2 ** 14 })
  await svc.people('alice', 'bob')
  for (const username of ['robo', 'beep']) await svc.domain.users.accounts.create({ username, type: 'bot' })
  const robo = await makeClient(svc)
  let n = 0
  const timed = async (username: string): Promise<number> => {
    const started = process.hrtime.bigint()
    const res = await svc.server.inject({
      method: 'POST',
      url: '/oauth/access_token',
      // An address of its own each time: the guessing limits are not what this measures.
      remoteAddress: `198.51.100.${++n}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        client_id: robo.client_id,
        client_secret: robo.client_secret,
        username,
        password: 'wrong horse',
      }).toString(),
    })
    t.equal(res.statusCode, 400)
    return Number(process.hrtime.bigint() - started) / 1e6
  }
  const samples: Record<string, number[]> = { known: [], unknown: [], passwordless: [] }
  // Interleaved, four guesses at each account (an account waits after five failures in a row).
  for (let i = 0; i < 4; i++) {
    for (const [kind, usernames] of [
      ['known', ['alice', 'bob']],
      ['unknown', [`nobody${i}`, `noone${i}`]],
      ['passwordless', ['robo', 'beep']],
    ] as const) {
      for (const username of usernames) samples[kind].push(await timed(username))
    }
  }
  const known = median(samples.known)
  // Without the hash the others take a few milliseconds against tens: a quarter leaves room for a busy machine.
  t.ok(median(samples.unknown) > known / 4, `unknown username: ${median(samples.unknown).toFixed(1)} ms against ${known.toFixed(1)} ms`)
  t.ok(median(samples.passwordless) > known / 4, `account without a password: ${median(samples.passwordless).toFixed(1)} ms against ${known.toFixed(1)} ms`)
})
