/**
 * Where this instance stands in the fediverse: its public origin and the
 * authority of its handles, both from `public_url`, which is what remote
 * servers keep (actor ids, key ids) and must never change under them. A
 * request's own Host is never used: without `public_url` there is no
 * federation, and the reason says so.
 */
import type { InstanceConfig } from '../config.js'

/** The instance as other servers address it. */
export interface FederationSite {
  /** `public_url`'s origin, `https://svc.example` (no path, no trailing slash). */
  origin: string
  /** What follows `@username@` in a handle: the host, with `:PORT` when the URL has a port. */
  authority: string
}

/** Paths of the ActivityPub objects, under `/ap/` so none can meet the App.net API's (served at the root too). */
export const AP_PATHS = {
  actor: '/ap/users/{identifier}',
  inbox: '/ap/users/{identifier}/inbox',
  outbox: '/ap/users/{identifier}/outbox',
  followers: '/ap/users/{identifier}/followers',
  following: '/ap/users/{identifier}/following',
  sharedInbox: '/ap/inbox',
  note: '/ap/posts/{id}',
  nodeInfo: '/nodeinfo/2.1',
} as const

/** The site `config` federates as, or why it does not federate. */
export function federationSiteOf(config: Pick<InstanceConfig, 'public_url' | 'federation'>): { site: FederationSite; off: null } | { site: null; off: string } {
  const publicUrl = config.public_url.replace(/\/$/, '')
  if (config.federation.enabled === false) return { site: null, off: 'federation is off (federation.enabled is false in config.json)' }
  if (!publicUrl) {
    return { site: null, off: 'federation is off: it needs public_url (config.json or --public-url), the address other servers reach this instance at' }
  }
  const url = new URL(publicUrl)
  if (url.pathname !== '/' || url.search !== '') {
    return { site: null, off: `federation is off: public_url must be an origin without a path (${publicUrl}), as WebFinger answers at the host's root` }
  }
  return { site: { origin: url.origin, authority: url.host }, off: null }
}
