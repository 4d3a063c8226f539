/**
 * Two `svc serve` processes on this machine, as README's federation section
 * starts them: each federates under its own `--public-url`, says so when it
 * starts, and answers WebFinger and actors over HTTP; with
 * `SVC_FEDERATION_ALLOW_PRIVATE=1` one fetches the key of a remote actor on
 * a loopback address and takes its signed post, without it refuses.
 */
import t from 'tap'
import { freePort } from '../fixtures/free-port.js'
import { injectionOf, remoteServer } from '../fixtures/remote-actor.js'
import { waitUntil } from '../fixtures/wait.js'
import { initDir, serve } from '../fixtures/svc-process.js'

/** `svc serve` at `http://127.0.0.1:PORT` with that as its public URL. */
async function instance(t: Parameters<typeof initDir>[0], env: Record<string, string>) {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const served = await serve(await initDir(t), ['--port', String(port), '--public-url', origin], env)
  t.teardown(() => served.stop())
  return { origin, served }
}

t.test('two instances federate under their own addresses, and the private-address switch decides whether a loopback key is fetched', async (t) => {
  const [open, closed] = await Promise.all([instance(t, { SVC_FEDERATION_ALLOW_PRIVATE: '1' }), instance(t, {})])
  // The line comes right after "listening on", which is what `serve` waits for.
  await waitUntil(() => [open, closed].every(({ served }) => served.stderr().includes('federating as')), 'the federation lines')
  t.match(open.served.stderr(), `federating as @username@${new URL(open.origin).host} (private addresses allowed)`)
  t.match(closed.served.stderr(), `federating as @username@${new URL(closed.origin).host}`)
  t.notMatch(closed.served.stderr(), 'private addresses allowed')

  const bob = await (await remoteServer(t)).actor('bob')
  for (const { origin } of [open, closed]) {
    const host = new URL(origin).host
    const nodeinfo = await (await fetch(`${origin}/nodeinfo/2.1`)).json()
    t.equal(nodeinfo.software.name, 'svc', `${host}: NodeInfo`)
    const missing = await fetch(`${origin}/.well-known/webfinger?resource=acct:nobody@${host}`)
    t.equal(missing.status, 404, `${host}: nobody is not found`)
  }
  // The shared inbox needs no local user: bob's signed Create verifies only where his loopback key may be fetched.
  const create = {
    '@context': 'https://www.w3.org/ns/activitystreams',
    id: `${bob.id}/notes/1/activity`,
    type: 'Create',
    actor: bob.id,
    object: { id: `${bob.id}/notes/1`, type: 'Note', attributedTo: bob.id, content: 'hi' },
  }
  for (const [{ origin }, status] of [
    [open, 202],
    [closed, 401],
  ] as const) {
    const { method, url, headers, payload } = await injectionOf(await bob.signedPost(`${origin}/ap/inbox`, create))
    const res = await fetch(`${origin}${url}`, { method, headers, body: payload })
    t.equal(res.status, status, `${origin}: ${await res.text()}`)
  }
})
