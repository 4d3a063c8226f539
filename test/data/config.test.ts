/**
 * config.json as an operator edits it: checked at every start, with one line
 * naming the file, the key and what is expected, and never rewritten except
 * to add the session secret svc generates.
 */
import t from 'tap'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { initDataDir, openDomain } from '../../data/index.js'

/** A data dir whose config.json holds `text`. */
const withConfig = async (t: Tap, text: string): Promise<string> => {
  const dir = t.testdir()
  await initDataDir(dir)
  writeFileSync(join(dir, 'config.json'), text)
  return dir
}

type Tap = Parameters<Parameters<typeof t.test>[0]>[0]

t.test('a mistake in config.json stops the start with one line naming the file, the key and what is expected', async (t) => {
  const cases: [string, RegExp][] = [
    ['{"open_registration": "no"}', /: open_registration must be a boolean$/],
    [
      '{"open_registraton": false}',
      /: unknown key open_registraton: expected one of name, description, open_registration, registration, rules, public_url, allowed_hosts, trusted_proxies, rate_limits, limits, events, search, places, store, bus, federation, metrics_port, log_level, smtp, contact, require_email, session_secret$/,
    ],
    ['{"registration": "maybe"}', /: registration must be "open", "approval", "invite" or "closed"$/],
    ['{"rules": ["be kind"]}', /: rules must be a string$/],
    ['{"rate_limits": {"write": {"limit": -5}}}', /: rate_limits\.write\.limit must be greater than or equal to 1$/],
    [
      '{"rate_limits": {"wrte": {"limit": 5}}}',
      /: unknown key rate_limits\.wrte: expected one of enabled, authenticated, write, unauthenticated, pages, federation in rate_limits$/,
    ],
    ['{"public_url": "svc.example"}', /: public_url must be "" or an http\(s\) URL$/],
    ['{"store": "mysql://db/svc"}', /: store must be "" \(the embedded store\) or a postgres:\/\/ URL$/],
    ['{"bus": "nats://127.0.0.1"}', /: bus must be "" \(no bus\) or a redis:\/\/ URL$/],
    ['{"limits": {"following": 1.5}}', /: limits\.following must be an integer$/],
    ['{"events": {"retention_seconds": 60}}', /: events\.retention_seconds must be greater than or equal to 600$/],
    ['{"events": {"max_events": 10}}', /: events\.max_events must be greater than or equal to 1000$/],
    ['{"events": {"max_event": 5000}}', /: unknown key events\.max_event: expected one of retention_seconds, max_events in events$/],
    ['{"search": {"concurrent_scans": 0}}', /: search\.concurrent_scans must be greater than or equal to 1$/],
    ['{"places": {"bundled": "yes"}}', /: places\.bundled must be a boolean$/],
    ['["svc"]', /: the file must hold a JSON object$/],
    ['{"trusted_proxies": "loopback"}', /: trusted_proxies must be an array$/],
    [
      '{"trusted_proxies": ["loopback", "proxy.example"]}',
      /: trusted_proxies\[1\] must be an IP address, a CIDR range or one of loopback, linklocal, uniquelocal$/,
    ],
    [
      '{"allowed_hosts": ["https://svc.example/"]}',
      /: allowed_hosts\[0\] must be a host name, with a port or without \("svc\.example", "svc\.example:8080", "\[::1\]"\)$/,
    ],
    ['{"smtp": {"host": "mail.example"}}', /: smtp\.from must be an e-mail address when smtp\.host is set$/],
    ['{"smtp": {"port": 0}}', /: smtp\.port must be greater than or equal to 1$/],
    ['{"require_email": "yes"}', /: require_email must be a boolean$/],
    ['{"rate_limits": {"pages": {"window_s": 0}}}', /: rate_limits\.pages\.window_s must be greater than or equal to 1$/],
    ['{"federation": {"allow_private_addresses": "yes"}}', /: federation\.allow_private_addresses must be a boolean$/],
    [
      '{"federation": {"allowed_domains": ["https://friends.example/"]}}',
      /: federation\.allowed_domains\[0\] must be a domain \(example\.social\) or host:port$/,
    ],
    [
      '{"federation": {"enable": true}}',
      /: unknown key federation\.enable: expected one of enabled, allow_private_addresses, allowed_domains, media_cache_bytes, work_share in federation$/,
    ],
  ]
  for (const [text, reason] of cases) {
    const dir = await withConfig(t, text)
    const path = join(dir, 'config.json')
    const err = await openDomain(dir).then(
      (domain) => (domain.close(), null),
      (e: Error & { code?: string }) => e,
    )
    t.equal(err?.code, 'invalid', text)
    t.ok(err?.message.startsWith(`${path}: `), `names the file: ${err?.message}`)
    t.match(err?.message, reason)
    t.notMatch(err?.message, /\n/, 'in one line')
    t.equal(readFileSync(path, 'utf8'), text, 'the file is left as the operator wrote it')
  }
})

