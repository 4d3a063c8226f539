/**
 * A real `svc serve` process: the CLI sets it up through its admin socket,
 * clients sign in over HTTP with the password grant and the browser flow,
 * and a restart finds everything again.
 */
import t from 'tap'
import { serve, svcJson, tempDir } from '../fixtures/svc-process.js'

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

/** The hidden fields of the page's first form, as a browser would post them back. */
const hiddenFields = (html: string): Record<string, string> => {
  const fields: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[m[1]] = m[2]
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
  return fields
}

const cookieOf = (res: Response, jar: string): string => {
  const set = res.headers.getSetCookie().map((c) => c.split(';')[0])
  return set.length > 0 ? set.join('; ') : jar
}

t.test('alice signs in to a running server set up with the CLI, and a restart keeps her', async (t) => {
  const dir = tempDir(t)
  const d = ['--data-dir', dir]
  let server = await serve(dir)
  t.teardown(() => server.stop())

  const app = await svcJson(['app', 'create', '--name', 'Alice Client', '--redirect-uri', 'http://client.example/cb', ...d])
  const alice = await svcJson(['user', 'create', '--username', 'alice', '--password', 'correct horse', '--name', 'Alice', ...d])

  const grant = await fetch(
    `${server.url}/oauth/access_token`,
    form({
      grant_type: 'password',
      client_id: app.client_id,
      password_grant_secret: app.password_grant_secret,
      username: 'alice',
      password: 'correct horse',
      scope: 'stream write_post',
    }),
  )
  t.equal(grant.status, 200)
  const { access_token, username } = (await grant.json()) as { access_token: string; username: string }
  t.equal(username, 'alice')
  const auth = { authorization: `Bearer ${access_token}` }

  const token = (await (await fetch(`${server.url}/stream/0/token`, { headers: auth })).json()) as any
  t.match(token.data, { app: { client_id: app.client_id }, scopes: ['basic', 'stream', 'write_post'], user: { id: alice.id } })
  const me = (await (await fetch(`${server.url}/stream/0/users/me`, { headers: auth })).json()) as any
  t.equal(me.data.username, 'alice')

  // The authorization code flow, as a browser drives it.
  const query = new URLSearchParams({ client_id: app.client_id, response_type: 'code', redirect_uri: 'http://client.example/cb', scope: 'basic', state: 'xyz' })
  const signInPage = await fetch(`${server.url}/oauth/authorize?${query}`)
  t.equal(signInPage.status, 200)
  let jar = cookieOf(signInPage, '')
  const signIn = hiddenFields(await signInPage.text())
  t.equal(signIn.action, 'sign_in')
  const consentPage = await fetch(`${server.url}/oauth/authorize`, {
    ...form({ ...signIn, username: 'alice', password: 'correct horse' }),
    headers: { ...form({}).headers, cookie: jar },
  })
  t.equal(consentPage.status, 200)
  jar = cookieOf(consentPage, jar)
  const consent = hiddenFields(await consentPage.text())
  const approved = await fetch(`${server.url}/oauth/authorize`, {
    ...form({ ...consent, action: 'approve' }),
    headers: { ...form({}).headers, cookie: jar },
    redirect: 'manual',
  })
  t.equal(approved.status, 302)
  const back = new URL(approved.headers.get('location')!)
  t.equal(`${back.origin}${back.pathname}`, 'http://client.example/cb')
  t.equal(back.searchParams.get('state'), 'xyz')
  const exchanged = await fetch(
    `${server.url}/oauth/access_token`,
    form({
      grant_type: 'authorization_code',
      client_id: app.client_id,
      client_secret: app.client_secret,
      redirect_uri: 'http://client.example/cb',
      code: back.searchParams.get('code')!,
    }),
  )
  t.equal(exchanged.status, 200)
  const codeToken = ((await exchanged.json()) as { access_token: string }).access_token
  const viaCode = (await (await fetch(`${server.url}/stream/0/users/me`, { headers: { authorization: `Bearer ${codeToken}` } })).json()) as any
  t.equal(viaCode.data.id, alice.id)

  t.equal(await server.stop(), 0, 'the server stops cleanly on SIGTERM')
  server = await serve(dir)
  const again = (await (await fetch(`${server.url}/stream/0/users/me`, { headers: auth })).json()) as any
  t.equal(again.data.username, 'alice', 'after a restart her token and account are still there')
  t.same(
    (await svcJson(['app', 'list', ...d])).map((a: { name: string; client_id: string }) => (a.client_id === app.client_id ? 'hers' : a.name)),
    ['svc web', 'hers'],
    "svc's own web client, then the app she registered",
  )
})
