/**
 * App passwords (svc's own calls): what an app using the password grant
 * signs in with for an account with two-factor sign-in. `update_profile`,
 * as the two-factor calls (see two-factor.ts): making a credential is a
 * change to the account no app holding only `basic` may make.
 */
import Joi from 'joi'
import { APP_PASSWORD_NAME_MAX, type AuthServices } from '../../../data/index.js'
import { viewerOf } from '../../auth.js'
import { ok } from '../../envelope.js'
import { commonQuery, idParam } from '../../params.js'
import { presentAppPassword } from '../../present/users/two-factor.js'
import type { SvcRoute } from '../../route.js'

const query = Joi.object(commonQuery)
const svc = { token: 'user', scopes: ['update_profile'] } as const

export const appPasswordRoutes = (auth: AuthServices): SvcRoute[] => [
  {
    method: 'GET',
    path: '/users/me/app_passwords',
    svc: { ...svc, answer: 'AppPassword[]' },
    options: { validate: { query } },
    handler: async (request) => ok((await auth.appPasswords.list(viewerOf(request))).map(presentAppPassword)),
  },
  {
    method: 'POST',
    path: '/users/me/app_passwords',
    svc: { ...svc, answer: 'CreatedAppPassword' },
    options: { validate: { query, payload: Joi.object({ name: Joi.string().trim().min(1).max(APP_PASSWORD_NAME_MAX).required() }) } },
    handler: async (request) => {
      const { password, app_password } = await auth.appPasswords.create(viewerOf(request), (request.payload as { name: string }).name)
      return ok({ ...presentAppPassword(app_password), password })
    },
  },
  {
    method: 'DELETE',
    path: '/users/me/app_passwords/{app_password_id}',
    svc: { ...svc, answer: 'AppPassword' },
    options: { validate: { query, params: Joi.object({ app_password_id: idParam().required() }) } },
    handler: async (request) => ok(presentAppPassword(await auth.appPasswords.revoke(viewerOf(request), Number(request.params.app_password_id)))),
  },
]
