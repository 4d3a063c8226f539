/**
 * Someone guesses alice's password. Guesses are counted per address and
 * per account whatever the request carries besides (a valid token of
 * another account buys nothing), at the password grant and the sign-in page
 * alike, and client secrets are counted per address too. The stories run
 * with the API's rate limits off (as every test instance does): the
 * guessing limits apply all the same.
 */
import t from 'tap'
import { setTimeout as sleep } from 'node:timers/promises'
import { makeInstance, type Instance } from '../../fixtures/instance.js'
import { basic, csrfOf, makeClient, visitor, type Client } from '../../fixtures/oauth.js'

/** The password grant for `username`, form-encoded, from `address`, with whatever extra headers (a bearer token). */
async function guess(svc: Instance, robo: Client, username: string, password: string, address = '203.0.113.7', headers: Record<string, string> = {}) {
  const res = await svc.server.inject({
    method: 'POST',
    url: '/oauth/access_token',
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams({ grant_type: 'password', client_id: robo.client_id, client_secret: robo.client_secret, username, password }).toString(),
  })
  return { status: res.statusCode, body: JSON.parse(res.payload), retryAfter: res.headers['retry-after'] }
}

t.test('guessing alice’s password at the grant gets a 429, whichever valid token each guess carries', async (t) => {
  const svc = await makeInstance(t)
  t.equal(svc.domain.config.rate_limits.enabled, false, 'the API rate limits are off here')
  await svc.person('alice')
  const tokens = await Promise.all(['bob', 'carol', 'dave', 'erin', 'frank', 'grace'].map((name) => svc.person(name)))
  const robo = await makeClient(svc)

  const answers = []
  for (let i = 0; i < 40; i++) answers.push(await guess(svc, robo, 'alice', `guess ${i}`, undefined, tokens[i % tokens.length].auth))
  const first = answers.findIndex((a) => a.status === 429)
  t.ok(first >= 5 && first <= 10, `refused from the 6th to the 11th guess on (here the ${first + 1}th)`)
  t.ok(
    answers.slice(0, first).every((a) => a.status === 400 && a.body.error === 'invalid_grant'),
    'until then each is a wrong password',
  )
  t.ok(
    answers.slice(10).every((a) => a.status === 429),
    'from the 11th on every guess is refused',
  )
  t.match(answers[first].body, { error: 'temporarily_unavailable', error_description: /Too many failed sign-in attempts/ })
  t.match(answers[first].retryAfter, /^[1-9]\d*$/, 'with Retry-After in seconds')

  const right = await guess(svc, robo, 'alice', 'correct horse')
  t.equal(right.status, 429, 'even the right password is not checked while the account is held back')
})

t.test('the sign-in page refuses too many guesses with a page saying so', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const browser = visitor(svc)
  const fields = { client_id: robo.client_id, response_type: 'code', redirect_uri: 'https://robo.example/cb', scope: 'stream' }
  let page = await browser.get(`/oauth/authenticate?${new URLSearchParams(fields)}`)
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) {
    page = await browser.post('/oauth/authenticate', { ...fields, csrf: csrfOf(page.text), action: 'sign_in', username: 'alice', password: `guess ${i}` })
    statuses.push(page.status)
  }
  t.ok(statuses.includes(429), `refused in the end (${statuses.join(' ')})`)
  t.match(page.headers['content-type'], /text\/html/, 'a page, not JSON')
  t.match(page.text, /Too many failed sign-in attempts\. Try again in \d+ (seconds|minutes)\./)
  t.match(page.text, /Sign in to continue to Robo Reader/, 'the form is still there')
  t.match(page.headers['retry-after'], /^[1-9]\d*$/)
})

