/**
 * The addresses other servers federate through, all answered by Fedify
 * (server/routes/federation/web-request.ts carries requests across):
 * WebFinger, NodeInfo, host-meta, and everything under `/ap/` (actors,
 * Notes, collections, the inboxes). Served at the root only: `/stream/0` is
 * the App.net API's. Without federation each answers the envelope's 404,
 * saying why.
 */
import type { FederationService } from '../../../data/index.js'
import type { SvcRouteConfig } from '../../hapi-types.js'
import type { SvcRoute } from '../../route.js'
import { answerFederation, federationNotFound } from './web-request.js'

/** Inbox bodies are single activities: a megabyte is far beyond any. */
const MAX_ACTIVITY_BYTES = 1_000_000

// Other servers' reads are counted per address like browsers on pages: generous, and never by a token they do not have.
const SVC: SvcRouteConfig = { token: 'none', raw: true, rateAs: 'page' }
/** Activities posted to the inboxes count against the remote server that signed them (`rate_limits.federation`). */
const INBOX: SvcRouteConfig = { ...SVC, rateAs: 'inbox' }

export const federationRoutes = (federation: FederationService): SvcRoute[] => {
  const answer: SvcRoute['handler'] = (request, h) => answerFederation(federation, request, h)
  const get = (path: string): SvcRoute => ({ method: 'GET', path, rootOnly: true, svc: SVC, handler: answer })
  return [
    get('/.well-known/webfinger'),
    get('/.well-known/nodeinfo'),
    get('/nodeinfo/2.1'),
    get('/ap/{path*}'),
    {
      method: 'POST',
      path: '/ap/{path*}',
      rootOnly: true,
      svc: INBOX,
      // The bytes as sent: the Digest header and the signature are over them.
      options: { payload: { parse: false, output: 'data', maxBytes: MAX_ACTIVITY_BYTES } },
      handler: answer,
    },
    {
      method: 'GET',
      path: '/.well-known/host-meta',
      rootOnly: true,
      svc: SVC,
      handler: (_request, h) => {
        const xrd = federation.hostMeta()
        if (xrd === null) throw federationNotFound(federation)
        return h.response(xrd).type('application/xrd+xml; charset=utf-8')
      },
    },
  ]
}
