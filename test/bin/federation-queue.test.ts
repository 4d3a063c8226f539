/**
 * `svc federation queue`: bob follows alice from a server whose inbox is
 * at an address nobody answers; the Accept of his follow cannot be
 * delivered. The operator sees it, with svc stopped, per remote instance:
 * one delivery pending and failing, and the last error with when and which
 * try; as JSON with `--json`, as a table without. `svc federation retry`
 * makes it due now, `drop` removes it. `block`, `list` and `unblock` keep
 * the operator's blocks of other servers.
 */
import { createServer as netServer } from 'node:net'
import { join } from 'node:path'
import t from 'tap'
import { initDataDir } from '../../data/index.js'
import { createServer } from '../../server/server.js'
import { TEST_PASSWORD_COST } from '../fixtures/instance.js'
import { openWithStore } from '../fixtures/open-store.js'
import { injectionOf, remoteServer } from '../fixtures/remote-actor.js'
import { svc, svcJson } from '../fixtures/svc-in-process.js'
import { tempDir } from '../fixtures/svc-process.js'
import { waitUntil } from '../fixtures/wait.js'

const SITE = 'https://svc.example'

/** A loopback port nothing listens on (taken, then let go). */
const deadPort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = netServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })

t.test("a delivery to a host nobody answers is pending and failing, with its last error, in svc federation queue's --json and table", async (t) => {
  const dir = join(tempDir(t), 'svc-data')
  await initDataDir(dir, { public_url: SITE, federation: { allow_private_addresses: true } } as never)
  const { domain, store } = await openWithStore(dir, { passwordCost: TEST_PASSWORD_COST, bundledPlaces: false })
  const server = await createServer(domain)
  let open = true
  const close = async () => {
    if (!open) return
    open = false
    await server.stop()
    await domain.close()
  }
  t.teardown(close)

  const alice = await domain.users.accounts.create({ username: 'alice', password: 'correct horse', name: 'Alice' })
  const nowhere = `127.0.0.1:${await deadPort()}`
  const bob = await (await remoteServer(t)).actor('bob', { inbox: `http://${nowhere}/users/bob/inbox`, endpoints: { sharedInbox: `http://${nowhere}/inbox` } })
  const follow = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${bob.id}/follows/1`,
    type: 'Follow',
    actor: bob.id,
    object: `${SITE}/ap/users/${alice.id}`,
  }
  const res = await server.inject(await injectionOf(await bob.signedPost(`${SITE}/ap/inbox`, follow)))
  t.equal(res.statusCode, 202, 'the Follow taken')
  await waitUntil(async () => ((await store.read.federation_hosts.one('host', nowhere))?.failures ?? 0) > 0, 'the first try of the Accept failed')
  await close()

  const json = await svc(['federation', 'queue', '--json', '--data-dir', dir])
  t.equal(json.code, 0, json.stderr)
  const report = JSON.parse(json.stdout)
  t.equal(report.federating, true)
  t.match(report.hosts, [
    {
      host: nowhere,
      // One delivery, waiting for its retry (due seconds later: should it come while the command runs, it fails again).
      pending: 1,
      failing: 1,
      delivered: 0,
      given_up: 0,
      last_error: /ECONNREFUSED/,
      last_error_at: String,
      last_error_attempt: Number,
      last_error_activity: /^https:\/\/svc\.example\/ap\/users\/\d+#accepts\//,
    },
  ])

  const table = await svc(['federation', 'queue', '--data-dir', dir])
  t.equal(table.code, 0, table.stderr)
  const lines = table.stdout.trim().split('\n')
  t.match(
    lines.find((l) => l.startsWith('HOST')),
    /^HOST +PENDING +FAILING +GIVEN UP +DELIVERED +LAST ERROR$/,
    'a table with its header',
  )
  t.match(
    lines.find((l) => l.startsWith(nowhere)),
    new RegExp(`^${nowhere.replace(/\./g, '\\.')} +1 +1 +0 +0 +\\S+ \\(try \\d+\\) .*ECONNREFUSED`),
    "the host's line",
  )

  // The operator tries it again now, then gives up on it.
  t.same(await svcJson(['federation', 'retry', nowhere, '--json', '--data-dir', dir]), { host: nowhere, deliveries: 1 }, 'retried')
  const dropped = await svc(['federation', 'drop', nowhere, '--data-dir', dir])
  t.equal(dropped.stdout, `1 delivery to ${nowhere} dropped\n`, dropped.stderr)
  t.match((await svcJson(['federation', 'queue', '--json', '--data-dir', dir])).hosts, [{ host: nowhere, pending: 0, failing: 0 }], 'nothing pending')
  const bad = await svc(['federation', 'retry', 'http://nowhere/', '--data-dir', dir])
  t.not(bad.code, 0)
  t.match(bad.stderr, /is not a domain/)
})

t.test('svc federation block, list and unblock: a domain, its severity and media, as JSON and as lines; bad input is a clear error', async (t) => {
  const dir = join(tempDir(t), 'svc-data')
  await initDataDir(dir, { public_url: SITE } as never)
  const cli = (...args: string[]) => svc(['federation', ...args, '--data-dir', dir])
  const blocked = await cli('block', 'Spam.Example', '--json')
  t.equal(blocked.code, 0, blocked.stderr)
  t.match(JSON.parse(blocked.stdout), { block: { domain: 'spam.example', severity: 'suspend', reject_media: false, created_at: String }, accounts: 0 })
  const silenced = await cli('block', 'loud.example:8443', '--silence', '--reject-media')
  t.equal(silenced.code, 0, silenced.stderr)
  t.equal(silenced.stdout, 'loud.example:8443 silenced (0 known accounts limited); its media rejected\n')
  const list = await cli('list', '--json')
  t.same(
    JSON.parse(list.stdout).map((b: { domain: string; severity: string; reject_media: boolean }) => [b.domain, b.severity, b.reject_media]),
    [
      ['loud.example:8443', 'silence', true],
      ['spam.example', 'suspend', false],
    ],
  )
  t.match((await cli('list')).stdout, /^loud\.example:8443 {2}silence, media rejected {2}since \S+\nspam\.example {2}suspend {2}since \S+\n$/)
  const unblocked = await cli('unblock', 'spam.example')
  t.equal(unblocked.stdout, 'spam.example unblocked (0 known accounts restored)\n')
  const again = await cli('unblock', 'spam.example')
  t.not(again.code, 0, 'unblocking what is not blocked fails')
  t.match(again.stderr, /spam\.example is not blocked/)
  const bad = await cli('block', 'https://spam.example/')
  t.not(bad.code, 0)
  t.match(bad.stderr, /is not a domain/)
  t.equal((await cli('list')).stdout, 'loud.example:8443  silence, media rejected  since ' + JSON.parse(list.stdout)[0].created_at + '\n')
})
