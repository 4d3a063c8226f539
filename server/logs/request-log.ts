/**
 * The server's log: hapi-pino hands each request a child logger bound to
 * its request id and carries `request.log` and `server.log` entries (the
 * envelope's cause of an unexpected error among them) to the logger; this
 * plugin adds one line per answered request: method, route, path, status,
 * duration, request id, user and app, and the `error_id` an error answer
 * showed, so an operator finds what a user quotes. No header, query string
 * or body is logged, so no token, password or secret is; redaction stands
 * behind that for what an error carries.
 */
import type { Plugin, Request } from '@hapi/hapi'
import hapiPino from 'hapi-pino'
import type { Logger } from 'pino'
import { viewerOf } from '../auth.js'
import { outcomeOf } from '../request-outcome.js'

/** Fields no log line may show, wherever an error or a log call puts them. */
export const REDACTED_PATHS = [
  'password',
  'token',
  'access_token',
  'client_secret',
  'authorization',
  'cookie',
  '*.password',
  '*.token',
  '*.access_token',
  '*.client_secret',
  '*.authorization',
  '*.cookie',
  // Two-factor sign-in's: the secret an app is set up with, recovery codes.
  'secret',
  '*.secret',
  'recovery_codes',
  '*.recovery_codes',
  '*.headers',
  '*.payload',
]

/** The line of one answered request. */
function requestLine(request: Request): Record<string, unknown> {
  const viewer = viewerOf(request)
  const { status, ms } = outcomeOf(request)
  return {
    method: request.method.toUpperCase(),
    route: request.route.path,
    path: request.path,
    status,
    duration_ms: Math.round(ms * 10) / 10,
    ...(viewer.user ? { user_id: viewer.user.id } : {}),
    ...(viewer.app ? { app: viewer.app.client_id } : {}),
    ...(request.app.errorId ? { error_id: request.app.errorId } : {}),
  }
}

export const requestLogPlugin: Plugin<{ logger: Logger }> = {
  name: 'svc-request-log',
  async register(server, { logger }) {
    await server.register({
      plugin: hapiPino,
      options: {
        instance: logger,
        // The request line below replaces hapi-pino's, which would show every header; start and stop are svc serve's to say.
        logEvents: false,
        mergeHapiLogData: true,
        getChildBindings: (request: Request) => ({ request_id: request.info.id }),
      },
    })
    server.events.on('response', (request) => {
      const line = requestLine(request)
      const log = (request as Request & { logger?: Logger }).logger ?? logger
      log.info(line, 'request')
    })
  },
}
