import t from 'tap'
import { UPLOADS_AT_ONCE, UPLOADS_PER_USER, type Viewer } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'

const KB = 1024

t.test('an upload is admitted only for a user token: anonymous calls and app tokens are refused', async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  await t.rejects(svc.domain.files.admitUpload({}, { declared: 10 }), { code: 'unauthenticated' })
  const app = await svc.domain.auth.tokens.authenticate(svc.appToken)
  await t.rejects(svc.domain.files.admitUpload(app, { declared: 10 }), { code: 'forbidden' })
})

t.test('admission weighs what the body says against the storage left and the largest file', async (t) => {
  const svc = await makeDomainInstance(t, { limits: { following: 100, max_file_size: 100 * KB, storage: 150 * KB } }, { start: false })
  const alice = await svc.person('alice')
  const viewer: Viewer = await svc.domain.auth.tokens.authenticate(alice.token)
  await t.rejects(svc.domain.files.admitUpload(viewer, { declared: 101 * KB, oneFile: true }), { code: 'quota', message: /at most 102400 bytes/ })
  await t.rejects(svc.domain.files.admitUpload(viewer, { declared: 151 * KB }), { code: 'quota', message: /not enough storage/ })
  const ticket = await svc.domain.files.admitUpload(viewer, { declared: 100 * KB })
  ticket.take(100 * KB)
  const other = await svc.domain.files.admitUpload(viewer, {})
  t.throws(() => other.take(51 * KB), { code: 'quota', message: /not enough storage/ }, 'bytes in flight count against the storage left')
  ticket.release()
  other.release()
  const after = await svc.domain.files.admitUpload(viewer, {})
  t.doesNotThrow(() => after.take(150 * KB), 'released, they no longer count')
  after.release()
})

t.test(`at most ${UPLOADS_PER_USER} uploads of one user and ${UPLOADS_AT_ONCE} in all are under way at once`, async (t) => {
  const svc = await makeDomainInstance(t, {}, { start: false })
  const people = await svc.people(...Array.from({ length: Math.ceil(UPLOADS_AT_ONCE / UPLOADS_PER_USER) + 1 }, (_, i) => `user${i}`))
  const viewers = await Promise.all(people.map((p) => svc.domain.auth.tokens.authenticate(p.token)))
  const held = []
  for (let i = 0; i < UPLOADS_PER_USER; i++) held.push(await svc.domain.files.admitUpload(viewers[0], {}))
  await t.rejects(svc.domain.files.admitUpload(viewers[0], {}), { code: 'rate_limited', message: /uploads at once/ })
  held.pop()?.release()
  held.push(await svc.domain.files.admitUpload(viewers[0], {}))
  let v = 1
  while (held.length < UPLOADS_AT_ONCE) {
    for (let i = 0; i < UPLOADS_PER_USER && held.length < UPLOADS_AT_ONCE; i++) held.push(await svc.domain.files.admitUpload(viewers[v], {}))
    v++
  }
  const last = viewers[viewers.length - 1]
  await t.rejects(svc.domain.files.admitUpload(last, {}), { code: 'rate_limited', message: /uploads at once/ })
  held[0].release()
  held[0].release()
  const next = await svc.domain.files.admitUpload(last, {})
  await t.rejects(svc.domain.files.admitUpload(last, {}), { code: 'rate_limited' }, 'releasing twice frees one place')
  next.release()
})
