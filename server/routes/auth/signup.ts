/** The sign-up page (`/signup`), open when the instance allows open registration, or to whoever follows an invitation's link (`?invite=`). */
import Joi from 'joi'
import { EMAIL_MAX_LENGTH, type AuthServices, type InstanceConfig } from '../../../data/index.js'
import { logUnsentMail } from '../../logs/mail-log.js'
import { mailNotice } from '../../present/users/account-email.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { errorPage, expiredSessionPage, htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { signupPage, welcomePage } from '../../pages/oauth-pages.js'
import { checkedSession, ensureSession, newSession, writeSession } from '../../pages/session.js'
import type { SvcRoute } from '../../route.js'

// Only back into the OAuth flow: never an open redirect to somewhere else.
export const next = Joi.string()
  .max(4000)
  .pattern(/^\/oauth\/(authenticate|authorize)(\?|$)/)
  .messages({ 'string.pattern.base': 'next must lead back to /oauth/authenticate or /oauth/authorize' })

const closed = () => errorPage('Sign-up is closed', 'This instance does not allow open registration. Ask its operator for an account, or for an invitation.')

const invite = Joi.string()
  .max(100)
  .pattern(/^[\w-]+$/)

export const signupRoutes = (auth: AuthServices, config: Pick<InstanceConfig, 'require_email'>): SvcRoute[] => [
  {
    method: 'GET',
    path: '/signup',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: {
      validate: {
        query: Joi.object({ next, invite }),
        failAction: invalidInputPage,
      },
    },
    handler: async (request, h) => {
      const code = request.query.invite as string | undefined
      // While registration is closed, only a link that still admits someone shows the form.
      const invited = !auth.signInFlow.signUpOpen && code !== undefined && (await auth.invites.admits(code))
      if (!auth.signInFlow.signUpOpen && !invited) return htmlResponse(h, closed(), 403)
      const session = ensureSession(request, h)
      const page = signupPage({
        csrf: session.csrf,
        next: request.query.next as string | undefined,
        requireEmail: config.require_email,
        ...(invited ? { invite: code } : {}),
      })
      return htmlResponse(h, page)
    },
  },
  {
    method: 'POST',
    path: '/signup',
    rootOnly: true,
    svc: { token: 'none', raw: true, rateAs: 'page' },
    options: {
      validate: {
        payload: Joi.object({
          csrf: Joi.string().max(100).required(),
          next,
          username: Joi.string().max(100).required(),
          name: Joi.string().max(200).allow(''),
          password: Joi.string().max(200).required(),
          invite,
          email: Joi.string()
            .max(EMAIL_MAX_LENGTH + 100)
            .allow(''),
        }),
        failAction: invalidInputPage,
      },
    },
    handler: pageHandler(async (request, h) => {
      const body = request.payload as { csrf: string; next?: string; username: string; name?: string; password: string; invite?: string; email?: string }
      const session = checkedSession(request, body.csrf)
      if (!session) return expiredSessionPage(h)
      const outcome = await auth.signInFlow.signUp(body)
      // A broken rule goes back to the form with what was typed, so the visitor can fix it.
      if (outcome.kind === 'retry') {
        return htmlResponse(
          h,
          signupPage({
            csrf: session.csrf,
            next: body.next,
            username: body.username,
            name: body.name,
            error: outcome.message,
            invite: body.invite,
            email: body.email,
            requireEmail: config.require_email,
          }),
          400,
        )
      }
      writeSession(h, newSession({ userId: outcome.user.id, epoch: outcome.user.session_epoch }))
      const mail = await auth.emails.confirmNew(outcome.user, baseUrlOf(request))
      logUnsentMail(request, 'confirmation', mail)
      return outcome.next
        ? h.redirect(outcome.next)
        : htmlResponse(h, welcomePage(outcome.user, mail && outcome.user.email ? mailNotice(mail, outcome.user.email.address) : undefined))
    }),
  },
]