t.test('broken JSON in config.json names the file and where it breaks', async (t) => {
  const dir = await withConfig(t, '{\n  "name": "alice.example"\n  "open_registration": false\n}\n')
  await t.rejects(openDomain(dir), {
    code: 'invalid',
    message: `${join(dir, 'config.json')} is not valid JSON: comma expected at line 3, column 3`,
  })
})

t.test("alice's partial config keeps her values, takes defaults for the rest, and only gains a session secret", async (t) => {
  const text = '{ "name": "alice.example", "rate_limits": { "write": { "limit": 5 } } }'
  const dir = await withConfig(t, text)
  const domain = await openDomain(dir)
  await domain.close()
  t.equal(domain.config.name, 'alice.example')
  t.same(domain.config.rate_limits.write, { limit: 5, window_s: 60 }, 'a half-given window takes the default for the other half')
  t.same(domain.config.limits, { following: 40000, max_file_size: 10_000_000, storage: 500_000_000 })
  t.same(domain.config.events, { retention_seconds: 900, max_events: 200_000 }, 'events are kept 15 minutes, at most 200000 of them')
  t.same(domain.config.search, { window_posts: 100_000, concurrent_scans: 2 }, 'post search looks at the newest 100000 posts, two searches scan at once')
  t.same(domain.config.rate_limits.pages, { limit: 300, window_s: 60 }, 'pages: 300 a minute per address')
  t.same([domain.config.trusted_proxies, domain.config.allowed_hosts], [[], []], 'no proxy is trusted and no other host allowed unless named')
  const written = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))
  t.same(written, { ...JSON.parse(text), session_secret: domain.config.session_secret }, 'only the generated secret was added')

  const again = await openDomain(dir)
  await again.close()
  t.equal(again.config.session_secret, domain.config.session_secret, 'the secret outlives a restart')
})

t.test('the proxies and host names an operator gives are taken as written', async (t) => {
  const proxies = ['loopback', '10.0.0.0/8', '192.0.2.1', '2001:db8::/32']
  const hosts = ['svc.example', 'svc.example:8080', '192.0.2.10', '[2001:db8::1]:443']
  const dir = await withConfig(t, JSON.stringify({ trusted_proxies: proxies, allowed_hosts: hosts }))
  const domain = await openDomain(dir)
  await domain.close()
  t.same(domain.config.trusted_proxies, proxies)
  t.same(domain.config.allowed_hosts, hosts)
})

t.test('a complete config.json is never rewritten', async (t) => {
  const dir = t.testdir()
  await initDataDir(dir)
  const path = join(dir, 'config.json')
  const text = readFileSync(path, 'utf8').replace('"name": "svc"', '"name": "bob.example"')
  writeFileSync(path, text)
  const before = statSync(path).mtimeMs
  const domain = await openDomain(dir)
  await domain.close()
  t.equal(domain.config.name, 'bob.example')
  t.equal(readFileSync(path, 'utf8'), text)
  t.equal(statSync(path).mtimeMs, before)
})
