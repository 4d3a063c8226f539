/**
 * The account's own e-mail address (an svc addition, for svc's own web
 * client's settings): read it, change it with the password, ask for
 * another confirmation mail; and the page its mailed link opens.
 */
import Joi from 'joi'
import { EMAIL_MAX_LENGTH, LINK_PATHS, type AuthServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { logUnsentMail } from '../../logs/mail-log.js'
import { deadConfirmLinkPage, emailConfirmedPage } from '../../pages/account-mail-pages.js'
import { htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { commonQuery } from '../../params.js'
import { presentAccountEmail } from '../../present/users/account-email.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import type { SvcRoute } from '../../route.js'

const query = Joi.object(commonQuery)

/** The code of a mailed link, as its pages take it. */
export const linkToken = Joi.string()
  .max(100)
  .pattern(/^[A-Za-z0-9]+$/)

export const accountEmailRoutes = (auth: AuthServices): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me/email',
    svc: { token: 'user', answer: 'AccountEmail' },
    options: { validate: { query } },
    handler: async (request) => ok(presentAccountEmail(auth.emails.facts(viewerOf(request)))),
  },
  {
    method: 'PUT',
    path: '/users/me/email',
    svc: { token: 'user', scopes: ['update_profile'], answer: 'AccountEmail' },
    options: {
      validate: {
        query,
        payload: Joi.object({
          address: Joi.string()
            .allow('')
            .max(EMAIL_MAX_LENGTH + 100)
            .required(),
          password: Joi.string().max(200).required(),
        }),
      },
    },
    handler: async (request) => {
      const input = request.payload as { address: string; password: string }
      const { facts, mail } = await auth.emails.change(viewerOf(request), input, clientAddressOf(request), baseUrlOf(request))
      logUnsentMail(request, 'confirmation', mail)
      return ok(presentAccountEmail(facts, mail))
    },
  },
  {
    method: 'POST',
    path: '/users/me/email/confirmation',
    svc: { token: 'user', scopes: ['update_profile'], answer: 'AccountEmail' },
    options: { validate: { query, payload: Joi.object({}).allow(null, '') } },
    handler: async (request) => {
      const { facts, mail } = await auth.emails.resend(viewerOf(request), baseUrlOf(request))
      logUnsentMail(request, 'confirmation', mail)
      return ok(presentAccountEmail(facts, mail))
    },
  },
  {
    method: 'GET',
    path: LINK_PATHS.confirm_email,
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: { validate: { query: Joi.object({ token: linkToken.required() }), failAction: invalidInputPage } },
    handler: pageHandler(async (request, h) => {
      const user = await auth.emails.confirm(request.query.token as string)
      return user ? htmlResponse(h, emailConfirmedPage(user)) : htmlResponse(h, deadConfirmLinkPage(), 403)
    }),
  },
]
