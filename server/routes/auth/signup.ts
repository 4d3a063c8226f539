/**
 * The sign-up page (`/signup`), as the registration mode has it: open to
 * anyone (`open`; `approval`, where the account waits for the operator),
 * or to whoever follows an invitation's link (`?invite=`), or shut
 * (`closed`, links included). The instance's rules show above the form.
 */
import Joi from 'joi'
import { EMAIL_MAX_LENGTH, type AuthServices, type InstanceConfig } from '../../../data/index.js'
import { logUnsentMail } from '../../logs/mail-log.js'
import { mailNotice } from '../../present/users/account-email.js'
import { baseUrlOf } from '../../request-trust/base-url.js'
import { errorPage, expiredSessionPage, htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { signupPage, welcomePage } from '../../pages/oauth-pages.js'
import { waitingPage } from '../../pages/registration-pages.js'
import { checkedSession, ensureSession, newSession, writeSession } from '../../pages/session.js'
import type { SvcRoute } from '../../route.js'

// Only back into the OAuth flow: never an open redirect to somewhere else.
export const next = Joi.string()
  .max(4000)
  .pattern(/^\/oauth\/(authenticate|authorize)(\?|$)/)
  .messages({ 'string.pattern.base': 'next must lead back to /oauth/authenticate or /oauth/authorize' })

const invite = Joi.string()
  .max(100)
  .pattern(/^[\w-]+$/)

interface SignupForm {
  csrf: string
  next?: string
  username: string
  name?: string
  password: string
  password_again?: string
  invite?: string
  agree?: 'yes'
  note?: string
  email?: string
}

export const signupRoutes = (auth: AuthServices, config: Pick<InstanceConfig, 'require_email' | 'name' | 'description'>): SvcRoute[] => [
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
      const offer = await auth.registration.offer(code)
      if (!offer.open) return htmlResponse(h, errorPage('Sign-up is closed', offer.reason), 403)
      const session = ensureSession(request, h)
      const { waits, rules, invited } = offer
      const page = signupPage({
        instance: config,
        csrf: session.csrf,
        next: request.query.next as string | undefined,
        requireEmail: config.require_email,
        ...(invited ? { invite: code } : {}),
        ask: { waits, rules },
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
          password_again: Joi.string().max(200).allow(''),
          invite,
          agree: Joi.string().valid('yes'),
          note: Joi.string().max(2000).allow(''),
          email: Joi.string()
            .max(EMAIL_MAX_LENGTH + 100)
            .allow(''),
        }),
        failAction: invalidInputPage,
      },
    },
    handler: pageHandler(async (request, h) => {
      const body = request.payload as SignupForm
      const session = checkedSession(request, body.csrf)
      if (!session) return expiredSessionPage(h)
      const outcome = await auth.signInFlow.signUp({ ...body, agreed: body.agree === 'yes' })
      // A broken rule goes back to the form with what was typed, so the visitor can fix it.
      if (outcome.kind === 'retry') {
        const offer = await auth.registration.offer(body.invite)
        const ask = { waits: offer.open && offer.waits, rules: auth.registration.rules, agreed: body.agree === 'yes', note: body.note }
        const { next, username, name, invite, email } = body
        const page = signupPage({
          instance: config,
          csrf: session.csrf,
          next,
          username,
          name,
          error: outcome.message,
          invite,
          ask,
          email,
          requireEmail: config.require_email,
        })
        return htmlResponse(h, page, 400)
      }
      if (outcome.kind === 'waiting') return htmlResponse(h, waitingPage(outcome.user, config))
      writeSession(h, newSession({ userId: outcome.user.id, epoch: outcome.user.session_epoch }))
      const mail = await auth.emails.confirmNew(outcome.user, baseUrlOf(request))
      logUnsentMail(request, 'confirmation', mail)
      return outcome.next
        ? h.redirect(outcome.next)
        : htmlResponse(h, welcomePage(outcome.user, config, mail && outcome.user.email ? mailNotice(mail, outcome.user.email.address) : undefined))
    }),
  },
]
