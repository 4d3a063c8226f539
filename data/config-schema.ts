/**
 * The instance configuration, declared once: every key of `config.json`,
 * its rule and its default, from which come the `InstanceConfig` type
 * (zod infers it), the defaults (the schema applied to `{}`) and the check
 * at every start. Each key is optional in the file (a missing one takes its
 * default), no other is allowed, and types are not converted (`"no"` is not
 * a boolean), so a mistake stops svc instead of quietly changing what it
 * does. The messages name the key and what it expects, in one line.
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { INSTANCE_DESCRIPTION_MAX, INSTANCE_NAME_MAX, INSTANCE_RULES_MAX } from './limits.js'

/**
 * A host as a Host header names it: a DNS name or IPv4 address, or an IPv6
 * address in brackets, then an optional port. Captures the name and the port.
 */
export const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i

/** A `postgres://` URL, as `store` and `--store` take it. */
export const STORE_URL_PATTERN = /^postgres(ql)?:\/\/\S+$/
/** A `redis://` URL, as `bus` and `--bus` take it. */
export const BUS_URL_PATTERN = /^rediss?:\/\/\S+$/

/** What proxy-addr takes beside addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal']

const int = (min: number, fallback: number) => z.int().min(min).default(fallback)

const rateWindow = (limit: number, window_s: number) => z.strictObject({ limit: int(1, limit), window_s: int(1, window_s) }).prefault({})

const isHttpUrl = (value: string): boolean => {
  if (value === '') return true
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const isProxy = (value: string): boolean => PROXY_NAMES.includes(value) || z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]).safeParse(value).success

export const configSchema = z.strictObject({
  /** Display name of the instance. */
  name: z.string().trim().min(1).max(INSTANCE_NAME_MAX).default('svc'),
  /** A line or two about the instance, shown on the web client's landing page. */
  description: z.string().max(INSTANCE_DESCRIPTION_MAX).default('A small social network. Sign up to post, follow people and message friends.'),
  /** Anyone may create an account at /signup. */
  open_registration: z.boolean().default(true),
  /**
   * Who may make an account at /signup: `open` anyone; `approval` anyone, but
   * the account waits for the operator (`svc user approve`); `invite` only
   * whoever follows an invitation's link; `closed` nobody. Absent (it has no
   * default, so files written before it keep their meaning):
   * `open_registration` decides, true `open`, false `invite`. Given, it wins.
   */
  registration: z.enum(['open', 'approval', 'invite', 'closed'], { error: 'must be "open", "approval", "invite" or "closed"' }).optional(),
  /** The instance's rules, shown at /signup above the form; when there are any, signing up needs "I agree to the rules". */
  rules: z.string().max(INSTANCE_RULES_MAX).default(''),
  /** Public base URL (for canonical URLs and image links); empty: derived from each request whose Host is this machine's or allowed. */
  public_url: z.string().refine(isHttpUrl, { error: 'must be "" or an http(s) URL' }).default(''),
  /** Host names (`host` or `host:port`) svc answers as when `public_url` is empty, beside this machine's own (localhost, its addresses). */
  allowed_hosts: z
    .array(z.string().regex(HOST_PATTERN, { error: 'must be a host name, with a port or without ("svc.example", "svc.example:8080", "[::1]")' }))
    .default([]),
  /** Proxies whose X-Forwarded-For, -Proto and -Host are believed: addresses, CIDR ranges, or `loopback`, `linklocal`, `uniquelocal`. */
  trusted_proxies: z.array(z.string().refine(isProxy, { error: `must be an IP address, a CIDR range or one of ${PROXY_NAMES.join(', ')}` })).default([]),
  rate_limits: z
    .strictObject({
      enabled: z.boolean().default(true),
      authenticated: rateWindow(5000, 3600),
      write: rateWindow(20, 60),
      unauthenticated: rateWindow(50, 60),
      /** HTML pages (the web client's page, user and post pages, the OAuth pages), per address. */
      pages: rateWindow(300, 60),
      /** Activities posted to the inboxes, per remote server (the host of the key that signed them). */
      federation: rateWindow(3000, 300),
    })
    .prefault({}),
  limits: z.strictObject({ following: int(0, 40000), max_file_size: int(1, 10_000_000), storage: int(0, 500_000_000) }).prefault({}),
  /** The event log: events are kept `retention_seconds` (clients resume a stream within about 600 s, so no less), at most `max_events` of them. */
  events: z.strictObject({ retention_seconds: int(600, 900), max_events: int(1000, 200_000) }).prefault({}),
  /** Searches that scan: post search looks at the newest `window_posts` posts; at most `concurrent_scans` searches run at once. */
  search: z.strictObject({ window_posts: int(1, 100_000), concurrent_scans: int(1, 2) }).prefault({}),
  /** Places search: `bundled` searches the GeoNames cities svc ships with (an index built in a worker as the server starts); an instance may search only what its operator imports. */
  places: z.strictObject({ bundled: z.boolean().default(true) }).prefault({}),
  /** Where the data lives: "" for the embedded store in the data dir, or a `postgres://` URL (`--store` and `SVC_STORE_URL` take precedence). */
  store: z
    .string()
    .refine((v) => v === '' || STORE_URL_PATTERN.test(v), { error: 'must be "" (the embedded store) or a postgres:// URL' })
    .default(''),
  /** A `redis://` URL linking several nodes (`--bus` and `SVC_BUS_URL` take precedence); "" for none. */
  bus: z
    .string()
    .refine((v) => v === '' || BUS_URL_PATTERN.test(v), { error: 'must be "" (no bus) or a redis:// URL' })
    .default(''),
  /**
   * ActivityPub. `enabled`: absent, on when `public_url` is set (federation
   * needs it: actor ids and handles derive from it). `allow_private_addresses`:
   * let outgoing fetches reach loopback and private addresses (instances on
   * one machine, tests); `SVC_FEDERATION_ALLOW_PRIVATE=1` sets it too.
   * `allowed_domains`: when it lists any, svc federates with the servers
   * they cover only (each a domain with its subdomains, or `host:port`),
   * as if every other server were blocked. `media_cache_bytes`: how much
   * of other servers' media (remote posts' photos and files, fetched and
   * served by svc) is kept; over it, the oldest copies go; 0 keeps none.
   * `work_share`: what federation work (inbox POSTs, the activities they
   * queued) may take of the server, so that a burst from other servers
   * slows the burst, not local users: `percent` of the wall clock,
   * `at_once` inbox POSTs at a time (the queue's activities take no such
   * place, so one waiting on a slow server never shuts the inbox),
   * `waiting` inbox POSTs in line (each for at most 5 s); past that an inbox POST is a 429 `inbox-busy` with
   * `Retry-After`, which other servers honour.
   */
  federation: z
    .strictObject({
      enabled: z.boolean().optional(),
      allow_private_addresses: z.boolean().default(false),
      allowed_domains: z
        .array(z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, { error: 'must be a domain (example.social) or host:port' }))
        .max(10_000)
        .default([]),
      media_cache_bytes: int(0, 1_000_000_000),
      work_share: z
        .strictObject({
          percent: z.int().min(1).max(100).default(20),
          at_once: z.int().min(1).max(64).default(2),
          waiting: z.int().min(0).max(100_000).default(1000),
        })
        .prefault({}),
    })
    .prefault({}),
  /** A port on 127.0.0.1 where `svc serve` answers Prometheus' `GET /metrics`, off the public port; null: no metrics (`--metrics-port` wins). */
  metrics_port: z.int().min(1).max(65535).nullable().default(null),
  /** The least severe log entry written: `info` has a line per request, `warn` only what went wrong. */
  log_level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /**
   * Mail over SMTP (nodemailer), for confirming addresses and "forgot
   * password" links; an empty `host` sends no mail. `secure`: TLS from the
   * first byte (port 465); else `require_tls` insists on STARTTLS. `from`:
   * the sender, needed once `host` is set.
   */
  smtp: z
    .strictObject({
      host: z.string().default(''),
      port: z.int().min(1).max(65535).default(587),
      secure: z.boolean().default(false),
      require_tls: z.boolean().default(true),
      user: z.string().default(''),
      password: z.string().default(''),
      from: z.string().max(320).default(''),
    })
    .refine((smtp) => smtp.host === '' || smtp.from.includes('@'), { error: 'must be an e-mail address when smtp.host is set', path: ['from'] })
    .prefault({}),
  /** How to reach the operator (an e-mail address or a line of text): shown where a page sends people to them, such as "forgot password" without mail. */
  contact: z.string().max(500).default(''),
  /** Sign-up at /signup asks for an e-mail address; `true` makes it required. */
  require_email: z.boolean().default(false),
  /** Seals (iron) the web sign-in cookie of the OAuth pages; generated at first start and kept in the file. */
  session_secret: z
    .string()
    .min(16)
    .default(() => randomBytes(32).toString('base64url')),
})