t.test('guesses at alice from many addresses make her account wait longer each time; her own sign-in clears the count', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  let n = 0
  const elsewhere = () => `198.51.100.${++n}`

  for (let i = 0; i < 4; i++) t.equal((await guess(svc, robo, 'alice', 'wrong horse', elsewhere())).status, 400)
  t.equal((await guess(svc, robo, 'alice', 'correct horse', elsewhere())).status, 200, 'alice signs in')
  const afterHers = []
  for (let i = 0; i < 5; i++) afterHers.push((await guess(svc, robo, 'alice', 'wrong horse', elsewhere())).status)
  t.same(afterHers, [400, 400, 400, 400, 400], 'her sign-in started the count again')

  const held = await guess(svc, robo, 'alice', 'wrong horse', elsewhere())
  t.equal(held.status, 429, 'five failures in a row: the account waits, from every address')
  t.equal(held.retryAfter, '1')
  await sleep(1100)
  t.equal((await guess(svc, robo, 'alice', 'wrong horse', elsewhere())).status, 400, 'after the wait one more guess is checked')
  const longer = await guess(svc, robo, 'alice', 'wrong horse', elsewhere())
  t.equal(longer.status, 429)
  t.equal(longer.retryAfter, '2', 'and the wait doubles')
})

t.test('a guesser learns nothing from when the refusals come: unknown usernames are counted alike', async (t) => {
  const svc = await makeInstance(t)
  await svc.person('alice')
  const robo = await makeClient(svc)
  const statuses = async (username: string, address: string) => {
    const seen = []
    for (let i = 0; i < 12; i++) seen.push((await guess(svc, robo, username, 'wrong horse', address)).status)
    return seen
  }
  const known = await statuses('alice', '203.0.113.21')
  t.ok(known.includes(429), `alice’s are refused in the end (${known.join(' ')})`)
  t.same(await statuses('nobody', '203.0.113.20'), known, 'and a username nobody has, at the same guess')
})

t.test('one address guessing at many accounts is stopped too', async (t) => {
  const svc = await makeInstance(t)
  const robo = await makeClient(svc)
  const statuses = []
  for (let i = 0; i < 35; i++) statuses.push((await guess(svc, robo, `user${i}`, 'wrong horse')).status)
  t.same(statuses.slice(0, 30), Array(30).fill(400), '30 failures a minute from one address')
  t.same(statuses.slice(30), Array(5).fill(429), 'then it waits')
  t.equal((await guess(svc, robo, 'user99', 'wrong horse', '203.0.113.99')).status, 400, 'other addresses go on')
})

t.test('client secret guesses are counted per address, at the token endpoint and the delegation check', async (t) => {
  const svc = await makeInstance(t)
  const alice = await svc.person('alice')
  const robo = await makeClient(svc)
  const credentials = (secret: string, address: string) =>
    svc.server.inject({
      method: 'POST',
      url: '/oauth/access_token',
      remoteAddress: address,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...alice.auth },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: robo.client_id, client_secret: secret }).toString(),
    })
  const statuses = []
  for (let i = 0; i < 32; i++) statuses.push((await credentials(`guess${i}`, '203.0.113.30')).statusCode)
  t.same(statuses.slice(0, 30), Array(30).fill(401), 'wrong secrets are 401s')
  t.same(statuses.slice(30), [429, 429], 'until the address has guessed enough')
  const refused = await credentials(robo.client_secret, '203.0.113.30')
  t.equal(refused.statusCode, 429, 'the right secret waits too')
  t.match(refused.headers['retry-after'], /^[1-9]\d*$/)
  t.equal((await credentials(robo.client_secret, '203.0.113.31')).statusCode, 200, 'robo elsewhere is fine')

  const { delegate_token } = await svc.domain.auth.delegation.mint(await svc.domain.auth.tokens.authenticate(alice.token), robo.client_id)
  const check = await svc.server.inject({
    method: 'GET',
    url: '/stream/0/token',
    remoteAddress: '203.0.113.30',
    headers: { ...basic(robo.client_id, 'guess'), 'identity-delegate-token': delegate_token },
  })
  t.equal(check.statusCode, 429, 'the delegation check counts against the same address')
})
