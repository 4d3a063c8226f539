/**
 * The owner's own control of the account (svc's own calls, for its web
 * client's settings): a new password, the places the account is signed in
 * and ending them, and deleting the account. The `update_profile` scope, as
 * two-factor sign-in's routes: every token holds `basic`. A change that
 * signs the account out elsewhere keeps the calling token and the caller's
 * sign-in cookie, carried on under the account's new credential generation.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import type { AccountChange, AuthServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { newSession, sessionClaimOf, writeSession } from '../../pages/session.js'
import { commonQuery, idParam } from '../../params.js'
import { presentAccountSession, presentDeletedAccount } from '../../present/users/account-control.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import type { SvcRoute } from '../../route.js'

const query = Joi.object(commonQuery)
const password = Joi.string().min(1).max(200)
const svc = { token: 'user', scopes: ['update_profile'] } as const

/** Who makes the change: their token and sign-in cookie stay. */
const keeping = (request: Request) => ({ tokenId: viewerOf(request).token?.id, session: sessionClaimOf(request) })

/** The change's answer; the caller's cookie moves on with the account. */
const signedOutElsewhere = (h: ResponseToolkit, change: AccountChange) => {
  if (change.session) writeSession(h, newSession(change.session))
  return ok({ sessions_ended: change.ended })
}

export const accountControlRoutes = (auth: AuthServices): SvcRoute[] => [
  {
    method: 'POST',
    path: '/users/me/password',
    svc: { ...svc, answer: 'SignedOutElsewhere' },
    options: { validate: { query, payload: Joi.object({ current_password: password.required(), new_password: Joi.string().max(200).required() }) } },
    handler: async (request, h) => {
      const input = request.payload as { current_password: string; new_password: string }
      return signedOutElsewhere(h, await auth.accountControl.changePassword(viewerOf(request), input, clientAddressOf(request), keeping(request)))
    },
  },
  {
    method: 'GET',
    path: '/users/me/sessions',
    svc: { ...svc, answer: 'AccountSession[]' },
    options: { validate: { query } },
    handler: async (request) => ok((await auth.accountControl.sessions(viewerOf(request))).map(presentAccountSession)),
  },
  {
    method: 'DELETE',
    path: '/users/me/sessions/{session_id}',
    svc: { ...svc, answer: 'AccountSession[]' },
    options: { validate: { query, params: Joi.object({ session_id: idParam().required() }) } },
    handler: async (request) => {
      const viewer = viewerOf(request)
      await auth.accountControl.endSession(viewer, Number(request.params.session_id))
      return ok((await auth.accountControl.sessions(viewer)).map(presentAccountSession))
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/sessions',
    svc: { ...svc, answer: 'SignedOutElsewhere' },
    options: { validate: { query } },
    handler: async (request, h) => signedOutElsewhere(h, await auth.accountControl.endOtherSessions(viewerOf(request), keeping(request))),
  },
  {
    method: 'DELETE',
    path: '/users/me',
    svc: { ...svc, answer: 'DeletedAccount' },
    options: { validate: { query, payload: Joi.object({ password: password.required(), code: Joi.string().trim().max(40).allow('') }) } },
    handler: async (request) => {
      const input = request.payload as { password: string; code?: string }
      return ok(presentDeletedAccount(await auth.accountControl.deleteOwnAccount(viewerOf(request), input, clientAddressOf(request))))
    },
  },
]
