/**
 * The token itself: inspect it, deauthorize it, and the delegation endpoint
 * (`GET /token` called by a delegate client with its own credentials and the
 * delegate token, instead of an access token). Deauthorizing is also how
 * svc's web client signs out: sent with the browser's sign-in cookie, it
 * ends that session too, so the next sign-in page asks for a password.
 */
import type { Request } from '@hapi/hapi'
import Joi from 'joi'
import type { AuthServices } from '../../../data/index.js'
import { checkAccess, viewerOf } from '../../auth.js'
import { basicCredentials } from '../../basic-auth.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import { ok } from '../../envelope.js'
import { endSession, sessionClaimOf } from '../../pages/session.js'
import { commonQuery, userGeneralQuery } from '../../params.js'
import { contextOf } from '../../present/context.js'
import { presentToken } from '../../present/auth/token.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'
import { answerSubscribing } from '../../streams/subscribe.js'

/** A delegation check: the delegate token from the header or query, the caller's credentials from Basic or query. */
function delegationOf(request: Request): { client_id: string; client_secret: string; delegate_token: string } | null {
  const header = request.headers['identity-delegate-token']
  const delegate_token = typeof header === 'string' && header.length > 0 ? header : (request.query.delegate_token as string | undefined)
  if (!delegate_token) return null
  const credentials = basicCredentials(request) ?? {
    client_id: (request.query.client_id as string | undefined) ?? '',
    client_secret: (request.query.client_secret as string | undefined) ?? '',
  }
  return { ...credentials, delegate_token }
}

export const tokenRoutes = (auth: AuthServices, shared: Shared): SvcRoute[] => [
  {
    method: 'GET',
    path: '/token',
    // `none` because a delegation check carries Basic credentials, not a token; plain inspection checks below.
    svc: { token: 'none', answer: 'Token' },
    options: {
      validate: {
        query: Joi.object({
          ...commonQuery,
          ...userGeneralQuery,
          delegate_token: Joi.string().max(200),
          client_id: Joi.string().max(200),
          client_secret: Joi.string().max(200),
        }),
      },
    },
    handler: async (request) => {
      const delegation = delegationOf(request)
      if (delegation) return ok(await presentToken(contextOf(request, shared.views), await auth.delegation.verify(delegation, clientAddressOf(request))))
      checkAccess(viewerOf(request), 'any', undefined)
      return answerSubscribing(request, shared.userStreams, { endpoint: 'token', paginated: false }, async () =>
        ok(await presentToken(contextOf(request, shared.views), await auth.tokens.inspect(viewerOf(request)))),
      )
    },
  },
  {
    method: 'DELETE',
    path: '/token',
    svc: { token: 'any', answer: 'Token' },
    options: { validate: { query: Joi.object({ ...commonQuery, ...userGeneralQuery }) } },
    handler: async (request, h) => {
      const info = await auth.tokens.deauthorize(viewerOf(request), sessionClaimOf(request))
      endSession(request, h)
      return ok(await presentToken(contextOf(request, shared.views), info))
    },
  },
]
