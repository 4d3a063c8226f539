/**
 * "Forgot password?" (`/password/forgot`, linked from the sign-in page) and
 * the page its mailed link opens (`/password/reset?token=`), where the new
 * password is set. Asking answers one page whoever it names; without mail,
 * the page says whom to ask.
 */
import Joi from 'joi'
import { isDomainError, LINK_PATHS, type AuthServices, type InstanceConfig } from '../../../data/index.js'
import { logUnsentMail } from '../../logs/mail-log.js'
import { deadResetLinkPage, forgotPage, forgotSentPage, passwordSetPage, resetPage } from '../../pages/account-mail-pages.js'
import { expiredSessionPage, htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { checkedSession, ensureSession } from '../../pages/session.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { clientAddressOf } from '../../request-trust/client-address.js'
import type { SvcRoute } from '../../route.js'
import { linkToken } from '../users/account-email.js'
import { next } from './signup.js'

const PAGE = { token: 'none', raw: true, rateAs: 'page' } as const

export const passwordResetRoutes = (auth: AuthServices, config: Pick<InstanceConfig, 'contact'>): SvcRoute[] => {
  const { passwordReset } = auth
  return [
    {
      method: 'GET',
      path: '/password/forgot',
      rootOnly: true,
      svc: PAGE,
      options: { validate: { query: Joi.object({ next }), failAction: invalidInputPage } },
      handler: (request, h) => {
        const session = ensureSession(request, h)
        const page = forgotPage({ csrf: session.csrf, next: request.query.next as string | undefined, mail: passwordReset.available, contact: config.contact })
        return htmlResponse(h, page)
      },
    },
    {
      method: 'POST',
      path: '/password/forgot',
      rootOnly: true,
      svc: PAGE,
      options: {
        validate: {
          payload: Joi.object({ csrf: Joi.string().max(100).required(), next, who: Joi.string().max(400).required() }),
          failAction: invalidInputPage,
        },
      },
      handler: pageHandler(async (request, h) => {
        const body = request.payload as { csrf: string; next?: string; who: string }
        // A form from before mail was turned off changes nothing: whom to ask is all there is to say.
        if (!passwordReset.available) return htmlResponse(h, forgotPage({ csrf: '', next: body.next, mail: false, contact: config.contact }))
        const session = checkedSession(request, body.csrf)
        if (!session) return expiredSessionPage(h)
        const { mail } = await passwordReset.request(body.who, clientAddressOf(request), baseUrlOf(request))
        // The page does not wait for the mail: how long it takes would tell whether the account exists.
        void mail.then((outcome) => logUnsentMail(request, 'password reset', outcome))
        return htmlResponse(h, forgotSentPage(body.next))
      }),
    },
    {
      method: 'GET',
      path: LINK_PATHS.reset_password,
      rootOnly: true,
      svc: PAGE,
      options: { validate: { query: Joi.object({ token: linkToken.required() }), failAction: invalidInputPage } },
      handler: pageHandler(async (request, h) => {
        const token = request.query.token as string
        if (!(await passwordReset.holds(token))) return htmlResponse(h, deadResetLinkPage(), 403)
        const session = ensureSession(request, h)
        return htmlResponse(h, resetPage({ csrf: session.csrf, token }))
      }),
    },
    {
      method: 'POST',
      path: LINK_PATHS.reset_password,
      rootOnly: true,
      svc: PAGE,
      options: {
        validate: {
          payload: Joi.object({
            csrf: Joi.string().max(100).required(),
            token: linkToken.required(),
            password: Joi.string().max(200).required(),
            password_again: Joi.string().max(200).required(),
          }),
          failAction: invalidInputPage,
        },
      },
      handler: pageHandler(async (request, h) => {
        const body = request.payload as { csrf: string; token: string; password: string; password_again: string }
        const session = checkedSession(request, body.csrf)
        if (!session) return expiredSessionPage(h)
        const again = (error: string) => htmlResponse(h, resetPage({ csrf: session.csrf, token: body.token, error }), 400)
        // A typing slip is the form's to catch: the link is not used up by it.
        if (body.password !== body.password_again) return again('The two passwords differ. Type the same one twice.')
        try {
          return htmlResponse(h, passwordSetPage(await passwordReset.reset(body.token, body.password)))
        } catch (err) {
          if (isDomainError(err) && err.code === 'invalid') return again(err.message)
          if (isDomainError(err) && err.slug === 'link-expired') return htmlResponse(h, deadResetLinkPage(), 403)
          throw err
        }
      }),
    },
  ]
}
