/** `/livez` and `/readyz`: what a process supervisor and a load balancer ask. */
import t from 'tap'
import { makeInstance } from '../../fixtures/instance.js'

t.test('a serving instance is alive and ready, in plain text and never cached', async (t) => {
  const svc = await makeInstance(t)
  const live = await svc.server.inject('/livez')
  t.equal(live.statusCode, 200)
  t.equal(live.payload, 'alive\n')
  t.equal(live.headers['content-type'], 'text/plain; charset=utf-8')
  t.equal(live.headers['cache-control'], 'no-store')
  const ready = await svc.server.inject('/readyz')
  t.equal(ready.statusCode, 200)
  t.equal(ready.payload, 'ready\n')
})

t.test('an instance whose store cannot serve is alive but not ready, and says why', async (t) => {
  const svc = await makeInstance(t)
  await svc.store.close()
  const ready = await svc.server.inject('/readyz')
  t.equal(ready.statusCode, 503)
  t.equal(ready.payload, 'unavailable: the store is closed\n')
  t.equal((await svc.server.inject('/livez')).statusCode, 200, 'still alive: a restart is not what it needs')
})

t.test('a stopping instance is not ready any more', async (t) => {
  const svc = await makeInstance(t)
  await svc.server.start()
  const url = svc.server.info.uri
  t.equal((await fetch(`${url}/readyz`)).status, 200)
  await svc.server.stop()
  const after = await svc.server.inject('/readyz')
  t.equal(after.statusCode, 503)
  t.equal(after.payload, 'unavailable: the server is stopping\n')
})

t.test('probes are not rate limited', async (t) => {
  const svc = await makeInstance(t, { rate_limits: { enabled: true, unauthenticated: { limit: 2, window_s: 60 } } as never })
  const statuses = []
  for (let i = 0; i < 5; i++) statuses.push((await svc.server.inject('/livez')).statusCode, (await svc.server.inject('/readyz')).statusCode)
  t.same(new Set(statuses), new Set([200]))
  t.equal((await svc.call('GET', '/stream/0/posts/stream/global')).status, 200)
  t.equal((await svc.call('GET', '/stream/0/posts/stream/global')).status, 200)
  t.equal((await svc.call('GET', '/stream/0/posts/stream/global')).status, 429, 'while the API is')
})
