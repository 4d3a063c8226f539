/**
 * What `config.json` may hold, checked at every start: the keys of
 * `InstanceConfig`, each optional (a missing one takes its default), none
 * other. Types are not converted (`"no"` is not a boolean), so a mistake
 * stops svc instead of quietly changing what it does.
 */
import Joi from 'joi'
import type { InstanceConfig } from './config.js'
import { INSTANCE_DESCRIPTION_MAX, INSTANCE_NAME_MAX } from './limits.js'

const windowOf = (d: { limit: number; window_s: number }) =>
  Joi.object({
    limit: Joi.number().integer().min(1).default(d.limit),
    window_s: Joi.number().integer().min(1).default(d.window_s),
  }).default()

/**
 * A host as a Host header names it: a DNS name or IPv4 address, or an IPv6
 * address in brackets, then an optional port. Captures the name and the port.
 */
export const HOST_PATTERN = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i

/** What proxy-addr takes beside addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal']
const ipOrRange = Joi.string().ip({ cidr: 'optional' })

const schemaOf = (d: InstanceConfig) =>
  Joi.object({
    name: Joi.string().trim().min(1).max(INSTANCE_NAME_MAX).default(d.name),
    description: Joi.string().allow('').max(INSTANCE_DESCRIPTION_MAX).default(d.description),
    open_registration: Joi.boolean().default(d.open_registration),
    public_url: Joi.string()
      .allow('')
      .uri({ scheme: ['http', 'https'] })
      .default(d.public_url)
      .messages({ 'string.uri': '{#label} must be "" or an http(s) URL', 'string.uriCustomScheme': '{#label} must be "" or an http(s) URL' }),
    allowed_hosts: Joi.array()
      .items(
        Joi.string()
          .pattern(HOST_PATTERN)
          .messages({ 'string.pattern.base': '{#label} must be a host name, with a port or without ("svc.example", "svc.example:8080", "[::1]")' }),
      )
      .default(d.allowed_hosts),
    trusted_proxies: Joi.array()
      .items(
        Joi.string()
          .custom((value: string, helpers) => (PROXY_NAMES.includes(value) || !ipOrRange.validate(value).error ? value : helpers.error('any.invalid')))
          .messages({ 'any.invalid': `{#label} must be an IP address, a CIDR range or one of ${PROXY_NAMES.join(', ')}` }),
      )
      .default(d.trusted_proxies),
    rate_limits: Joi.object({
      enabled: Joi.boolean().default(d.rate_limits.enabled),
      authenticated: windowOf(d.rate_limits.authenticated),
      write: windowOf(d.rate_limits.write),
      unauthenticated: windowOf(d.rate_limits.unauthenticated),
      pages: windowOf(d.rate_limits.pages),
    }).default(),
    limits: Joi.object({
      following: Joi.number().integer().min(0).default(d.limits.following),
      max_file_size: Joi.number().integer().min(1).default(d.limits.max_file_size),
      storage: Joi.number().integer().min(0).default(d.limits.storage),
    }).default(),
    events: Joi.object({
      // Clients may resume a stream within about 600 s: a shorter retention would lose their events.
      retention_seconds: Joi.number().integer().min(600).default(d.events.retention_seconds),
      max_events: Joi.number().integer().min(1000).default(d.events.max_events),
    }).default(),
    search: Joi.object({
      window_posts: Joi.number().integer().min(1).default(d.search.window_posts),
      concurrent_scans: Joi.number().integer().min(1).default(d.search.concurrent_scans),
    }).default(),
    store: Joi.string()
      .allow('')
      .pattern(/^postgres(ql)?:\/\/\S+$/)
      .default(d.store)
      .messages({ 'string.pattern.base': '{#label} must be "" (the embedded store) or a postgres:// URL' }),
    bus: Joi.string()
      .allow('')
      .pattern(/^rediss?:\/\/\S+$/)
      .default(d.bus)
      .messages({ 'string.pattern.base': '{#label} must be "" (no bus) or a redis:// URL' }),
    // Left out of the defaults: a missing secret is generated and added to the file.
    session_secret: Joi.string().min(16),
  })
    .required()
    .messages({ 'any.required': 'the file must hold a JSON object', 'object.base': 'the file must hold a JSON object' })

/** The keys allowed where `path` (e.g. `rate_limits.write`) points. */
const keysAt = (schema: Joi.ObjectSchema, path: (string | number)[]): string[] => {
  const described = (path.length === 0 ? schema : schema.extract(path.map(String))).describe() as { keys?: Record<string, unknown> }
  return Object.keys(described.keys ?? {})
}

/**
 * Checks a parsed config document: answers it with every missing key set
 * from `defaults` (but `session_secret`), or the reason it is wrong, in one
 * line naming the key and what it expects.
 */
export function checkConfig(doc: unknown, defaults: InstanceConfig): { value: Partial<InstanceConfig>; error: null } | { value: null; error: string } {
  const schema = schemaOf(defaults)
  const { value, error } = schema.validate(doc, { convert: false, errors: { wrap: { label: false } } })
  if (!error) return { value: value as Partial<InstanceConfig>, error: null }
  const detail = error.details[0]
  if (detail.type === 'object.unknown') {
    const parent = detail.path.slice(0, -1)
    const where = parent.length > 0 ? ` in ${parent.join('.')}` : ''
    return { value: null, error: `unknown key ${detail.path.join('.')}: expected one of ${keysAt(schema, parent).join(', ')}${where}` }
  }
  return { value: null, error: detail.message }
}