export type InstanceConfig = z.output<typeof configSchema>

/** Every key at its default, with a newly generated session secret. */
export const defaultConfig = (): InstanceConfig => configSchema.parse({})

/** The keys allowed in the object at `path` of the schema. */
function keysAt(path: PropertyKey[]): string[] {
  let schema: z.ZodType = configSchema
  for (const key of path) {
    const inner = unwrapped(schema)
    if (!(inner instanceof z.ZodObject)) return []
    schema = (inner.shape as Record<string, z.ZodType>)[String(key)]
  }
  const inner = unwrapped(schema)
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : []
}

/** The schema under its defaults. */
const unwrapped = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault ? unwrapped(schema.unwrap() as z.ZodType) : schema

const pathText = (path: PropertyKey[]): string =>
  path.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`)).join('')

/** The first problem of a document, as one line naming the key. */
function problemOf(issue: z.core.$ZodIssue): string {
  const key = pathText(issue.path)
  switch (issue.code) {
    case 'unrecognized_keys': {
      const unknown = [...issue.path, issue.keys[0]]
      const where = issue.path.length > 0 ? ` in ${pathText(issue.path)}` : ''
      return `unknown key ${pathText(unknown)}: expected one of ${keysAt(issue.path).join(', ')}${where}`
    }
    case 'invalid_type': {
      if (issue.path.length === 0) return 'the file must hold a JSON object'
      const expected = issue.expected === 'int' ? 'an integer' : `a${/^[aeiou]/.test(issue.expected) ? 'n' : ''} ${issue.expected}`
      return `${key} must be ${expected}`
    }
    case 'too_small':
      return issue.origin === 'string' ? `${key} must be at least ${issue.minimum} characters long` : `${key} must be greater than or equal to ${issue.minimum}`
    case 'too_big':
      return issue.origin === 'string' ? `${key} must be at most ${issue.maximum} characters long` : `${key} must be less than or equal to ${issue.maximum}`
    default:
      return `${key} ${issue.message}`
  }
}

/**
 * Checks a parsed config document: answers it with every missing key at its
 * default, or the reason it is wrong, in one line naming the key and what it
 * expects. `session_secret` is answered only when the document has one.
 */
export function checkConfig(doc: unknown): { value: InstanceConfig; hasSecret: boolean; error: null } | { value: null; hasSecret: false; error: string } {
  const parsed = configSchema.safeParse(doc)
  if (!parsed.success) return { value: null, hasSecret: false, error: problemOf(parsed.error.issues[0]) }
  return { value: parsed.data, hasSecret: typeof (doc as { session_secret?: unknown }).session_secret === 'string', error: null }
}
