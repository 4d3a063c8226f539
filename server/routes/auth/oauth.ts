/**
 * The OAuth 2.0 token endpoint on `{auth_url}`: every grant, a form or JSON
 * body, client credentials in the body or HTTP Basic, plain JSON answers and
 * RFC 6749 error bodies. The browser flow's pages are in `oauth-flow.ts`.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import { GrantInput, type AuthServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { basicCredentials } from '../../basic-auth.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import { contextOf } from '../../present/context.js'
import { presentGrant, presentOAuthError } from '../../present/auth/token.js'
import type { SvcRoute } from '../../route.js'
import type { Shared } from '../shared.js'

const field = (max: number) => Joi.string().max(max).allow('')

const grantBody = Joi.object({
  grant_type: Joi.string().max(50).required(),
  client_id: field(200),
  client_secret: field(200),
  password_grant_secret: field(200),
  username: field(100),
  password: field(200),
  scope: field(500),
  code: field(200),
  redirect_uri: field(2000),
  delegate_client_id: field(200),
}).unknown(true) // clients send extras such as require_app_specific_password

const oauthFailure = (message: string) => (_request: Request, h: ResponseToolkit) =>
  h.response({ error: 'invalid_request', error_description: message }).code(400).takeover()

export const oauthRoutes = (auth: AuthServices, shared: Shared): SvcRoute[] => [
  {
    method: 'POST',
    path: '/oauth/access_token',
    rootOnly: true,
    // Every failure, including a bad bearer on the delegate grant (refused before the handler), answers an RFC 6749 error body.
    svc: { token: 'none', raw: true, errorBody: presentOAuthError },
    options: {
      payload: { failAction: oauthFailure('the body must be form-encoded or JSON') },
      validate: { payload: grantBody, failAction: (request, h, err) => oauthFailure((err?.message ?? 'invalid body').replace(/"/g, ''))(request, h) },
    },
    handler: async (request, h) => {
      // Client credentials may come with HTTP Basic instead of the body (RFC 6749 §2.3.1).
      const input: GrantInput = { ...(request.payload as GrantInput), ...basicCredentials(request) }
      const result = await auth.oauth.grant(input, viewerOf(request), clientAddressOf(request))
      return h
        .response(await presentGrant(contextOf(request, shared.views), result))
        .header('Cache-Control', 'no-store')
        .header('Pragma', 'no-cache')
    },
  },
]
