/**
 * Two nodes of one instance share a bus (Redis): someone guessing alice's
 * password is counted once, whichever node each guess reaches.
 */
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { HERE, makeDomainInstance } from '../../fixtures/instance.js'
import { REDIS_URL, redisUnavailable } from '../../fixtures/redis.js'

const skip = await redisUnavailable()

t.test('guesses at alice through two nodes are counted together', { skip }, async (t) => {
  // Nodes of one instance share the session secret, and so the bus's key prefix; a fresh one keeps other runs' counts out.
  const instance = { bus: REDIS_URL, session_secret: randomUUID() }
  const [one, two] = [await makeDomainInstance(t, instance), await makeDomainInstance(t, instance)]
  await one.person('alice')
  for (let i = 0; i < 5; i++) {
    const node = i % 2 === 0 ? one : two
    await t.rejects(node.domain.auth.oauth.signIn('alice', `guess ${i}`, HERE), { name: 'DomainError', slug: 'invalid-grant' })
  }
  await t.rejects(
    two.domain.auth.oauth.signIn('alice', 'guess 5', HERE),
    { name: 'DomainError', code: 'rate_limited', retryAfter: 1 },
    'five in a row, across both',
  )
  await t.rejects(one.domain.auth.oauth.signIn('alice', 'correct horse', HERE), { name: 'DomainError', code: 'rate_limited' }, 'on either node')
})
