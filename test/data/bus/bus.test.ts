/** The bus over a real Redis: a ring reaches every listener of the same instance, and only those. */
import t from 'tap'
import { settleOn } from '../../fixtures/wait.js'
import { Bus } from '../../../data/bus/bus.js'
import { REDIS_URL, redisUnavailable } from '../../fixtures/redis.js'

const skip = await redisUnavailable()

const heardWithin = (heard: string[], count: number, ms = 5000): Promise<void> => settleOn(() => heard.length >= count, ms)

t.test('a ring reaches the listeners of every node of the instance, not another instance', { skip }, async (t) => {
  const [a, b, other] = await Promise.all([Bus.open(REDIS_URL, 'secret one'), Bus.open(REDIS_URL, 'secret one'), Bus.open(REDIS_URL, 'secret two')])
  t.teardown(() => Promise.all([a.close(), b.close(), other.close()]))
  t.equal(a.prefix, b.prefix, 'nodes of one instance share a prefix')
  t.not(a.prefix, other.prefix, 'another instance has its own')
  const heardA: string[] = []
  const heardB: string[] = []
  const heardOther: string[] = []
  const stops = await Promise.all([
    a.bell('events').listen((m) => heardA.push(m)),
    b.bell('events').listen((m) => heardB.push(m)),
    other.bell('events').listen((m) => heardOther.push(m)),
  ])
  t.teardown(() => Promise.all(stops.map((stop) => stop())))
  a.bell('events').ring('41')
  b.bell('events').ring('42')
  await heardWithin(heardA, 2)
  await heardWithin(heardB, 2)
  t.same(heardA, ['41', '42'])
  t.same(heardB, ['41', '42'])
  t.same(heardOther, [], 'the other instance heard nothing')
  t.same((await new Promise<string[]>((resolve) => setTimeout(() => resolve(heardA), 100))).length, 2, 'each ring once')
})

t.test('a bus that does not answer is unavailable, naming it without its password', async (t) => {
  await t.rejects(Bus.open('redis://svc:hunter2@127.0.0.1:1', 'secret'), {
    code: 'unavailable',
    message: /^the bus at redis:\/\/svc:\*\*\*@127\.0\.0\.1:1 cannot be used/,
  })
})
