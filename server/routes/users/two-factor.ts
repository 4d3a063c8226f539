/**
 * Two-factor sign-in, from the owner's settings (svc's own calls). The
 * `update_profile` scope, not `basic`: every token holds `basic`, and these
 * change how the account signs in and sign it out everywhere else, which
 * only an app the user let change their account may do (svc's web client).
 * A change ends every other session and token of the account; the calling
 * token stays, and so does the caller's sign-in cookie, carried on under
 * the account's new credential generation.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import type { AuthServices, TwoFactorChange } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { newSession, sessionClaimOf, writeSession } from '../../pages/session.js'
import { commonQuery } from '../../params.js'
import { presentTwoFactorChange, presentTwoFactorSetup, presentTwoFactorStatus } from '../../present/users/two-factor.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import type { SvcRoute } from '../../route.js'

const query = Joi.object(commonQuery)
const code = Joi.string().trim().min(1).max(40)
const svc = { token: 'user', scopes: ['update_profile'] } as const

/** Who makes the change: their token and sign-in cookie stay. */
const keeping = (request: Request) => ({ tokenId: viewerOf(request).token?.id, session: sessionClaimOf(request) })

/** The change's answer; the caller's cookie moves on with the account. */
const answer = (h: ResponseToolkit, change: TwoFactorChange) => {
  if (change.session) writeSession(h, newSession(change.session))
  return ok(presentTwoFactorChange(change))
}

export const twoFactorRoutes = (auth: AuthServices): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me/two_factor',
    svc: { ...svc, answer: 'TwoFactorStatus' },
    options: { validate: { query } },
    handler: async (request) => ok(presentTwoFactorStatus(await auth.twoFactor.status(viewerOf(request)))),
  },
  {
    method: 'POST',
    path: '/users/me/two_factor/setup',
    svc: { ...svc, answer: 'TwoFactorSetup' },
    options: { validate: { query, payload: Joi.object({}).allow(null, '') } },
    handler: async (request) => ok(presentTwoFactorSetup(await auth.twoFactor.begin(viewerOf(request)))),
  },
  {
    method: 'POST',
    path: '/users/me/two_factor/confirm',
    svc: { ...svc, answer: 'TwoFactorChange' },
    options: { validate: { query, payload: Joi.object({ code: code.required() }) } },
    handler: async (request, h) => {
      const { code } = request.payload as { code: string }
      return answer(h, await auth.twoFactor.confirm(viewerOf(request), code, keeping(request)))
    },
  },
  {
    method: 'POST',
    path: '/users/me/two_factor/disable',
    svc: { ...svc, answer: 'TwoFactorChange' },
    options: { validate: { query, payload: Joi.object({ password: Joi.string().min(1).max(200).required(), code: code.required() }) } },
    handler: async (request, h) => {
      const input = request.payload as { password: string; code: string }
      return answer(h, await auth.twoFactor.disable(viewerOf(request), input, clientAddressOf(request), keeping(request)))
    },
  },
  {
    method: 'POST',
    path: '/users/me/two_factor/recovery_codes',
    svc: { ...svc, answer: 'TwoFactorChange' },
    options: { validate: { query, payload: Joi.object({ code: code.required() }) } },
    handler: async (request, h) => {
      const { code } = request.payload as { code: string }
      return answer(h, await auth.twoFactor.renewRecoveryCodes(viewerOf(request), code, clientAddressOf(request), keeping(request)))
    },
  },
]
