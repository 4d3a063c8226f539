import { rmSync } from 'node:fs'
import t from 'tap'
import type { AppStreamItem, AppStreamMessage, AppStreamSink, Domain, Store, UserRow, Viewer } from '../../../data/index.js'
import { makeDomainInstance } from '../../fixtures/instance.js'
import { openWithStore } from '../../fixtures/open-store.js'
import { scratchDir } from '../../fixtures/scratch.js'

/** A consumer that keeps what it is sent; its writes wait while `hold` is set. */
class Recorder implements AppStreamSink {
  readonly renderKey = 'test'
  readonly messages: AppStreamMessage[] = []
  ended: AppStreamMessage | null | undefined = undefined
  hold: Promise<void> | null = null
  private wake: (() => void) | null = null

  render(item: AppStreamItem): Promise<unknown> {
    return Promise.resolve({ id: item.meta.id })
  }
  async write(message: AppStreamMessage): Promise<void> {
    await this.hold
    this.messages.push(message)
    this.wake?.()
  }
  close(last: AppStreamMessage | null): void {
    this.ended = last
    this.wake?.()
  }
  async until(test: () => boolean, ms = 5000): Promise<void> {
    const deadline = Date.now() + ms
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out; got ${JSON.stringify(this.messages.slice(-3))}`)
      await new Promise<void>((r) => {
        this.wake = r
        setTimeout(r, 50)
      })
    }
  }
  get events() {
    return this.messages.filter((m) => 'meta' in m)
  }
  get controls() {
    return this.messages.filter((m): m is { control: Record<string, unknown> } => 'control' in m)
  }
}

/** `n` profile updates in one transaction: cheap events every app stream of type `user` carries. */
const updates = (store: Store, user: UserRow, n: number) =>
  store.transact((tx) => {
    for (let i = 0; i < n; i++) tx.emit('user.updated', { user })
  })

async function appViewer(domain: Domain): Promise<Viewer> {
  const { app } = await domain.auth.apps.create({ name: 'Pusher', redirect_uris: ['http://push.example/cb'] })
  const { token } = await domain.auth.tokens.issueAppToken(app)
  return { token, app }
}

t.test('a queue that overflows while nobody reads drops its oldest events and says so', async (t) => {
  const svc = await makeDomainInstance(t, { events: { retention_seconds: 900, max_events: 1000 } })
  const alice = await svc.person('alice')
  const viewer = await svc.domain.auth.tokens.authenticate(svc.appToken)
  const { stream } = await svc.domain.streams.apps.create(viewer, { object_types: ['user'], type: 'long_poll' })
  t.equal(svc.domain.streams.appHub.queueLimit, 1000, 'the queue is bounded by the log')
  await updates(svc.store, alice.user, 1100)
  const sink = new Recorder()
  svc.domain.streams.appHub.connect(stream, {}, sink)
  await sink.until(() => sink.ended !== undefined || sink.controls.length > 0)
  // 1,100 updates and the stream's own creation event: 101 beyond the bound of 1,000.
  t.match(sink.controls[0], { control: { type: 'overflow', dropped: 101, message: /oldest 101 events were dropped/ } })
})

t.test('a consumer falling behind is warned as its queue fills, then disconnected past the bound', async (t) => {
  const svc = await makeDomainInstance(t, { events: { retention_seconds: 900, max_events: 1000 } })
  const alice = await svc.person('alice')
  const viewer = await svc.domain.auth.tokens.authenticate(svc.appToken)
  const { stream } = await svc.domain.streams.apps.create(viewer, { object_types: ['user'], type: 'long_poll' })
  const sink = new Recorder()
  let release = () => {}
  sink.hold = new Promise((r) => (release = r))
  svc.domain.streams.appHub.connect(stream, {}, sink)
  await updates(svc.store, alice.user, 1)
  await new Promise((r) => setTimeout(r, 50))
  await updates(svc.store, alice.user, 600)
  release()
  sink.hold = null
  await sink.until(() => sink.events.length === 601)
  t.match(sink.controls, [{ control: { type: 'warning', queue_limit: 1000, message: /% full/ } }], 'one warning, at 50 %')

  let releaseAgain = () => {}
  sink.hold = new Promise((r) => (releaseAgain = r))
  await updates(svc.store, alice.user, 1)
  await new Promise((r) => setTimeout(r, 50))
  await updates(svc.store, alice.user, 1100)
  releaseAgain()
  sink.hold = null
  await sink.until(() => sink.ended !== undefined)
  t.match(sink.ended, { control: { type: 'disconnect', message: /overflowed/ } })
})

t.test('a queue outlives a restart: nothing queued is lost', async (t) => {
  const dir = scratchDir('svc-app-stream-')
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { domain, store } = await openWithStore(dir)
  const viewer = await appViewer(domain)
  const user = await domain.users.accounts.create({ username: 'alice', password: 'correct horse', name: 'Alice' })
  // Profile updates reach an app only from users who authorized it.
  await domain.auth.tokens.issueUserToken(viewer.app!, user, ['basic'])
  const { stream } = await domain.streams.apps.create(viewer, { object_types: ['user'], type: 'long_poll' })
  const first = new Recorder()
  domain.streams.appHub.connect(stream, {}, first)
  await updates(store, user, 2)
  await first.until(() => first.events.length === 2)
  await updates(store, user, 3)
  await first.until(() => first.events.length === 5)
  await domain.close()
  t.match(first.ended, { control: { type: 'disconnect', message: /shutting down/ } })

  const again = await openWithStore(dir)
  t.teardown(() => again.domain.close())
  const [row] = await again.domain.streams.apps.list(viewer)
  await updates(again.store, user, 4)
  const second = new Recorder()
  again.domain.streams.appHub.connect(row.stream, {}, second)
  await second.until(() => second.events.length === 4)
  t.same(await second.controls, [], 'nothing dropped')
  t.equal(second.events.length, 4, 'exactly what was queued after the first consumer, nothing repeated')
})
