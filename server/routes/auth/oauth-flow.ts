/**
 * The browser flow of OAuth 2.0 at `/oauth/authenticate` and
 * `/oauth/authorize`: sign in, consent, and back to the client with a code
 * (query) or a token (fragment). Forms post back to the same path. The
 * domain's sign-in flow decides each step; these routes render it.
 */
import type { Request, ResponseToolkit } from '@hapi/hapi'
import Joi from 'joi'
import { AuthorizationRequest, FlowAction, FlowMode, FlowOutcome, type AuthServices } from '../../../data/index.js'
import { expiredSessionPage, htmlResponse, invalidInputPage, pageHandler } from '../../pages/layout.js'
import { consentPage, requestFields, signInPage, type InstanceIdentity } from '../../pages/oauth-pages.js'
import { secondFactorPage } from '../../pages/second-factor-page.js'
import { checkedSession, ensureSession, newSession, writeSession, type Session } from '../../pages/session.js'
import type { SvcRoute } from '../../route.js'
import { originOf } from '../../request-trust/base-url.js'
import { clientAddressOf } from '../../request-trust/client-address.js'

const field = (max: number) => Joi.string().max(max).allow('')

const flowFields = {
  client_id: Joi.string().max(200).required(),
  response_type: Joi.string().max(20).required(),
  redirect_uri: field(2000),
  scope: field(500),
  state: field(2000),
  adnview: Joi.string().max(20),
}

type FlowForm = Partial<Record<keyof typeof flowFields | 'csrf' | 'action' | 'username' | 'password' | 'code', string>>

const requestOf = (input: FlowForm, origin: string): AuthorizationRequest => {
  const { client_id, response_type, redirect_uri, scope, state } = input
  return { client_id: client_id ?? '', response_type: response_type ?? '', redirect_uri, scope, state, origin }
}

const actionOf = (form: FlowForm): FlowAction =>
  form.action === 'sign_in'
    ? { kind: 'sign_in', username: form.username ?? '', password: form.password ?? '' }
    : form.action === 'second_factor'
      ? { kind: 'second_factor', code: form.code ?? '' }
      : { kind: form.action as 'sign_out' | 'approve' | 'deny' }

/**
 * The outcome as an answer: a new session first when the flow starts one,
 * then the redirect or the step's page with the session's CSRF token. A
 * failed sign-in is a 401; one refused for too many failures a 429 with
 * `Retry-After`, as the page says in words.
 */
function render(h: ResponseToolkit, instance: InstanceIdentity, mode: FlowMode, request: AuthorizationRequest, session: Session, outcome: FlowOutcome) {
  const current = outcome.newSession ? newSession(outcome.newSession) : session
  if (current !== session) writeSession(h, current)
  const { step } = outcome
  if (step.kind === 'redirect') return h.redirect(step.location)
  const page = { action: `/oauth/${mode}`, request, authorization: step.authorization, csrf: current.csrf }
  if (step.kind === 'consent') return htmlResponse(h, consentPage(page, step.user))
  const retryAfter = step.failed?.retryAfter
  const status = retryAfter !== undefined ? 429 : step.failed ? 401 : 200
  const response =
    step.kind === 'second-factor'
      ? htmlResponse(h, secondFactorPage({ ...page, error: step.failed?.message }, step.username), status)
      : signInStep(h, instance, mode, request, { ...page, error: step.failed?.message }, step, status)
  return retryAfter === undefined ? response : response.header('Retry-After', String(retryAfter))
}

function signInStep(
  h: ResponseToolkit,
  instance: InstanceIdentity,
  mode: FlowMode,
  request: AuthorizationRequest,
  page: Parameters<typeof signInPage>[0],
  step: Extract<FlowOutcome['step'], { kind: 'sign-in' }>,
  status: number,
) {
  const fields = Object.entries(requestFields(request)).filter((e): e is [string, string] => e[1] !== undefined)
  const signupHref = step.offerSignUp ? `/signup?next=${encodeURIComponent(`/oauth/${mode}?${new URLSearchParams(fields)}`)}` : undefined
  return htmlResponse(h, signInPage(page, { instance, signupHref, username: step.failed?.username, signupWaits: step.signUpWaits }), status)
}

/** Who the session is signed in (or half signed in) as, and from where the request came: what the flow decides on besides the action. */
const signedIn = (session: Session, request: Request) => ({
  userId: session.user_id,
  epoch: session.epoch,
  ...(session.pending ? { pending: { userId: session.pending.user_id, epoch: session.pending.epoch, expires: session.pending.expires } } : {}),
  address: clientAddressOf(request),
})

export const oauthFlowRoutes = (auth: AuthServices, instance: InstanceIdentity): SvcRoute[] => {
  const flowRoutes = (mode: FlowMode): SvcRoute[] => [
    {
      method: 'GET',
      path: `/oauth/${mode}`,
      rootOnly: true,
      svc: { token: 'none', raw: true, rateAs: 'page' },
      options: { validate: { query: Joi.object(flowFields).unknown(true), failAction: invalidInputPage } },
      handler: pageHandler(async (request: Request, h) => {
        const session = ensureSession(request, h)
        const query = request.query as FlowForm
        const input = requestOf(query, originOf(request))
        const outcome = await auth.signInFlow.next({ mode, request: input, ...signedIn(session, request), action: { kind: 'view' }, view: query.adnview })
        return render(h, instance, mode, input, session, outcome)
      }),
    },
    {
      method: 'POST',
      path: `/oauth/${mode}`,
      rootOnly: true,
      svc: { token: 'none', raw: true, rateAs: 'page' },
      options: {
        validate: {
          payload: Joi.object({
            ...flowFields,
            csrf: Joi.string().max(100).required(),
            action: Joi.string().valid('sign_in', 'sign_out', 'approve', 'deny', 'second_factor').required(),
            username: field(100),
            password: field(200),
            code: field(40),
          }),
          failAction: invalidInputPage,
        },
      },
      handler: pageHandler(async (request: Request, h) => {
        const form = request.payload as FlowForm
        const session = checkedSession(request, form.csrf)
        if (!session) return expiredSessionPage(h)
        const input = requestOf(form, originOf(request))
        const view = (request.query as FlowForm).adnview ?? form.adnview
        const outcome = await auth.signInFlow.next({ mode, request: input, ...signedIn(session, request), action: actionOf(form), view })
        return render(h, instance, mode, input, session, outcome)
      }),
    },
  ]

  return [...flowRoutes('authenticate'), ...flowRoutes('authorize')]
}
