/**
 * Builds the hapi server over a domain: envelope, auth, rate limits,
 * validation errors in the envelope, CORS, nosniff, what it believes of
 * forwarded headers and Host (request-trust.ts), and every route. `listen` is the
 * caller's choice, so tests use `server.inject` without a port.
 */
import Hapi, { type Server } from '@hapi/hapi'
import Inert from '@hapi/inert'
import Boom from '@hapi/boom'
import type { Domain } from '../data/index.js'
import { authPlugin } from './auth.js'
import { envelopePlugin } from './envelope.js'
import { formBodyPlugin } from './form-body.js'
import { sessionCookiePlugin } from './pages/session.js'
import { rateLimitPlugin } from './rate-limits/rate-limit.js'
import { memoryLimiter, redisLimiter } from './rate-limits/rate-limiters.js'
import './hapi-types.js'
import { apiPrefix, mount } from './route.js'
import { trustRequests } from './request-trust/trust.js'
import { allRoutes } from './routes/index.js'
import { VALIDATION_PREFS } from './validation.js'
import { setWireHeader } from './wire-headers.js'
import { serveUserStreamWebSockets } from './streams/websocket.js'
import type { Logger } from 'pino'
import { requestLogPlugin } from './logs/request-log.js'
import type { InstanceMetrics } from './metrics/instance-metrics.js'

export interface ServerOptions {
  port?: number
  host?: string
  /** Log a line per request and the causes of unexpected errors (`svc serve`); tests leave it out. */
  logger?: Logger
  /** Count requests in these metrics (`svc serve` with a metrics port). */
  metrics?: InstanceMetrics
}

export async function createServer(domain: Domain, options: ServerOptions = {}): Promise<Server> {
  const server = Hapi.server({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    routes: {
      // 'ignore' answers a literal `*`, as App.net did: no cross-origin call carries credentials, so echoing the Origin buys nothing.
      cors: {
        origin: 'ignore',
        additionalHeaders: ['X-SVC-Pretty-JSON', 'X-SVC-Migration-Overrides', 'Identity-Delegate-Token', 'Identity-Delegate-Endpoint'],
        additionalExposedHeaders: ['X-OAuth-Scopes', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Connection-Id'],
      },
      // No answer is to be read as another type than it says (a JSON body as HTML, an upload as script), nor framed: on every one, errors and 404s too.
      security: { hsts: false, xframe: 'deny', xss: false, noOpen: false, noSniff: true, referrer: false },
      validate: {
        options: VALIDATION_PREFS,
        failAction: async (_request, _h, err) => {
          throw Boom.badRequest(err instanceof Error ? err.message.replace(/"/g, '') : 'invalid input')
        },
      },
      payload: {
        failAction: async (_request, _h, err) => {
          throw Boom.badRequest(err instanceof Error ? err.message : 'invalid body')
        },
      },
    },
    router: { stripTrailingSlash: true },
  })
  trustRequests(server, domain.config)
  if (options.logger) await server.register({ plugin: requestLogPlugin, options: { logger: options.logger } })
  if (options.metrics) await server.register(options.metrics.plugin)
  await server.register(Inert)
  await server.register(formBodyPlugin)
  await server.register({ plugin: authPlugin, options: { domain } })
  await server.register(envelopePlugin)
  await server.register({ plugin: rateLimitPlugin, options: { domain, makeLimiter: domain.bus ? redisLimiter(domain.bus) : memoryLimiter } })
  await server.register({ plugin: sessionCookiePlugin, options: { secret: domain.config.session_secret } })
  server.route(mount(allRoutes(domain)))
  apiPrefix(server)
  serveUserStreamWebSockets(server, domain.streams.hub, domain.views)
  // Open streams would hold hapi's stop until its timeout: they end first, each keeping its position for the client's resume.
  server.ext('onPreStop', async () => {
    domain.health.markStopping()
    domain.streams.appHub.disconnectAll('the server is shutting down; reconnect to resume where you were')
    await domain.streams.hub.disconnectAll('the server is shutting down; reconnect with your connection_id')
  })
  server.ext('onPreResponse', (request, h) => {
    const response = request.response
    if (response && !Boom.isBoom(response)) setWireHeader(response, 'X-SVC-Migrations-Enabled', '')
    return h.continue
  })
  return server
}
