/**
 * OAuth 2.0 on `{auth_url}`: the token endpoint (every grant, form or JSON
 * body, plain JSON answers and RFC 6749 errors) and the browser flow's
 * sign-in and consent pages at `/oauth/authenticate` and `/oauth/authorize`.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import { isDomainError, type AuthorizationRequest, type Domain, type FlowStep, type GrantInput } from '../../data/index.js'
import { viewerOf } from '../auth.js'
import { basicCredentials } from '../basic-auth.js'
import { errorPage, errorResponse, htmlResponse } from '../pages/layout.js'
import { consentPage, requestFields, signInPage } from '../pages/oauth-pages.js'
import { checkedSession, ensureSession, newSession, writeSession, type Session } from '../pages/session.js'
import { contextOf } from '../present/context.js'
import { presentGrant, presentOAuthError } from '../present/token.js'
import type { SvcRoute } from '../route.js'

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

const flowFields = {
  client_id: Joi.string().max(200).required(),
  response_type: Joi.string().max(20).required(),
  redirect_uri: Joi.string().max(2000),
  scope: field(500),
  state: Joi.string().max(2000),
  adnview: Joi.string().max(20),
}

const pageFailure = (_request: Request, h: ResponseToolkit, err: Error | undefined) =>
  htmlResponse(h, errorPage('Something is wrong with this request', (err?.message ?? 'invalid request').replace(/"/g, '')), 400).takeover()

const requestOf = (input: Record<string, unknown>): AuthorizationRequest => {
  const { client_id, response_type, redirect_uri, scope, state } = input as Record<string, string | undefined>
  return { client_id: client_id ?? '', response_type: response_type ?? '', redirect_uri, scope, state }
}

export const oauthRoutes = (domain: Domain): SvcRoute[] => {
  const secret = domain.config.session_secret

  /** The page (or redirect) for a flow step, with the session's CSRF token in its forms. */
  const show = (request: Request, h: ResponseToolkit, step: FlowStep, session: Session, mode: string, error?: { message: string; status: number; username?: string }) => {
    if (step.kind === 'redirect') return h.redirect(step.location)
    const input = requestOf(request.method === 'get' ? request.query : (request.payload as Record<string, unknown>))
    const page = { action: `/oauth/${mode}`, request: input, authorization: step.authorization, csrf: session.csrf, error: error?.message }
    if (step.kind === 'consent') return htmlResponse(h, consentPage(page, step.user), error?.status)
    const back = `/oauth/${mode}?${new URLSearchParams(Object.entries(requestFields(input)).filter((e): e is [string, string] => e[1] !== undefined))}`
    const offerSignup = domain.oauth.openRegistration && (request.query.adnview ?? (request.payload as { adnview?: string } | null)?.adnview) !== 'appstore'
    return htmlResponse(h, signInPage(page, { signupHref: offerSignup ? `/signup?next=${encodeURIComponent(back)}` : undefined, username: error?.username }), error?.status)
  }

  const flowRoutes = (mode: 'authenticate' | 'authorize'): SvcRoute[] => [
    {
      method: 'GET',
      path: `/oauth/${mode}`,
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: { validate: { query: Joi.object(flowFields).unknown(true), failAction: pageFailure } },
      handler: async (request, h) => {
        const session = ensureSession(request, h, secret)
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
          failAction: pageFailure,
        },
      },
      handler: async (request, h) => {
        const body = request.payload as Record<string, string>
        const session = checkedSession(request, secret, body.csrf)
        if (!session) return htmlResponse(h, errorPage('Your session expired', 'Please go back, reload the page and try again.'), 403)
        const input = requestOf(body)
        try {
          if (body.action === 'approve' || body.action === 'deny') {
            if (session.user_id === undefined) return show(request, h, await domain.oauth.start(input, undefined, mode), session, mode)
            return h.redirect(await domain.oauth.decide(input, session.user_id, body.action === 'approve'))
          }
          if (body.action === 'sign_out') {
            const fresh = newSession()
            writeSession(request, h, secret, fresh)
            return show(request, h, await domain.oauth.start(input, undefined, mode), fresh, mode)
          }
          const user = await domain.oauth.signIn(body.username ?? '', body.password ?? '').catch((err) => (isDomainError(err) && err.code === 'unauthenticated' ? null : Promise.reject(err)))
          if (!user) {
            const step = await domain.oauth.start(input, undefined, mode)
            return show(request, h, step, session, mode, { message: 'Wrong username or password.', status: 401, username: body.username })
          }
          const fresh = newSession(user.id)
          writeSession(request, h, secret, fresh)
          return show(request, h, await domain.oauth.start(input, user.id, mode), fresh, mode)
        } catch (err) {
          return errorResponse(h, err) ?? Promise.reject(err)
        }
      },
    },
  ]

  return [
    {
      method: 'POST',
      path: '/oauth/access_token',
      rootOnly: true,
      svc: { token: 'none', raw: true },
      options: {
        payload: { failAction: oauthFailure('the body must be form-encoded or JSON') },
        validate: { payload: grantBody, failAction: (request, h, err) => oauthFailure((err?.message ?? 'invalid body').replace(/"/g, ''))(request, h) },
      },
      handler: async (request, h) => {
        // Client credentials may come with HTTP Basic instead of the body (RFC 6749 §2.3.1).
        const input: GrantInput = { ...(request.payload as GrantInput), ...basicCredentials(request) }
        try {
          const result = await domain.oauth.grant(input, viewerOf(request))
          return h.response(await presentGrant(contextOf(request, domain), result)).header('Cache-Control', 'no-store').header('Pragma', 'no-cache')
        } catch (err) {
          const failure = presentOAuthError(err)
          if (!failure) throw err
          return h.response(failure.body).code(failure.status).header('Cache-Control', 'no-store')
        }
      },
    },
    ...flowRoutes('authenticate'),
    ...flowRoutes('authorize'),
  ]
}
