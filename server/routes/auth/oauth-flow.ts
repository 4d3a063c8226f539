/**
 * The browser flow of OAuth 2.0 at `/oauth/authenticate` and
 * `/oauth/authorize`: sign in, consent, and back to the client with a code
 * (query) or a token (fragment). Forms post back to the same path.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import { isDomainError, type AuthorizationRequest, type Domain, type FlowStep } from '../../../data/index.js'
import { errorResponse, expiredSessionPage, htmlResponse, invalidInputPage } from '../../pages/layout.js'
import { consentPage, requestFields, signInPage } from '../../pages/oauth-pages.js'
import { checkedSession, ensureSession, newSession, writeSession, type Session } from '../../pages/session.js'
import type { SvcRoute } from '../../route.js'

const field = (max: number) => Joi.string().max(max).allow('')

const flowFields = {
  client_id: Joi.string().max(200).required(),
  response_type: Joi.string().max(20).required(),
  redirect_uri: field(2000),
  scope: field(500),
  state: field(2000),
  adnview: Joi.string().max(20),
}

const requestOf = (input: Record<string, unknown>): AuthorizationRequest => {
  const { client_id, response_type, redirect_uri, scope, state } = input as Record<string, string | undefined>
  return { client_id: client_id ?? '', response_type: response_type ?? '', redirect_uri, scope, state }
}

export const oauthFlowRoutes = (domain: Domain): SvcRoute[] => {
  /** The page (or redirect) for a flow step, with the session's CSRF token in its forms. */
  const show = (
    request: Request,
    h: ResponseToolkit,
    step: FlowStep,
    session: Session,
    mode: string,
    error?: { message: string; status: number; username?: string },
  ) => {
    if (step.kind === 'redirect') return h.redirect(step.location)
    const input = requestOf(request.method === 'get' ? request.query : (request.payload as Record<string, unknown>))
    const page = { action: `/oauth/${mode}`, request: input, authorization: step.authorization, csrf: session.csrf, error: error?.message }
    if (step.kind === 'consent') return htmlResponse(h, consentPage(page, step.user), error?.status)
    const back = `/oauth/${mode}?${new URLSearchParams(Object.entries(requestFields(input)).filter((e): e is [string, string] => e[1] !== undefined))}`
    const offerSignup = domain.oauth.openRegistration && (request.query.adnview ?? (request.payload as { adnview?: string } | null)?.adnview) !== 'appstore'
    return htmlResponse(
      h,
      signInPage(page, { signupHref: offerSignup ? `/signup?next=${encodeURIComponent(back)}` : undefined, username: error?.username }),
      error?.status,
    )
  }

  const flowRoutes = (mode: 'authenticate' | 'authorize'): SvcRoute[] => [
    {
      method: 'GET',
      path: `/oauth/${mode}`,
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: { validate: { query: Joi.object(flowFields).unknown(true), failAction: invalidInputPage } },
      handler: async (request, h) => {
        const session = ensureSession(request, h)
        try {
          return show(request, h, await domain.oauth.start(requestOf(request.query), session.user_id, mode), session, mode)
        } catch (err) {
          return errorResponse(h, err) ?? Promise.reject(err)
        }
      },
    },
    {
      method: 'POST',
      path: `/oauth/${mode}`,
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        validate: {
          payload: Joi.object({
            ...flowFields,
            csrf: Joi.string().max(100).required(),
            action: Joi.string().valid('sign_in', 'sign_out', 'approve', 'deny').required(),
            username: field(100),
            password: field(200),
          }),
          failAction: invalidInputPage,
        },
      },
      handler: async (request, h) => {
        const body = request.payload as Record<string, string>
        const session = checkedSession(request, body.csrf)
        if (!session) return expiredSessionPage(h)
        const input = requestOf(body)
        try {
          if (body.action === 'approve' || body.action === 'deny') {
            if (session.user_id === undefined) return show(request, h, await domain.oauth.start(input, undefined, mode), session, mode)
            return h.redirect(await domain.oauth.decide(input, session.user_id, body.action === 'approve'))
          }
          if (body.action === 'sign_out') {
            const fresh = newSession()
            writeSession(h, fresh)
            return show(request, h, await domain.oauth.start(input, undefined, mode), fresh, mode)
          }
          const user = await domain.oauth
            .signIn(body.username ?? '', body.password ?? '')
            .catch((err) => (isDomainError(err) && err.slug === 'invalid-grant' ? null : Promise.reject(err)))
          if (!user) {
            const step = await domain.oauth.start(input, undefined, mode)
            return show(request, h, step, session, mode, { message: 'Wrong username or password.', status: 401, username: body.username })
          }
          const fresh = newSession(user.id)
          writeSession(h, fresh)
          return show(request, h, await domain.oauth.start(input, user.id, mode), fresh, mode)
        } catch (err) {
          return errorResponse(h, err) ?? Promise.reject(err)
        }
      },
    },
  ]

  return [...flowRoutes('authenticate'), ...flowRoutes('authorize')]
}
