/** The sign-up page (`/signup`), open when the instance allows open registration. */
import Joi from 'joi'
import { isDomainError, type Domain } from '../../../data/index.js'
import { errorPage, errorResponse, expiredSessionPage, htmlResponse, invalidInputPage } from '../../pages/layout.js'
import { signupPage, welcomePage } from '../../pages/oauth-pages.js'
import { checkedSession, ensureSession, newSession, writeSession } from '../../pages/session.js'
import type { SvcRoute } from '../../route.js'

// Only back into the OAuth flow: never an open redirect to somewhere else.
const next = Joi.string()
  .max(4000)
  .pattern(/^\/oauth\/(authenticate|authorize)(\?|$)/)
  .messages({ 'string.pattern.base': 'next must lead back to /oauth/authenticate or /oauth/authorize' })

const closed = () => errorPage('Sign-up is closed', 'This instance does not allow open registration. Ask its operator for an account.')

export const signupRoutes = (domain: Domain): SvcRoute[] => {
  return [
    {
      method: 'GET',
      path: '/signup',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        validate: {
          query: Joi.object({ next }),
          failAction: invalidInputPage,
        },
      },
      handler: (request, h) => {
        if (!domain.oauth.openRegistration) return htmlResponse(h, closed(), 403)
        const session = ensureSession(request, h)
        return htmlResponse(h, signupPage({ csrf: session.csrf, next: request.query.next as string | undefined }))
      },
    },
    {
      method: 'POST',
      path: '/signup',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        validate: {
          payload: Joi.object({
            csrf: Joi.string().max(100).required(),
            next,
            username: Joi.string().max(100).required(),
            name: Joi.string().max(200).allow(''),
            password: Joi.string().max(200).required(),
          }),
          failAction: invalidInputPage,
        },
      },
      handler: async (request, h) => {
        const body = request.payload as { csrf: string; next?: string; username: string; name?: string; password: string }
        const session = checkedSession(request, body.csrf)
        if (!session) return expiredSessionPage(h)
        try {
          const user = await domain.oauth.signUp(body)
          writeSession(h, newSession(user.id))
          return body.next ? h.redirect(body.next) : htmlResponse(h, welcomePage(user))
        } catch (err) {
          // Rule errors go back to the form with what was typed, so the visitor can fix them.
          if (isDomainError(err) && (err.code === 'invalid' || err.code === 'conflict')) {
            return htmlResponse(h, signupPage({ csrf: session.csrf, next: body.next, username: body.username, name: body.name, error: err.message }), 400)
          }
          return errorResponse(h, err) ?? Promise.reject(err)
        }
      },
    },
  ]
}
